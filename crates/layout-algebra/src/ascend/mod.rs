//! Ascend layouts: element types and C0, frame patterns, recognition, tile layouts (docs/layout-spec.md §A, §B.6).
//!
//! * [`dtype`]: [`ElementType`] (MLIR spellings), `bits`, `c0 = 256 / bits`.
//! * [`mod@frame`]: [`FramePattern`] (AscendC names; catlass `zN ≡ NZ`, `nZ ≡ ZN`, `zZ ≡ ZZ`,
//!   `nN ≡ NN`), [`frame_c0`], the generic builder [`frame_layout`], [`fn@frame`], [`capacity`].
//! * [`mod@recognize`]: [`fn@recognize`] (AscendC `GetLayoutPattern` priority order) and the catlass
//!   recognition predicates in [`recognize::catlass`].
//! * [`tile`]: [`tile_layout`] (catlass `GetTileLayout`).
//! * [`physical`]: [`physical_shape`], the C-order array a packed buffer is (PyPTO).
//! * [`mod@target`]: [`Target`] and [`MemorySpace`] (names, alignments, capacities).
//! * [`legality`]: what each target supports: layouts per space, data paths, cube types.
//! * [`swizzle`]: multi-core tile schedules ([`TileOrder`]: linear, catlass block swizzle).

pub mod dtype;
pub mod frame;
pub mod legality;
pub mod pack;
mod pack_copy;
mod pack_transpose;
pub mod physical;
pub mod recognize;
pub mod swizzle;
pub mod target;
pub mod tile;

pub use dtype::{ElementType, ALL_ELEMENT_TYPES};
pub use frame::{
    capacity, conv_coordinate, conv_logical_extents, frame, frame_c0, frame_layout, FramePattern, ALL_FRAME_PATTERNS,
    FRACTAL_ROWS, L0C_C0, MX_SCALE_K0,
};
pub use pack::{auto_threads, check_packable, PackPlan, PackWord, PACKABLE, PARALLEL_BYTES};
pub use physical::physical_shape;
pub use recognize::{recognize, Recognized};
pub use swizzle::{SwizzleDirection, TileOrder};
pub use target::{MemorySpace, Target};
pub use tile::{batch_matrix, tile_layout};
