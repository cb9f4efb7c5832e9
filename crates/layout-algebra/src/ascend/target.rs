//! The Ascend hardware vocabulary: targets and memory spaces, with their names, address
//! alignments and per-target capacities (docs/layout-spec.md §1, §D.1).
//!
//! **Why here.** These are plain facts about the hardware, needed by the MLIR dialect (type
//! parameters, the verifier), by the intrinsic derivations of `ascendc-params` (alignment,
//! the L0A pattern) and by the placement in the AscendC lowering (capacities). The algebra is
//! the one MLIR-free crate all of them already depend on, and the legality tables
//! ([`super::legality`]) need these types next to [`super::FramePattern`] and
//! [`super::ElementType`]; a separate crate would only add a dependency edge.

use super::frame::FramePattern;

/// Hardware targets. The names are those of `#layout.target<"NAME">`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Atlas A2/A3, NPU arch 2201 (PyPTO "a3"): L0A is ZZ, LoadData2D uses `LoadData2DParams`.
    A2,
    /// Ascend 950PR/DT, NPU arch 3510 (PyPTO "a5"): L0A is NZ, LoadData2D uses `LoadData2DParamsV2`.
    A5,
}

impl Target {
    pub const ALL: [Target; 2] = [Target::A2, Target::A5];

    /// The name in `#layout.target<"NAME">`: `a2` or `a5`.
    pub fn name(self) -> &'static str {
        match self {
            Target::A2 => "a2",
            Target::A5 => "a5",
        }
    }

    /// The target named `name` (`a2`, `a5`); `None` for anything else (`a3` included: Atlas A3
    /// is target `a2`).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The arch number (`__NPU_ARCH__`): 2201 or 3510. Also the `target` argument of the C ABI.
    pub fn arch(self) -> u32 {
        match self {
            Target::A2 => 2201,
            Target::A5 => 3510,
        }
    }

    /// The products the target stands for, as the emitted code names them.
    pub fn product(self) -> &'static str {
        match self {
            Target::A2 => "Atlas A2/A3",
            Target::A5 => "Ascend 950",
        }
    }

    /// The layout Mmad reads from L0A: ZZ on A2 ("Zz × Zn = Nz"), NZ on A5 ("Nz × Zn = Nz").
    /// The legality table of `l0a` ([`super::legality::legal_patterns`]) is this one pattern.
    pub fn l0a_pattern(self) -> FramePattern {
        match self {
            Target::A2 => FramePattern::ZZ,
            Target::A5 => FramePattern::NZ,
        }
    }
}

/// Memory spaces of the Ascend AI core (docs/layout-spec.md §1, §D.1). The names are those of
/// the `!layout.tensor` space parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemorySpace {
    Gm,
    L1,
    L0a,
    L0b,
    L0c,
    Ub,
    /// MX scale buffer feeding L0A (Ascend 950 only).
    L0aScale,
    /// MX scale buffer feeding L0B (Ascend 950 only).
    L0bScale,
}

impl MemorySpace {
    pub const ALL: [MemorySpace; 8] =
        [Self::Gm, Self::L1, Self::L0a, Self::L0b, Self::L0c, Self::Ub, Self::L0aScale, Self::L0bScale];

    pub fn name(self) -> &'static str {
        match self {
            Self::Gm => "gm",
            Self::L1 => "l1",
            Self::L0a => "l0a",
            Self::L0b => "l0b",
            Self::L0c => "l0c",
            Self::Ub => "ub",
            Self::L0aScale => "l0a_scale",
            Self::L0bScale => "l0b_scale",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|space| space.name() == name)
    }

    /// Whether the space exists on `target` (the MX scale buffers are Ascend 950 only).
    pub fn exists_on(self, target: Target) -> bool {
        !matches!((self, target), (Self::L0aScale | Self::L0bScale, Target::A2))
    }

    /// Required address alignment in bytes (docs/layout-spec.md §D.1): GM 1, L1/UB/scale
    /// buffers 32, L0A/L0B 512 (one fractal), L0C 64.
    pub fn alignment(self) -> i64 {
        match self {
            Self::Gm => 1,
            Self::L1 | Self::Ub | Self::L0aScale | Self::L0bScale => 32,
            Self::L0a | Self::L0b => 512,
            Self::L0c => 64,
        }
    }

    /// Capacity in bytes of an on-chip memory on `target`; `None` for GM (off chip) and for the
    /// memories whose size no cited source gives (UB, the scale buffers: nothing is placed there).
    ///
    /// | memory | a2 (Atlas A2/A3, arch 2201) | a5 (Ascend 950, arch 3510) |
    /// |---|---|---|
    /// | L1 (A1/B1) | 512 KiB | 512 KiB |
    /// | L0A (A2) | 64 KiB | 64 KiB |
    /// | L0B (B2) | 64 KiB | 64 KiB |
    /// | L0C (CO1) | 128 KiB | 256 KiB |
    ///
    /// a2: catlass `include/acot/arch/arch.hpp` (`AtlasA2`: `L1_SIZE = 512 * 1024`, `L0A_SIZE =
    /// L0B_SIZE = 64 * 1024`, `L0C_SIZE = 128 * 1024`). a5: ops-transformer
    /// `gmm/common/groupedmatmul_act/utils/arch.h` (`L0C_SIZE = 256 * 1024` for the 950 arch,
    /// L1/L0A/L0B as on A2).
    pub fn capacity(self, target: Target) -> Option<i64> {
        Some(match (target, self) {
            (_, Self::L1) => 512 << 10,
            (_, Self::L0a | Self::L0b) => 64 << 10,
            (Target::A2, Self::L0c) => 128 << 10,
            (Target::A5, Self::L0c) => 256 << 10,
            (_, Self::Gm | Self::Ub | Self::L0aScale | Self::L0bScale) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in Target::ALL {
            assert_eq!(Target::from_name(t.name()), Some(t));
        }
        for s in MemorySpace::ALL {
            assert_eq!(MemorySpace::from_name(s.name()), Some(s));
        }
        assert_eq!(MemorySpace::from_name("l0a_scale"), Some(MemorySpace::L0aScale));
        assert_eq!(Target::from_name("a3"), None);
        assert_eq!(MemorySpace::from_name("L0A"), None);
    }

    #[test]
    fn target_facts() {
        assert_eq!((Target::A2.arch(), Target::A5.arch()), (2201, 3510));
        assert_eq!(Target::A2.l0a_pattern(), FramePattern::ZZ);
        assert_eq!(Target::A5.l0a_pattern(), FramePattern::NZ);
        assert!(!MemorySpace::L0aScale.exists_on(Target::A2));
        assert!(MemorySpace::L0bScale.exists_on(Target::A5));
    }

    #[test]
    fn alignments_and_capacities() {
        use MemorySpace as S;
        let align: Vec<i64> = S::ALL.iter().map(|s| s.alignment()).collect();
        assert_eq!(align, vec![1, 32, 512, 512, 64, 32, 32, 32]);
        assert_eq!(S::L0c.capacity(Target::A2), Some(128 << 10));
        assert_eq!(S::L0c.capacity(Target::A5), Some(256 << 10));
        assert_eq!(S::L1.capacity(Target::A5), Some(512 << 10));
        assert_eq!(S::L0b.capacity(Target::A2), Some(64 << 10));
        assert_eq!(S::Gm.capacity(Target::A2), None);
    }
}
