//! `layout-verify`: semantic checks that IRDL cannot express, each a located error.
//!
//! Skeleton (issue 3, first step): checks the module target and the memory-space vocabulary.
//! Rules to come (issue 3): layout legal for space × target, copy pairs (spec §D.2), matmul
//! operand layouts/shapes/element types, fractal-aligned tile origins (§B.7), bound dynamic
//! leaves, C0 vs element type.
//!
//! Rules implemented:
//! - a module that uses the `layout` dialect carries `layout.target = #layout.target<"a2"|"a5">`;
//! - every `!layout.tensor` memory space is one of [`MemorySpace::ALL`] and exists on the target
//!   (MX scale spaces only on `a5`).

use crate::emit_error;
use layout_dialect::{types::target_name, MemorySpace, Target, TensorType, TARGET_ATTRIBUTE};
use melior::{
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        r#type::TypeId,
        BlockLike, Location, OperationRef, RegionLike, Type, ValueLike,
    },
    pass::{create_external, ExternalPass, Pass},
};

pub const ARGUMENT: &str = "layout-verify";
pub const DESCRIPTION: &str =
    "Check layout-dialect semantics MLIR cannot: target, memory spaces (skeleton)";

#[repr(align(8))]
struct PassId;
static PASS_ID: PassId = PassId;

/// Creates the pass. It runs on any operation; the target is read from the nearest enclosing
/// op (or the op itself) that carries `layout.target`.
pub fn create() -> Pass {
    create_external(
        run,
        TypeId::create(&PASS_ID),
        "LayoutVerify",
        ARGUMENT,
        DESCRIPTION,
        "",
        &[],
    )
}

fn run(root: OperationRef, pass: ExternalPass) {
    if !verify(root) {
        pass.signal_failure();
    }
}

/// Runs every check on `root` and what it contains; returns false after emitting errors.
pub fn verify(root: OperationRef) -> bool {
    let mut ok = true;

    // Find the target: on `root`, else on the nearest ancestor.
    let mut holder = Some(root);
    let mut target_attr = None;
    while let Some(op) = holder {
        if let Ok(attr) = op.attribute(TARGET_ATTRIBUTE) {
            target_attr = Some((attr, op.location()));
            break;
        }
        holder = op.parent_operation();
    }
    let mut target = None;
    if let Some((attr, location)) = target_attr {
        match target_name(attr) {
            None => {
                emit_error(
                    location,
                    &format!(
                        "'{TARGET_ATTRIBUTE}' must be #layout.target<\"a2\"> or #layout.target<\"a5\">, got {attr}"
                    ),
                );
                ok = false;
            }
            Some(name) => match Target::from_name(&name) {
                Some(t) => target = Some(t),
                None => {
                    let hint = if name == "a3" {
                        " (Atlas A3 is target \"a2\")"
                    } else {
                        ""
                    };
                    emit_error(
                        location,
                        &format!(
                            "unknown target \"{name}\"; expected \"a2\" (Atlas A2/A3, arch 2201) or \"a5\" (Ascend 950, arch 3510){hint}"
                        ),
                    );
                    ok = false;
                }
            },
        }
    }

    let mut uses_layout = false;
    root.walk(WalkOrder::PreOrder, |op| {
        if op
            .name()
            .as_string_ref()
            .as_str()
            .is_ok_and(|n| n.starts_with("layout."))
        {
            uses_layout = true;
        }
        let location = op.location();
        for result in op.results() {
            check_type(result.r#type(), location, target, &mut uses_layout, &mut ok);
        }
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                for index in 0..b.argument_count() {
                    if let Ok(argument) = b.argument(index) {
                        check_type(
                            argument.r#type(),
                            location,
                            target,
                            &mut uses_layout,
                            &mut ok,
                        );
                    }
                }
                block = b.next_in_region();
            }
        }
        WalkResult::Advance
    });

    if uses_layout && target_attr.is_none() {
        emit_error(
            root.location(),
            &format!(
                "the layout dialect is used but no enclosing op has a '{TARGET_ATTRIBUTE}' attribute (add `attributes {{{TARGET_ATTRIBUTE} = #layout.target<\"a2\">}}` or \"a5\" to the module)"
            ),
        );
        ok = false;
    }
    ok
}

fn check_type(
    ty: Type,
    location: Location,
    target: Option<Target>,
    uses_layout: &mut bool,
    ok: &mut bool,
) {
    let Some(tensor) = TensorType::from_type(ty) else {
        return;
    };
    *uses_layout = true;
    match MemorySpace::from_name(&tensor.space) {
        None => {
            let names: Vec<_> = MemorySpace::ALL.iter().map(|s| s.name()).collect();
            emit_error(
                location,
                &format!(
                    "unknown memory space \"{}\" in {}; expected one of {}",
                    tensor.space,
                    tensor,
                    names.join(", ")
                ),
            );
            *ok = false;
        }
        Some(space) => {
            if let Some(target) = target {
                if !space.exists_on(target) {
                    emit_error(
                        location,
                        &format!(
                            "memory space \"{}\" does not exist on target \"{}\" (MX scale buffers are Ascend 950 only, target \"a5\")",
                            space.name(),
                            target.name()
                        ),
                    );
                    *ok = false;
                }
            }
        }
    }
}
