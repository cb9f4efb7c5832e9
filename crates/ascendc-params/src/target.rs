//! Target architectures and their buffer rules.

use layout_algebra::ascend::FramePattern;

/// The NPU architecture an intrinsic sequence is derived for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Atlas A2/A3, NPU arch 2201 (PyPTO "a3"): L0A is ZZ, LoadData2D uses `LoadData2DParams`.
    A2,
    /// Ascend 950PR/DT, NPU arch 3510 (PyPTO "a5"): L0A is NZ, LoadData2D uses `LoadData2DParamsV2`.
    A5,
}

impl Target {
    /// The arch number (`__NPU_ARCH__`): 2201 or 3510. Also the `target` argument of the C ABI.
    pub fn arch(self) -> u32 {
        match self {
            Target::A2 => 2201,
            Target::A5 => 3510,
        }
    }

    /// The layout Mmad reads from L0A: ZZ on A2 ("Zz × Zn = Nz"), NZ on A5 ("Nz × Zn = Nz").
    pub fn l0a_pattern(self) -> FramePattern {
        match self {
            Target::A2 => FramePattern::ZZ,
            Target::A5 => FramePattern::NZ,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Target::A2 => "a2",
            Target::A5 => "a5",
        }
    }
}

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
    /// Required address alignment in bytes (docs/layout-spec.md §D.1): GM 1, L1 32, L0A/L0B 512, L0C 64.
    pub fn alignment(self) -> i64 {
        match self {
            Buffer::Gm => 1,
            Buffer::L1 => 32,
            Buffer::L0A | Buffer::L0B => 512,
            Buffer::L0C => 64,
        }
    }

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
