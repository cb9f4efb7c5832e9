//! THE HOOK for the layout-op lowering (issue 4, part 1).
//!
//! [`lower_layout_ops`] is the one place where `layout.*` ops are turned into upstream
//! `scf`/`memref`/`arith` before the LLVM pipeline; `layout-run` and `layout-opt --emit=llvm`
//! call it first. It runs `layout-verify` (lowerings assume verified input) and then
//! `layout-lower-to-loops` (crate `layout-passes`, module `lower_to_loops`: the CPU reference
//! semantics of every layout op, documented there and in this crate's README), capturing their
//! diagnostics into [`crate::Error::Mlir`]; then the address clean-up that follows every
//! lowering, `canonicalize, layout-simplify-offsets, canonicalize, cse,
//! loop-invariant-code-motion` (`layout_passes::simplify_offsets::POST_LOWERING`, the tail of
//! `layout-opt --default-pipeline`), so the code that runs on the CPU is the code the offset
//! benchmark measures; [`crate::self_check`] runs the same passes on its copy. A final scan is
//! the post-condition: no layout op may survive.

use crate::{
    diagnostics::{position_of, UNNAMED_INPUT},
    Capture, Diag, Error, Result,
};
use melior::{
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        Module,
    },
    pass::PassManager,
};

/// The prefix of the ops this hook must remove.
pub const LAYOUT_OP_PREFIX: &str = "layout.";

/// Lowers every `layout.*` op of `module` to upstream dialects (after `layout-verify`) and
/// simplifies the address arithmetic ([`simplify_lowered`]'s passes). A module without layout
/// ops is left unchanged (and not verified).
pub fn lower_layout_ops(module: &mut Module) -> Result<()> {
    lower_layout_ops_with(module, false)
}

/// [`lower_layout_ops`], with `sanitize` the lowering's initcheck
/// (`layout-lower-to-loops{sanitize=true}`: a read of an on-chip element nothing wrote fails
/// the call with a located error, like the contract checks).
pub fn lower_layout_ops_with(module: &mut Module, sanitize: bool) -> Result<()> {
    if layout_ops(module).is_empty() {
        return Ok(());
    }
    let capture = Capture::for_module(module, UNNAMED_INPUT);
    // Safety: the context outlives this function.
    let context_ref = module.context();
    // Safety: as above; `to_ref` borrows `context_ref`, which lives to the end of the function.
    let context = unsafe { context_ref.to_ref() };
    let manager = PassManager::new(context);
    // The lowering runs layout-verify's checks on its input itself.
    manager.add_pass(if sanitize {
        layout_passes::lower_to_loops::create_sanitizing(Default::default())
    } else {
        layout_passes::lower_to_loops::create()
    });
    layout_passes::simplify_offsets::add_post_lowering(&manager, true);
    let ok = manager.run(module).is_ok();
    let diagnostics = capture.take();
    if !ok {
        return Err(Error::mlir("lowering the layout ops failed", diagnostics));
    }
    post_condition(module)
}

/// The passes [`lower_layout_ops`] runs after the lowering, on an already lowered `module`
/// (`layout_passes::simplify_offsets::POST_LOWERING`): the self-check runs them on its copy.
pub fn simplify_lowered(module: &mut Module) -> Result<()> {
    let capture = Capture::for_module(module, UNNAMED_INPUT);
    // Safety: the context outlives this function.
    let context_ref = module.context();
    // Safety: as above; `to_ref` borrows `context_ref`, which lives to the end of the function.
    let context = unsafe { context_ref.to_ref() };
    let manager = PassManager::new(context);
    layout_passes::simplify_offsets::add_post_lowering(&manager, true);
    let ok = manager.run(module).is_ok();
    let diagnostics = capture.take();
    if !ok {
        return Err(Error::mlir("simplifying the lowered address arithmetic failed", diagnostics));
    }
    Ok(())
}

/// Fails with one located error per distinct layout op name still present.
pub(crate) fn post_condition(module: &Module) -> Result<()> {
    let remaining = layout_ops(module);
    if remaining.is_empty() {
        return Ok(());
    }
    let diagnostics = remaining
        .into_iter()
        .map(|(name, position)| Diag::error(position, format!("layout op '{name}' survived the layout lowering")))
        .collect();
    Err(Error::mlir("the kernel still contains layout ops", diagnostics))
}

/// The distinct `layout.*` op names in `module`, each with the position of its first
/// occurrence, in walk order.
pub fn layout_ops(module: &Module) -> Vec<(String, Option<crate::Position>)> {
    let mut found: Vec<(String, Option<crate::Position>)> = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("").to_string();
        if name.starts_with(LAYOUT_OP_PREFIX) && !found.iter().any(|(n, _)| *n == name) {
            let position = position_of(op.location(), UNNAMED_INPUT);
            found.push((name, position));
        }
        WalkResult::Advance
    });
    found
}
