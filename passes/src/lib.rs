//! The Rust passes of `layout-opt`.
//!
//! Layout: one module per pass (`verify/` = `layout-verify`, `fold.rs` = `layout-fold`, ...). Each module exposes `pub fn create() -> Pass` and a [`PassInfo`] entry in [`PASSES`];
//! `layout-opt` builds its `--help`, its per-pass flags and its pipeline parser from that table.
//!
//! Rust passes cannot be registered by name in MLIR's pass registry, so pipelines that mix them
//! with upstream passes are assembled by `layout-opt` (see `tools/layout-opt/src/pipeline.rs`).

pub mod error;
pub mod external;
pub mod fold;
pub mod index_arith;
pub mod ir;
pub mod lower_to_ascendc;
pub mod lower_to_loops;
pub mod multi_buffer;
pub mod simplify_offsets;
pub mod strength_reduce;
pub mod tile;
pub mod verify;

#[cfg(test)]
mod source_rules;

use melior::pass::Pass;
use std::ffi::CString;

/// Creates a pass from its pipeline options (`name{key=value}`: the text with braces).
pub type CreateWithOptions = fn(&str) -> Result<Pass, error::LoweringError>;

/// A Rust pass as the command line knows it.
pub struct PassInfo {
    /// Pipeline name and flag (`layout-verify` → `--layout-verify`).
    pub argument: &'static str,
    /// One-line description for `--help`.
    pub description: &'static str,
    /// Creates a fresh pass object.
    pub create: fn() -> Pass,
    /// Creates it from pipeline options; `None` for a pass that takes no options.
    pub create_with_options: Option<CreateWithOptions>,
}

/// Every Rust pass, in `--help` order.
pub const PASSES: &[PassInfo] = &[
    PassInfo {
        argument: verify::ARGUMENT,
        description: verify::DESCRIPTION,
        create: verify::create,
        create_with_options: None,
    },
    PassInfo {
        argument: fold::ARGUMENT,
        description: fold::DESCRIPTION,
        create: fold::create,
        create_with_options: None,
    },
    PassInfo {
        argument: multi_buffer::ARGUMENT,
        description: multi_buffer::DESCRIPTION,
        create: multi_buffer::create,
        create_with_options: None,
    },
    PassInfo {
        argument: lower_to_ascendc::ARGUMENT,
        description: lower_to_ascendc::DESCRIPTION,
        create: lower_to_ascendc::create,
        create_with_options: None,
    },
    PassInfo {
        argument: lower_to_ascendc::SYNC_GRAPH_ARGUMENT,
        description: lower_to_ascendc::SYNC_GRAPH_DESCRIPTION,
        create: lower_to_ascendc::create_print_sync_graph,
        create_with_options: None,
    },
    PassInfo {
        argument: lower_to_loops::ARGUMENT,
        description: lower_to_loops::DESCRIPTION,
        create: lower_to_loops::create,
        create_with_options: Some(lower_to_loops::create_with_options),
    },
    PassInfo {
        argument: simplify_offsets::ARGUMENT,
        description: simplify_offsets::DESCRIPTION,
        create: simplify_offsets::create,
        create_with_options: Some(simplify_offsets::create_with_options),
    },
    PassInfo {
        argument: strength_reduce::ARGUMENT,
        description: strength_reduce::DESCRIPTION,
        create: strength_reduce::create,
        create_with_options: None,
    },
    PassInfo {
        argument: simplify_offsets::REMARKS_ARGUMENT,
        description: simplify_offsets::REMARKS_DESCRIPTION,
        create: simplify_offsets::create_with_remarks,
        create_with_options: None,
    },
];

/// Looks a Rust pass up by its pipeline name.
pub fn find(argument: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|info| info.argument == argument)
}

/// Emits an error diagnostic at `location` through the context's diagnostic handlers.
pub fn emit_error(location: melior::ir::Location, message: &str) {
    let message = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    // Safety: valid location and NUL-terminated string for the duration of the call.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) }
}
