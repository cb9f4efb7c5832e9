//! The derived instruction sequence.

use crate::data_copy::{DataCopyParams, Nd2NzParams};
use crate::field::Assumption;
use crate::fixpipe::FixpipeParamsV220;
use crate::load_data::{LoadData2DParams, LoadData2DParamsV2, LoadData2dTransposeParams};
use crate::mmad::MmadParams;
use crate::target::Buffer;

/// One intrinsic call with its parameter struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Intrinsic<V> {
    /// `DataCopy(dst L1, src GM, Nd2NzParams)`.
    DataCopyNd2Nz(Nd2NzParams<V>),
    /// `DataCopy(dst, src, DataCopyParams)`.
    DataCopy(DataCopyParams<V>),
    /// `LoadData(dst L0A/L0B, src L1, LoadData2DParams)` (arch 2201).
    LoadData2D(LoadData2DParams<V>),
    /// `LoadData(dst L0A/L0B, src L1, LoadData2DParamsV2)` (arch 3510).
    LoadData2DV2(LoadData2DParamsV2<V>),
    /// `LoadDataWithTranspose(dst L0A/L0B, src L1, LoadData2dTransposeParams)` (arch 2201, 8-bit).
    LoadDataWithTranspose(LoadData2dTransposeParams<V>),
    /// `Mmad(c L0C, a L0A, b L0B, MmadParams)`.
    Mmad(MmadParams<V>),
    /// `Fixpipe<Dst, Src, CFG_ROW_MAJOR>(dst GM, src L0C, FixpipeParamsV220)` (NZ2ND).
    FixpipeNz2Nd(FixpipeParamsV220<V>),
    /// `Fixpipe<Dst, Src, CFG_NZ>(dst GM, src L0C, FixpipeParamsV220)` (NZ2NZ).
    FixpipeNz2Nz(FixpipeParamsV220<V>),
}

impl<V> Intrinsic<V> {
    /// The AscendC function called.
    pub fn function(&self) -> &'static str {
        match self {
            Intrinsic::DataCopyNd2Nz(_) | Intrinsic::DataCopy(_) => "DataCopy",
            Intrinsic::LoadData2D(_) | Intrinsic::LoadData2DV2(_) => "LoadData",
            Intrinsic::LoadDataWithTranspose(_) => "LoadDataWithTranspose",
            Intrinsic::Mmad(_) => "Mmad",
            Intrinsic::FixpipeNz2Nd(_) | Intrinsic::FixpipeNz2Nz(_) => "Fixpipe",
        }
    }
}

/// Where an operand of one call starts: `tensor[offset + i·step]` for loop iteration `i`
/// (elements of the operand's type, relative to the operand layout's offset 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access<V> {
    pub buffer: Buffer,
    pub offset: V,
    pub step: V,
}

/// `for i in 0..repeat { intrinsic(dst[..], srcs[..]..., params) }` — the catlass loops
/// (e.g. one `LoadData` per row of fractals) stay loops, so dynamic counts stay symbolic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr<V> {
    pub intrinsic: Intrinsic<V>,
    pub dst: Access<V>,
    /// Sources in the intrinsic's argument order (Mmad: A then B).
    pub srcs: Vec<Access<V>>,
    /// Loop trip count (1 = a single call).
    pub repeat: V,
}

/// The result of a derivation: the calls, plus the conditions on symbolic values that could
/// not be decided at compile time (empty for static shapes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derived<V> {
    pub instrs: Vec<Instr<V>>,
    pub assumptions: Vec<Assumption<V>>,
}
