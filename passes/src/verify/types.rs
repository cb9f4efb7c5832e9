//! Rules T1–T5: every `!layout.tensor` type on its own.

use super::Checker;
use layout_algebra::ascend::frame_c0;
use layout_dialect::{
    legality::{allows_unrecognized, legal_patterns, names},
    LayoutParam, MemorySpace, TensorLayout, TensorType,
};
use melior::ir::{Location, Type};

/// Checks one type; returns whether it is a `!layout.tensor`.
pub(super) fn check_type(ty: Type, location: Location, derived: bool, checker: &mut Checker) -> bool {
    let Some(tensor) = checker.layouts.tensor_type(ty) else {
        return false;
    };
    // T1: memory space.
    let space = match tensor.memory_space() {
        Ok(space) => space,
        Err(_) => {
            let names: Vec<_> = MemorySpace::ALL.iter().map(|s| s.name()).collect();
            checker.error(
                location,
                &format!(
                    "unknown memory space \"{}\" in {}; expected one of {}",
                    tensor.space,
                    tensor,
                    names.join(", ")
                ),
            );
            return true;
        }
    };
    if let Some(target) = checker.target {
        if !space.exists_on(target) {
            checker.error(
                location,
                &format!(
                    "memory space \"{}\" does not exist on target \"{}\" (MX scale buffers are Ascend 950 only, target \"a5\")",
                    space.name(),
                    target.name()
                ),
            );
            return true;
        }
    }
    // T2, T3: the algebra meaning.
    // `resolve` is `Some` for every type `tensor_type` parsed.
    let resolved = match checker.layouts.resolve(ty) {
        None => return true,
        Some(Ok(r)) => r,
        Some(Err(e)) => {
            checker.error(location, &format!("invalid type {tensor}: {e}"));
            return true;
        }
    };
    // T4, T5: legality for the space and target.
    if derived {
        return true;
    }
    if let Some(message) = legality_error(&tensor, &resolved, checker) {
        checker.error(location, &message);
    }
    true
}

fn legality_error(tensor: &TensorType, r: &TensorLayout, checker: &Checker) -> Option<String> {
    let target = checker.target?;
    let legal = legal_patterns(r.space, target, r.elem);
    let where_ = format!("in {} on target \"{}\"", r.space.name(), target.name());
    let Some((pattern, c0)) = r.recognized_pattern() else {
        if allows_unrecognized(r.space) {
            return None;
        }
        return Some(format!(
            "{tensor}: the layout \"{}\" is not a frame pattern; {where_} the layout must be one of {} (written as a name or an equivalent CuTe layout)",
            tensor.layout,
            names(&legal)
        ));
    };
    if !legal.contains(&pattern) {
        let shown = match (&r.param, pattern) {
            (LayoutParam::Pattern(_), p) if p.name() != tensor.layout => {
                format!("{} (= {p})", tensor.layout)
            }
            (LayoutParam::Pattern(_), p) => p.name().to_string(),
            (LayoutParam::Explicit { .. }, p) => {
                format!("\"{}\" (recognized as {p})", tensor.layout)
            }
        };
        let legal_text = if legal.is_empty() { "none".to_string() } else { names(&legal) };
        return Some(format!("{tensor}: layout {shown} is not legal for {} {where_}; legal: {legal_text}", r.elem));
    }
    if let LayoutParam::Explicit { .. } = r.param {
        if pattern.is_fractal() && !checker.rules.any_c0 {
            let want = frame_c0(pattern, r.elem).ok()?;
            if want != c0 {
                return Some(format!(
                    "{tensor}: the explicit layout is {pattern} with C0 = {c0}, but {pattern} of {} {where_} has C0 = {want} (C0 = 32 bytes / element size; 16 on l0c)",
                    r.elem
                ));
            }
        }
    }
    None
}
