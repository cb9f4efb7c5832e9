//! # gemm-gen
//!
//! A GEMM generator: a [`GemmSpec`] (M, N, K static or dynamic; input and output types; A and B
//! in ND, DN or NZ; the store's epilogue; the target; tile sizes and block order) becomes a
//! layout-dialect kernel ([`generate`]) that distributes C tiles over `blockNum` blocks
//! (`layout.block_idx`/`layout.block_num`), streams K through L1 and L0 with every tail clipped
//! by the layout algebra, and verifies under rule R1 (every read inside what was written).
//!
//! [`tiles`] holds the buffer budget formulas and the menu of tile shapes that fit a target;
//! choosing among them needs the cost model of the lowered AscendC, which links MLIR: that is
//! `layout-gemm`'s job (tools/layout-gemm), not this crate's (MLIR-free).

pub mod error;
pub mod kernel;
pub mod pipeline;
pub mod spec;
mod text;
pub mod tiles;

pub use error::{GenError, Result};
pub use kernel::{describe, generate};
pub use layout_algebra::ascend::{SwizzleDirection, TileOrder};
pub use pipeline::needs_multi_buffer;
pub use spec::{Dim, Epilogue, GemmSpec, GmLayout, Tiles};
