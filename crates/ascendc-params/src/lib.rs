//! # ascendc-params
//!
//! AscendC intrinsic parameters **derived from layouts**, and a CPU model of the intrinsics.
//! No MLIR: the `layout-lower-to-ascendc` pass and the emitters build on this crate. Every
//! parameter is a stride or shape leaf of a layout divided by a hardware unit, a valid extent
//! (the origin) or `crd_to_offset` of a tile coordinate, generic over the algebra's
//! [`IndexValue`](layout_algebra::IndexValue) (dynamic tails give index expressions and
//! [`Assumption`]s); each field is checked ([`ParamError`]). The derivation of every field, its
//! checks and sources: docs/ascendc-derivation.md; the model (`model/`, [`ffi`], [`exec`]):
//! docs/ascendc-derivation.md §13; one declaration per intrinsic ([`decl`]):
//! docs/adding-an-intrinsic.md.
//!
//! | function | intrinsic | layouts |
//! |---|---|---|
//! | [`gm_nd_to_l1_nz`] | `DataCopy` + [`Nd2NzParams`] | GM ND → L1 NZ; GM DN → L1 ZN |
//! | [`copy_nz_to_nz`] | `DataCopy` + [`DataCopyParams`] | NZ → NZ |
//! | [`l1_to_l0a`] | `LoadData` + [`LoadData2DParams`] (A2) / [`LoadData2DParamsV2`] (A5) | L1 NZ (ZN, 16-bit) → L0A ZZ (A2) / NZ (A5) |
//! | [`l1_to_l0b`] | same; A2 8-bit transposes: `LoadDataWithTranspose` + [`LoadData2dTransposeParams`] | L1 NZ (transposed: 16-bit both targets, 8-bit A2) or ZN → L0B ZN |
//! | [`mmad`] | `Mmad` + [`MmadParams`] | L0A × L0B → L0C |
//! | [`l0c_to_gm_nd`] | `Fixpipe<.., CFG_ROW_MAJOR>` + [`FixpipeParamsV220`] | L0C NZ → GM ND |
//! | [`l0c_to_gm_nz`] | `Fixpipe<.., CFG_NZ>` + [`FixpipeParamsV220`] (f32: `isChannelSplit`) | L0C NZ → GM NZ |

pub mod data_copy;
pub mod decl;
pub mod element_map;
pub mod error;
pub mod exec;
pub mod ffi;
pub mod field;
pub mod fixpipe;
pub mod instr;
pub mod load_data;
pub mod mmad;
pub mod operand;
pub mod target;

pub use data_copy::{copy_nz_to_nz, gm_nd_to_l1_nz, DataCopyParams, Nd2NzParams};
pub use error::{ParamError, Result};
pub use field::{Assumption, CType, FieldSpec, Requirement};
pub use fixpipe::{
    fixpipe_scale, l0c_to_gm_nd, l0c_to_gm_nd_with, l0c_to_gm_nz, l0c_to_gm_nz_with, Epilogue, FixpipeParamsV220,
    QuantMode,
};
pub use instr::{Access, Derived, Instr, Intrinsic, IntrinsicKind};
pub use load_data::{
    l1_to_l0, l1_to_l0a, l1_to_l0b, LoadData2DParams, LoadData2DParamsV2, LoadData2dTransposeParams, MAX_REPEAT,
};
pub use mmad::{mmad, MmadParams};
pub use operand::{transposed, Operand};
pub use target::{Buffer, Target};
