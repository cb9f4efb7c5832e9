//! Targets and the buffers intrinsic operands address.
//!
//! [`Target`] is the algebra's ([`layout_algebra::ascend::Target`]): one vocabulary for the
//! dialect, the verifier and the derivations. [`Buffer`] stays a type of its own because it is
//! a narrower concept than a memory space: the closed set of memories the cube intrinsics
//! derived here (and the C ABI model) read and write, named as AscendC names them in messages.
//! It holds no facts of its own: alignment and capacity are the memory space's.

use layout_algebra::ascend::MemorySpace;
pub use layout_algebra::ascend::Target;

/// A memory an intrinsic operand lives in (AscendC `TPosition`: GM, A1/B1 = L1, A2 = L0A,
/// B2 = L0B, CO1 = L0C).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Buffer {
    Gm,
    L1,
    L0A,
    L0B,
    L0C,
}

impl Buffer {
    /// The memory space this buffer is.
    pub fn space(self) -> MemorySpace {
        match self {
            Buffer::Gm => MemorySpace::Gm,
            Buffer::L1 => MemorySpace::L1,
            Buffer::L0A => MemorySpace::L0a,
            Buffer::L0B => MemorySpace::L0b,
            Buffer::L0C => MemorySpace::L0c,
        }
    }

    /// The buffer of a memory space; `None` for the spaces no intrinsic here addresses (UB and
    /// the MX scale buffers).
    pub fn of_space(space: MemorySpace) -> Option<Self> {
        [Buffer::Gm, Buffer::L1, Buffer::L0A, Buffer::L0B, Buffer::L0C].into_iter().find(|b| b.space() == space)
    }

    /// Required address alignment in bytes: the memory space's ([`MemorySpace::alignment`]).
    pub fn alignment(self) -> i64 {
        self.space().alignment()
    }

    /// The AscendC name, for messages: `GM`, `L1`, `L0A`, `L0B`, `L0C`.
    pub fn name(self) -> &'static str {
        match self {
            Buffer::Gm => "GM",
            Buffer::L1 => "L1",
            Buffer::L0A => "L0A",
            Buffer::L0B => "L0B",
            Buffer::L0C => "L0C",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_memory_spaces() {
        for space in MemorySpace::ALL {
            match Buffer::of_space(space) {
                Some(b) => assert_eq!(b.space(), space),
                None => assert!(matches!(space, MemorySpace::Ub | MemorySpace::L0aScale | MemorySpace::L0bScale)),
            }
        }
        assert_eq!(Buffer::of_space(MemorySpace::L0a), Some(Buffer::L0A));
        assert_eq!(Buffer::L0A.alignment(), 512);
        assert_eq!(Buffer::L0C.alignment(), 64);
        assert_eq!(Buffer::Gm.alignment(), 1);
    }
}
