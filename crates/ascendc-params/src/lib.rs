//! # ascendc-params
//!
//! AscendC intrinsic parameters **derived from layouts**, and a CPU model of the intrinsics.
//! No MLIR: the `layout-lower-to-ascendc` pass and the emitters build on this crate.
//!
//! ## Derivations (docs/layout-spec.md §D.4, docs/ascendc-derivation.md §1)
//! Every parameter is a stride or shape leaf of an algebra layout divided by a hardware unit
//! (C0 = 32 B, fractal = 512 B), or a valid extent (the layout's origin); offsets are
//! `crd_to_offset` of the tile coordinate. Values are generic over the algebra's
//! [`IndexValue`](layout_algebra::IndexValue): `i64` gives numbers, [`SymExpr`](layout_algebra::SymExpr)
//! gives index expressions for dynamic tails, with undecidable range/divisibility conditions
//! returned as [`Assumption`]s.
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
//!
//! Worked example (docs/layout-spec.md §D.4): m = 40, k = 56 fp16, GM ND `(40,56):(56,1)` → L1 NZ
//! `((16,3),(16,4)):((16,256),(1,768))`: `ndNum=1, nValue=40, dValue=56, srcDValue=56,
//! dstNzC0Stride=48, dstNzNStride=1`.
//!
//! Static values that do not fit their field (C++ width or documented range) are
//! [`ParamError::FieldOverflow`] naming instruction, field and value; misaligned addresses
//! (L1 32 B, L0A/L0B 512 B, L0C 64 B) are [`ParamError::Misaligned`]. Where the hardware
//! allows, overflows are split instead: more than 255 fractals per `LoadData` row and (arch 2201) a GM row stride above 65535 (one ND2NZ per row).
//!
//! ## The declarations ([`decl`])
//! Each intrinsic is declared once in `src/decl.rs` (op, function, pipe, C ABI entry; per
//! field C type, range, unit, meaning); the ABI structs, `to_c`, `fields()`, `specs()` and the
//! emitters' field lists and comments derive from it, and a test checks the model headers
//! agree (docs/adding-an-intrinsic.md).
//!
//! ## The CPU model (`model/`)
//! * `model/ascendc_model.h` — the C++ API (`AscendC::DataCopy`, `LoadData`, `Mmad`,
//!   `Fixpipe`, tensors, parameter structs, `half`, `bfloat16_t`, flags as no-ops): an emitted
//!   kernel compiles with `g++ -std=c++17 -I crates/ascendc-params/model`.
//! * `model/ascendc_model_abi.h` — the stable C ABI, one function per intrinsic; built by
//!   `build.rs` (crate `cc`) into the static library `ascendc_model` linked into this crate;
//!   [`ffi::c_abi_symbols`] lists `(name, address)` pairs for the JIT.
//! * `model/ascendc_model_impl.h` — the one implementation both call.
//!
//! [`exec::execute`] runs derived instructions through the C ABI with bounds checks.

pub mod data_copy;
pub mod decl;
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
pub use instr::{Access, Derived, Instr, Intrinsic};
pub use load_data::{
    l1_to_l0, l1_to_l0a, l1_to_l0b, LoadData2DParams, LoadData2DParamsV2, LoadData2dTransposeParams, MAX_REPEAT,
};
pub use mmad::{mmad, MmadParams};
pub use operand::{transposed, Operand};
pub use target::{Buffer, Target};
