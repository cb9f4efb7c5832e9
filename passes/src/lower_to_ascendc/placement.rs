//! On-chip buffer placement, per function: every `layout.alloc` gets a byte offset in its
//! memory, aligned to the memory's alignment, first fit in program order among the buffers whose
//! live ranges overlap its own (buffers never live at the same time may share addresses: two
//! GEMMs in sequence reuse one L1 panel), and the end is checked against the target's capacity.
//!
//! Capacities and alignments are the memory space's ([`layout_algebra::ascend::MemorySpace`]:
//! the per-target capacity table with its sources; alignment L1 32 B, L0A/L0B 512 B, L0C 64 B,
//! docs/layout-spec.md §D.1). Sizes are rounded up to the alignment. When every buffer is live
//! at once, first fit is the bump allocation of AscendC's `LocalMemAllocator` in the same order.

use ascendc_params::{Buffer, Target};
use layout_algebra::{ascend::ElementType, IndexValue};
use thiserror::Error;

/// Capacity in bytes of an on-chip memory on a target.
pub fn capacity(target: Target, buffer: Buffer) -> Option<i64> {
    buffer.space().capacity(target)
}

/// Program positions `[first, last]` (inclusive) in which a buffer holds data.
pub type Live = (usize, usize);

/// A live range that overlaps every other one (a buffer live for the whole function).
pub const ALWAYS: Live = (0, usize::MAX);

fn overlaps(a: Live, b: Live) -> bool {
    a.0 <= b.1 && b.0 <= a.1
}

/// One function's on-chip buffers, placed so far.
#[derive(Debug)]
pub struct Placement {
    target: Target,
    placed: Vec<Resident>,
}

/// A placed buffer, for the overlap checks and the capacity error.
#[derive(Clone, Debug)]
struct Resident {
    buffer: Buffer,
    /// The name in capacity errors of other buffers (with where it is allocated).
    name: String,
    live: Live,
    at: Placed,
}

/// One placed buffer: `[offset, offset + size)` bytes of its memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub offset: i64,
    pub size: i64,
}

/// A buffer that holds memory at the same time as the one that did not fit: its name (type
/// and where it is allocated) and its byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    pub buffer: String,
    pub offset: i64,
    pub size: i64,
}

/// Why a buffer could not be placed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlacementError {
    /// GM is bound by views, not placed.
    #[error("{memory} is not an on-chip memory")]
    NotOnChip { memory: &'static str },
    /// The buffer does not fit beside the ones live at the same time (`live`, in address
    /// order). `size` is `None` when its byte count (elements × element size, rounded up to the
    /// alignment) or its end leaves `i64`: then it is larger than any memory.
    #[error("{memory} overflow: {buffer} needs {} at offset {offset} but {memory} on {target} holds {capacity} B{}", needs(*.size, *.elements, *.elem), live_text(.live))]
    Capacity {
        memory: &'static str,
        target: &'static str,
        buffer: String,
        elements: i64,
        elem: ElementType,
        offset: i64,
        size: Option<i64>,
        capacity: i64,
        live: Vec<Holder>,
    },
}

fn needs(size: Option<i64>, elements: i64, elem: ElementType) -> String {
    match size {
        Some(size) => format!("{size} B"),
        None => format!("{elements} elements of {elem}, more than {} B,", i64::MAX),
    }
}

fn live_text(live: &[Holder]) -> String {
    if live.is_empty() {
        return String::new();
    }
    let list: Vec<String> =
        live.iter().map(|h| format!("{} {} B at [{}, {})", h.buffer, h.size, h.offset, h.offset + h.size)).collect();
    format!("; live at the same time: {}", list.join(", "))
}

impl Placement {
    pub fn new(target: Target) -> Self {
        Placement { target, placed: Vec::new() }
    }

    /// Places a buffer live for the whole function (see [`Placement::place_live`]).
    pub fn place(
        &mut self,
        buffer: Buffer,
        name: &str,
        elements: i64,
        elem: ElementType,
    ) -> Result<Placed, PlacementError> {
        self.place_live(buffer, (name, ""), elements, elem, ALWAYS)
    }

    /// Places `elements` elements of `elem` in `buffer` (named `name.0` in its own errors and
    /// `name.0 (alloc at name.1)` in those of others, unless `name.1` is empty), live over
    /// `live`: at the lowest aligned offset that overlaps no buffer of that memory whose live
    /// range overlaps `live`, with the size rounded up to the alignment. Every step is checked
    /// arithmetic: a size that leaves `i64` is a capacity error, never a wrap.
    pub fn place_live(
        &mut self,
        buffer: Buffer,
        name: (&str, &str),
        elements: i64,
        elem: ElementType,
        live: Live,
    ) -> Result<Placed, PlacementError> {
        let (name, site) = name;
        let memory = buffer.name();
        if buffer == Buffer::Gm {
            return Err(PlacementError::NotOnChip { memory });
        }
        let align = buffer.alignment();
        let cap = capacity(self.target, buffer).unwrap_or(i64::MAX);
        let mut holders: Vec<&Resident> =
            self.placed.iter().filter(|r| r.buffer == buffer && overlaps(r.live, live)).collect();
        holders.sort_by_key(|r| r.at.offset);
        let size = elem.storage_bytes(elements.max(0)).and_then(|b| b.align_to(&align)).ok();
        // First fit: the first gap between the holders (in address order) that is large enough.
        let mut offset = Some(0i64);
        if let Some(size) = size {
            for h in &holders {
                let Some(o) = offset else { break };
                match o.checked_add(size) {
                    Some(end) if end <= h.at.offset => break,
                    _ => offset = o.max(h.at.offset + h.at.size).align_to(&align).ok(),
                }
            }
        } else {
            offset = holders.last().and_then(|h| (h.at.offset + h.at.size).align_to(&align).ok()).or(Some(0));
        }
        let end = offset.zip(size).and_then(|(o, s)| o.checked_add(s));
        match (offset, size, end) {
            (Some(offset), Some(size), Some(end)) if end <= cap => {
                let at = Placed { offset, size };
                let name = if site.is_empty() { name.to_string() } else { format!("{name} (alloc at {site})") };
                self.placed.push(Resident { buffer, name, live, at });
                Ok(at)
            }
            _ => Err(PlacementError::Capacity {
                memory,
                target: self.target.name(),
                buffer: name.to_string(),
                elements,
                elem,
                offset: offset.unwrap_or(0),
                size,
                capacity: cap,
                live: holders
                    .iter()
                    .map(|h| Holder { buffer: h.name.clone(), offset: h.at.offset, size: h.at.size })
                    .collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ElementType::{F16, I8};

    #[test]
    fn aligned_bump_allocation_and_capacity() {
        let mut p = Placement::new(Target::A2);
        assert_eq!(p.place(Buffer::L1, "a", 50, F16), Ok(Placed { offset: 0, size: 128 }));
        assert_eq!(p.place(Buffer::L1, "b", 32, I8), Ok(Placed { offset: 128, size: 32 }));
        assert_eq!(p.place(Buffer::L0A, "c", 50, F16), Ok(Placed { offset: 0, size: 512 }));
        assert_eq!(p.place(Buffer::L0A, "d", 256, F16), Ok(Placed { offset: 512, size: 512 }));
        let e = p.place(Buffer::L0C, "e", 129 << 9, F16).unwrap_err().to_string();
        assert_eq!(e, "L0C overflow: e needs 132096 B at offset 0 but L0C on a2 holds 131072 B");
        let mut p5 = Placement::new(Target::A5);
        assert!(p5.place(Buffer::L0C, "e", 129 << 9, F16).is_ok());
    }

    /// Byte counts that leave i64 are capacity errors naming the buffer, not wrapped sizes
    /// (issue: an L1 NZ f16 (2147483648, 2147483648) tensor was placed as `[0, 0)`).
    #[test]
    fn sizes_beyond_i64_are_capacity_errors() {
        let mut p = Placement::new(Target::A2);
        // 2^62 f16 elements: 2^63 bytes.
        let e = p.place(Buffer::L1, "huge", 1 << 62, F16).unwrap_err();
        assert_eq!(
            e.to_string(),
            "L1 overflow: huge needs 4611686018427387904 elements of f16, more than 9223372036854775807 B, at offset 0 but L1 on a2 holds 524288 B"
        );
        // Fits in i64 as bytes, but rounding up to the 32 B alignment does not.
        assert!(matches!(p.place(Buffer::L1, "x", i64::MAX, I8), Err(PlacementError::Capacity { size: None, .. })));
        // Bytes in i64, far beyond the capacity: the real size is reported.
        let e = p.place(Buffer::L1, "big", 1 << 40, F16).unwrap_err();
        assert!(matches!(e, PlacementError::Capacity { size: Some(s), .. } if s == 1 << 41), "{e}");
        // Nothing was placed by the failures.
        assert_eq!(p.place(Buffer::L1, "a", 16, F16), Ok(Placed { offset: 0, size: 32 }));
    }

    /// Buffers whose live ranges do not overlap share addresses; overlapping ones never do,
    /// and a capacity error lists the buffers live at the same time with their byte ranges.
    #[test]
    fn disjoint_live_ranges_share_addresses() {
        let mut p = Placement::new(Target::A2);
        // GEMM 1 over positions [0, 10], GEMM 2 over [11, 20]: 256 KiB each in L1.
        let a = p.place_live(Buffer::L1, ("a1", "3:5"), 128 << 10, F16, (0, 10)).unwrap();
        let b = p.place_live(Buffer::L1, ("b1", ""), 64 << 10, F16, (2, 10)).unwrap();
        assert_eq!((a, b), (Placed { offset: 0, size: 256 << 10 }, Placed { offset: 256 << 10, size: 128 << 10 }));
        let a2 = p.place_live(Buffer::L1, ("a1'", ""), 128 << 10, F16, (11, 20)).unwrap();
        assert_eq!(a2.offset, 0, "a dead buffer's bytes are reused");
        // Live with a1 and b1: after b1; d is live with both but not with c, so it shares c's bytes.
        let c = p.place_live(Buffer::L1, ("c", ""), 16, F16, (5, 5)).unwrap();
        assert_eq!(c.offset, 384 << 10);
        let d = p.place_live(Buffer::L1, ("d", ""), 16, F16, (3, 4)).unwrap();
        assert_eq!(d.offset, 384 << 10);
        let e = p.place_live(Buffer::L1, ("e", ""), 100 << 10, F16, (1, 9)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "L1 overflow: e needs 204800 B at offset 393248 but L1 on a2 holds 524288 B; live at the same time: \
             a1 (alloc at 3:5) 262144 B at [0, 262144), b1 131072 B at [262144, 393216), c 32 B at [393216, 393248), d 32 B at [393216, 393248)"
        );
        // A hole below a live buffer is filled when the buffer fits in it.
        p.place_live(Buffer::L1, ("p", ""), 32, F16, (30, 40)).unwrap();
        assert_eq!(p.place_live(Buffer::L1, ("q", ""), 16, F16, (30, 50)).unwrap().offset, 64);
        assert_eq!(p.place_live(Buffer::L1, ("r", ""), 32, F16, (45, 50)).unwrap().offset, 0);
        assert_eq!(p.place_live(Buffer::L1, ("s", ""), 33, F16, (45, 50)).unwrap().offset, 96, "after r and q");
        // Other memories are independent.
        assert_eq!(p.place_live(Buffer::L0A, ("a0", ""), 256, F16, (0, 20)).unwrap().offset, 0);
    }
}
