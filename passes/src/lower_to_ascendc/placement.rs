//! On-chip buffer placement: every `layout.alloc` gets a byte offset in its memory, bump
//! allocated in program order with the memory's alignment, and the total is checked against the
//! target's capacity.
//!
//! Capacities (bytes), a per-target table with sources:
//!
//! | memory | a2 (Atlas A2/A3, arch 2201) | a5 (Ascend 950, arch 3510) |
//! |---|---|---|
//! | L1 (A1/B1) | 512 KiB | 512 KiB |
//! | L0A (A2) | 64 KiB | 64 KiB |
//! | L0B (B2) | 64 KiB | 64 KiB |
//! | L0C (CO1) | 128 KiB | 256 KiB |
//!
//! a2: catlass `include/acot/arch/arch.hpp` (`AtlasA2`: `L1_SIZE = 512 * 1024`, `L0A_SIZE =
//! L0B_SIZE = 64 * 1024`, `L0C_SIZE = 128 * 1024`). a5: ops-transformer
//! `gmm/common/groupedmatmul_act/utils/arch.h` (`L0C_SIZE = 256 * 1024` for the 950 arch,
//! L1/L0A/L0B as on A2). Alignment (spec §D.1): L1 32 B, L0A/L0B 512 B, L0C 64 B; sizes are
//! rounded up to the alignment so the AscendC bump allocator (`LocalMemAllocator`) reproduces
//! the offsets when the buffers are allocated in the same order.

use ascendc_params::{Buffer, Target};

/// Capacity in bytes of an on-chip memory on a target.
pub fn capacity(target: Target, buffer: Buffer) -> Option<i64> {
    Some(match (target, buffer) {
        (_, Buffer::L1) => 512 << 10,
        (_, Buffer::L0A | Buffer::L0B) => 64 << 10,
        (Target::A2, Buffer::L0C) => 128 << 10,
        (Target::A5, Buffer::L0C) => 256 << 10,
        (_, Buffer::Gm) => return None,
    })
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

impl Placement {
    pub fn new(target: Target) -> Self {
        Placement { target, used: [0; 4] }
    }

    /// Places `bytes` in `buffer`; an error names the memory, the request and the capacity.
    pub fn place(&mut self, buffer: Buffer, bytes: i64) -> Result<Placed, String> {
        let i = slot(buffer).ok_or_else(|| format!("{} is not an on-chip memory", buffer.name()))?;
        let align = buffer.alignment();
        let offset = (self.used[i] + align - 1) / align * align;
        let size = (bytes.max(0) + align - 1) / align * align;
        let cap = capacity(self.target, buffer).unwrap_or(i64::MAX);
        if offset + size > cap {
            return Err(format!(
                "{} overflow: this buffer needs {size} B at offset {offset} but {} on {} holds {cap} B",
                buffer.name(),
                buffer.name(),
                self.target.name()
            ));
        }
        self.used[i] = offset + size;
        Ok(Placed { offset, size })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_bump_allocation_and_capacity() {
        let mut p = Placement::new(Target::A2);
        assert_eq!(p.place(Buffer::L1, 100), Ok(Placed { offset: 0, size: 128 }));
        assert_eq!(p.place(Buffer::L1, 32), Ok(Placed { offset: 128, size: 32 }));
        assert_eq!(p.place(Buffer::L0A, 100), Ok(Placed { offset: 0, size: 512 }));
        assert_eq!(p.place(Buffer::L0A, 512), Ok(Placed { offset: 512, size: 512 }));
        let e = p.place(Buffer::L0C, 129 << 10).unwrap_err();
        assert!(e.contains("L0C overflow") && e.contains("131072"), "{e}");
        let mut p5 = Placement::new(Target::A5);
        assert!(p5.place(Buffer::L0C, 129 << 10).is_ok());
    }
}
