//! THE HOOK for the layout-op lowering (issue 4, part 1).
//!
//! [`lower_layout_ops`] is the one place where `layout.*` ops are turned into upstream
//! `scf`/`memref`/`arith` before the LLVM pipeline. `layout-run` and
//! [`crate::Jit::new`] call it first. Until the lowering pass exists it only checks that no layout
//! op is present and otherwise fails with a located error
//! ("layout op 'layout.load' cannot be lowered yet").
//!
//! To plug in the pass: run it here (e.g. a `PassManager` with the Rust pass from `passes/` on
//! `module`), capturing diagnostics with [`crate::Capture`] and returning them in
//! [`crate::Error::Mlir`]; keep the final scan as a post-condition.

use crate::{diagnostics::position_of, Diag, Error, Result};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    Module,
};

/// The prefix of the ops this hook must remove.
pub const LAYOUT_OP_PREFIX: &str = "layout.";

/// Lowers every `layout.*` op of `module` to upstream dialects. Currently: succeeds when there
/// is none; otherwise returns one located error per distinct op name (first occurrence).
pub fn lower_layout_ops(module: &mut Module) -> Result<()> {
    // The lowering pass will be invoked here.
    let remaining = layout_ops(module);
    if remaining.is_empty() {
        return Ok(());
    }
    let diagnostics = remaining
        .into_iter()
        .map(|(name, position)| {
            Diag::error(
                position,
                format!("layout op '{name}' cannot be lowered yet (the layout lowering pass is not implemented)"),
            )
        })
        .collect();
    Err(Error::mlir("the kernel contains layout ops", diagnostics))
}

/// The distinct `layout.*` op names in `module`, each with the position of its first
/// occurrence, in walk order.
pub fn layout_ops(module: &Module) -> Vec<(String, Option<crate::Position>)> {
    let mut found: Vec<(String, Option<crate::Position>)> = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("").to_string();
        if name.starts_with(LAYOUT_OP_PREFIX) && !found.iter().any(|(n, _)| *n == name) {
            let position = position_of(op.location(), "<input>");
            found.push((name, position));
        }
        WalkResult::Advance
    });
    found
}
