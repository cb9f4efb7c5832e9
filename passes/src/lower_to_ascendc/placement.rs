//! On-chip buffer placement: every `layout.alloc` gets a byte offset in its memory, bump
//! allocated in program order with the memory's alignment, and the total is checked against the
//! target's capacity.
//!
//! Capacities and alignments are the memory space's ([`layout_algebra::ascend::MemorySpace`]:
//! the per-target capacity table with its sources; alignment L1 32 B, L0A/L0B 512 B, L0C 64 B,
//! docs/layout-spec.md §D.1). Sizes are rounded up to the alignment so the AscendC bump allocator (`LocalMemAllocator`) reproduces
//! the offsets when the buffers are allocated in the same order.

use std::fmt;

use ascendc_params::{Buffer, Target};
use layout_algebra::{ascend::ElementType, IndexValue};

/// Capacity in bytes of an on-chip memory on a target.
pub fn capacity(target: Target, buffer: Buffer) -> Option<i64> {
    buffer.space().capacity(target)
}

/// Bump allocator over the on-chip memories.
#[derive(Debug)]
pub struct Placement {
    target: Target,
    used: [i64; 4],
}

fn slot(buffer: Buffer) -> Option<usize> {
    match buffer {
        Buffer::L1 => Some(0),
        Buffer::L0A => Some(1),
        Buffer::L0B => Some(2),
        Buffer::L0C => Some(3),
        Buffer::Gm => None,
    }
}

/// One placed buffer: `[offset, offset + size)` bytes of its memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub offset: i64,
    pub size: i64,
}

/// Why a buffer could not be placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlacementError {
    /// GM is bound by views, not placed.
    NotOnChip { memory: &'static str },
    /// The buffer does not fit after the ones before it. `size` is `None` when its byte count
    /// (elements × element size, rounded up to the alignment) or its end leaves `i64`: then it
    /// is larger than any memory.
    Capacity {
        memory: &'static str,
        target: &'static str,
        buffer: String,
        elements: i64,
        elem: ElementType,
        offset: i64,
        size: Option<i64>,
        capacity: i64,
    },
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::NotOnChip { memory } => write!(f, "{memory} is not an on-chip memory"),
            PlacementError::Capacity { memory, target, buffer, elements, elem, offset, size, capacity } => {
                write!(f, "{memory} overflow: {buffer} needs ")?;
                match size {
                    Some(size) => write!(f, "{size} B")?,
                    None => write!(f, "{elements} elements of {elem}, more than {} B,", i64::MAX)?,
                }
                write!(f, " at offset {offset} but {memory} on {target} holds {capacity} B")
            }
        }
    }
}

impl std::error::Error for PlacementError {}

impl Placement {
    pub fn new(target: Target) -> Self {
        Placement { target, used: [0; 4] }
    }

    /// Places `elements` elements of `elem` in `buffer` (named `name` in errors), at the next
    /// offset aligned to the memory's alignment and with the size rounded up to it. Every step
    /// is checked arithmetic: a size that leaves `i64` is a capacity error, never a wrap.
    pub fn place(
        &mut self,
        buffer: Buffer,
        name: &str,
        elements: i64,
        elem: ElementType,
    ) -> Result<Placed, PlacementError> {
        let memory = buffer.name();
        let i = slot(buffer).ok_or(PlacementError::NotOnChip { memory })?;
        let align = buffer.alignment();
        let cap = capacity(self.target, buffer).unwrap_or(i64::MAX);
        // `used[i] <= cap`, so its alignment cannot overflow; checked all the same.
        let offset = self.used[i].align_to(&align).ok();
        let size = elem.storage_bytes(elements.max(0)).and_then(|b| b.align_to(&align)).ok();
        let end = offset.zip(size).and_then(|(o, s)| o.checked_add(s));
        match (offset, size, end) {
            (Some(offset), Some(size), Some(end)) if end <= cap => {
                self.used[i] = end;
                Ok(Placed { offset, size })
            }
            _ => Err(PlacementError::Capacity {
                memory,
                target: self.target.name(),
                buffer: name.to_string(),
                elements,
                elem,
                offset: offset.unwrap_or(self.used[i]),
                size,
                capacity: cap,
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
}
