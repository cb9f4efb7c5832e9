//! # layout-algebra
//!
//! Exact hierarchical `shape:stride` layouts for Ascend NPU tensors, with no MLIR dependency.
//!
//! * [`Tuple`] / [`IntTuple`]: integers or nested tuples (CuTe `IntTuple`).
//! * [`Layout`]: shape, stride and the catlass *origin shape* (valid extent for tails).
//! * [`crd_to_offset`] / [`idx_to_crd`]: the layout function, colexicographic as in CuTe.
//! * [`cute`]: the CuTe algebra (coalesce, composition, complement, inverses, divides, products).
//! * [`ascend`]: element types and C0, every frame pattern (NZ, ZN, ZZ, NN, ND, DN, ...),
//!   pattern recognition and catlass `GetTileLayout`.
//!
//! The formulas that code generators need at run time (`crd_to_offset`, the frame patterns,
//! `tile_layout`) are generic over [`IndexValue`]: they run on `i64` (with overflow checks) and
//! on [`SymExpr`] (emitting index arithmetic), from one implementation.

pub mod ascend;
pub mod coord;
pub mod cute;
pub mod domain;
pub mod error;
pub mod int_tuple;
pub mod layout;
pub mod parse;
pub mod picture;
pub mod sym;

pub use coord::{crd_to_offset, idx_to_crd};
pub use domain::IndexValue;
pub use error::{AlgebraError, Result};
pub use int_tuple::{IntTuple, Tuple};
pub use layout::Layout;
pub use parse::{parse_dyn_layout, parse_dyn_tuple, parse_int_tuple, parse_layout};
pub use sym::SymExpr;
