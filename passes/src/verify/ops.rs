//! Rules V*, L*, X*, G*, O*: the `layout` ops (see the list in `mod.rs`).

use super::Checker;
use crate::{
    ir::{constant_int, defining_op, memref_info},
    tile,
};
use layout_algebra::{ascend::FramePattern, IndexValue};
use layout_dialect::ops::{LayoutOp, LayoutOpKind, StoreEpilogue};
use layout_dialect::{
    legality::{copy_element_types, direction, legal_pairs, matmul_accumulator, Direction},
    tensor_layout::layout_strings,
    MemorySpace, TensorLayout, TensorType,
};
use melior::ir::{operation::OperationLike, Location, OperationRef, ValueLike};

/// The resolved type of operand `i`; `None` if it is not a valid tensor (reported at its
/// definition).
fn operand_layout(op: &OperationRef, i: usize, c: &mut Checker) -> Option<(TensorType, TensorLayout)> {
    typed_layout(op.operand(i).ok()?.r#type(), c)
}

fn result_layout(op: &OperationRef, c: &mut Checker) -> Option<(TensorType, TensorLayout)> {
    typed_layout(op.result(0).ok()?.r#type(), c)
}

/// The text parameters and algebra values of a type, from the run's cache.
fn typed_layout(ty: melior::ir::Type, c: &mut Checker) -> Option<(TensorType, TensorLayout)> {
    let t = c.layouts.tensor_type(ty)?;
    let r = c.layouts.resolve(ty)?.ok()?;
    Some((t, r))
}

/// Checks one op if it is a `layout` op (the others are not this module's business).
pub(super) fn check_op(op: &OperationRef, c: &mut Checker) {
    let location = op.location();
    let decoded = match LayoutOp::decode(*op) {
        None => return,
        Some(Err(e)) => return c.error(location, &e.to_string()),
        Some(Ok(decoded)) => decoded,
    };
    match decoded {
        LayoutOp::View { .. } | LayoutOp::Alloc { .. } => check_view_alloc(op, decoded.kind(), location, c),
        LayoutOp::Load { .. } => check_copy(op, Direction::Load, location, c),
        LayoutOp::Store { epilogue, .. } => {
            check_copy(op, Direction::Store, location, c);
            check_epilogue(op, epilogue, location, c);
        }
        LayoutOp::Matmul { .. } => check_matmul(op, location, c),
        LayoutOp::Tile { shape, .. } => check_tile(op, &shape, location, c),
        LayoutOp::Offset { .. } => check_offset(op, location, c),
        // Operands and the index result are IRDL's; the value is the launch's (any block).
        LayoutOp::Block { .. } => {}
    }
}

fn check_view_alloc(op: &OperationRef, kind: LayoutOpKind, location: Location, c: &mut Checker) {
    let name = kind.name();
    let Some((ty, r)) = result_layout(op, c) else {
        return;
    };
    // V1.
    let is_view = kind == LayoutOpKind::View;
    if is_view && r.space != MemorySpace::Gm && !c.rules.host_copies {
        c.error(location, &format!("layout.view binds a global-memory buffer, so its result must be in \"gm\", got \"{}\" (on-chip buffers come from layout.alloc)", r.space.name()));
    }
    if !is_view && r.space == MemorySpace::Gm {
        c.error(location, "layout.alloc allocates on-chip buffers (l1, l0a, l0b, l0c, ub, ...); a \"gm\" tensor comes from layout.view of a memref");
    }
    // V2.
    let first_dyn = usize::from(is_view);
    let dyn_count = op.operand_count().saturating_sub(first_dyn);
    if dyn_count != r.num_dynamic() {
        c.error(
            location,
            &format!(
                "{name} needs {} dynamic-leaf operand(s), one per `?` of {ty} (origin leaves first, then layout leaves), got {dyn_count}",
                r.num_dynamic()
            ),
        );
        return;
    }
    // V3.
    let values: Vec<Option<i64>> =
        (first_dyn..op.operand_count()).map(|i| op.operand(i).ok().and_then(constant_int)).collect();
    let mut bound = r.clone();
    if values.iter().any(Option::is_some) {
        match ty.bind(&values).and_then(|b| b.resolve()) {
            Ok(b) => bound = b,
            Err(e) => {
                c.error(location, &format!("the constant dynamic-leaf operands give an invalid type: {e}"));
                return;
            }
        }
    }
    // V4.
    if is_view {
        let Some((elem, count)) = op.operand(0).ok().and_then(|v| memref_info(v.r#type())) else {
            return;
        };
        if elem != ty.elem {
            c.error(
                location,
                &format!("the memref element type {elem} differs from the tensor element type {}", ty.elem),
            );
        }
        if let (Some(count), Some(layout)) = (count, bound.static_layout()) {
            match layout.cosize() {
                Ok(need) if need > count => c.error(
                    location,
                    &format!("the layout {layout} spans {need} elements but the memref has only {count}"),
                ),
                Ok(_) => {}
                Err(e) => c.error(location, &format!("the extent of {layout} overflows: {e}")),
            }
        }
    }
}

/// The pattern of operand `i`: recognized from its type, or for a tile result whose type
/// leaves `?` the parent's pattern (a tile keeps the parent's strides and inner blocks).
/// Iterative and memoized per value in `c`, so a chain of N tiles costs O(N) once, not per use
/// (and no recursion as deep as the chain).
fn pattern_of(op: &OperationRef, i: usize, c: &mut Checker) -> Option<FramePattern> {
    let mut value = op.operand(i).ok()?;
    let mut chain = Vec::new();
    let found = loop {
        let key = value.to_raw().ptr as usize;
        if let Some(known) = c.patterns.get(&key) {
            break *known;
        }
        chain.push(key);
        if let Some((p, _)) =
            c.layouts.resolve(value.r#type()).and_then(Result::ok).and_then(|r| r.recognized_pattern())
        {
            break Some(p);
        }
        match defining_op(value) {
            Some(def) => match LayoutOp::decode(def) {
                Some(Ok(LayoutOp::Tile { source, .. })) => value = source,
                // A load's `written` view has its destination's layout.
                Some(Ok(LayoutOp::Load { dst, .. })) => value = dst,
                Some(Ok(LayoutOp::Matmul { c, .. })) => value = c,
                _ => break None,
            },
            _ => break None,
        }
    };
    for key in chain {
        c.patterns.insert(key, found);
    }
    found
}

fn show(t: &TensorLayout, pattern: Option<FramePattern>) -> String {
    match pattern {
        Some(p) => format!("{} {p}", t.space.name()),
        None => format!("{} \"{}\"", t.space.name(), layout_strings(&t.layout).0),
    }
}

/// What a copy moves of operand `i` (of type `t`): one matrix of a batch form
/// ([`tile::matrix_view`], L6). The batch extent of a `layout.tile` result is its `shape[0]`,
/// 1 by G1, whatever its type writes there (`?`).
fn copied_matrix(op: &OperationRef, i: usize, t: &TensorLayout) -> Result<TensorLayout, crate::error::LoweringError> {
    use layout_algebra::{Layout, SymExpr, Tuple};
    let mut layout = t.layout.clone();
    let tiled = op.operand(i).ok().and_then(defining_op).and_then(LayoutOp::decode);
    if tile::is_batch_form(&layout) && matches!(tiled, Some(Ok(LayoutOp::Tile { .. }))) {
        let matrix = layout.shape().get(1)?.clone();
        let shape = Tuple::Tuple(vec![Tuple::Int(SymExpr::Const(1)), matrix]);
        layout = Layout::with_origin(shape, layout.stride().clone(), layout.origin().clone())?;
    }
    let corner = vec![SymExpr::Const(0); layout.origin().leaves().len()];
    Ok(TensorLayout { layout: tile::matrix_view(&layout, &corner)?.layout, ..t.clone() })
}

fn check_copy(op: &OperationRef, this: Direction, location: Location, c: &mut Checker) {
    let (Some((_, src)), Some((_, dst))) = (operand_layout(op, 0, c), operand_layout(op, 1, c)) else {
        return;
    };
    // L6: a batch-form operand holds one matrix, which the copy moves (host copies, run by the
    // loop lowering only, also copy whole batches element by element).
    let whole_batches = c.rules.host_copies && tile::is_batch_form(&src.layout) && tile::is_batch_form(&dst.layout);
    let (src, dst) = match (copied_matrix(op, 0, &src), copied_matrix(op, 1, &dst)) {
        _ if whole_batches => (src, dst),
        (Ok(s), Ok(d)) => (s, d),
        (Err(e), _) | (_, Err(e)) => return c.error(location, &format!("{}: {e}", this.op_name())),
    };
    let Some(target) = c.target else {
        return;
    };
    let op_name = this.op_name();
    check_written_result(op, location, c);
    if c.rules.host_copies {
        check_copy_elements(op, this, (&src, &dst), location, c);
        return;
    }
    // L1.
    match direction(src.space, dst.space, target) {
        Err(reason) => {
            c.error(location, &format!("{op_name}: {reason}"));
            return;
        }
        Ok(d) if d != this => {
            let why = match this {
                Direction::Load => "layout.load moves data towards the cube",
                Direction::Store => "layout.store takes results out of the cube",
            };
            c.error(
                location,
                &format!("{why}; {} -> {} goes the other way: use {}", src.space.name(), dst.space.name(), d.op_name()),
            );
            return;
        }
        Ok(_) => {}
    }
    // L2.
    let pairs = legal_pairs(src.space, dst.space, target);
    let list = pairs.iter().map(|(a, b)| format!("{a}->{b}")).collect::<Vec<_>>().join(", ");
    let (sp, dp) = (pattern_of(op, 0, c), pattern_of(op, 1, c));
    match (sp, dp) {
        (Some(sp), Some(dp)) if pairs.contains(&(sp, dp)) => {}
        (Some(_), Some(_)) => c.error(
            location,
            &format!(
                "{op_name}: no {} -> {} copy on target \"{}\"; legal pairs: {}",
                show(&src, sp),
                show(&dst, dp),
                target.name(),
                if list.is_empty() { "none".into() } else { list }
            ),
        ),
        _ => c.error(
            location,
            &format!(
                "{op_name}: {} -> {}: data movement needs layouts that are frame patterns (the algebra recognizes none here)",
                show(&src, sp),
                show(&dst, dp)
            ),
        ),
    }
    check_copy_elements(op, this, (&src, &dst), location, c);
}

/// L3 and L4: element types and extents of a copy (also for host copies).
/// W1: the `written` result of a `layout.load` (a `layout.matmul`) is the destination (C) with
/// the written extent as its origin ([`tile::written_view`]): same element type and space, every
/// static leaf equal to the algebra's, `?` where it derives the value (as G2 for tiles).
fn check_written_result(op: &OperationRef, location: Location, c: &mut Checker) {
    let Some(result) = layout_dialect::ops::first_result(op) else { return };
    let matmul = op.operand_count() == 3;
    let resolve = |i: usize, prefix: &str, c: &mut Checker| {
        let ty = op.operand(i).ok()?.r#type();
        c.layouts.tensor_type(ty)?.resolve_with_prefix(prefix).ok()
    };
    let Some(declared) = c.layouts.tensor_type(result.r#type()).and_then(|t| t.resolve_with_prefix("w").ok()) else {
        return;
    };
    // Destination and written extents: a load writes min(src, dst), a matmul m x n of C.
    let (name, dst, extents) = if matmul {
        let (Some(a), Some(b), Some(acc)) = (resolve(0, "a", c), resolve(1, "b", c), resolve(2, "c", c)) else {
            return;
        };
        let (ae, be) = (a.layout.origin().leaves(), b.layout.origin().leaves());
        if ae.len() != 2 || be.len() != 2 {
            return;
        }
        ("layout.matmul", acc, vec![ae[0].clone(), be[1].clone()])
    } else {
        let (Some(src), Some(dst)) = (resolve(0, "s", c), resolve(1, "d", c)) else { return };
        // One matrix of a batch form writes its matrix extents (L6 reports other batch forms).
        let Ok(src) = copied_matrix(op, 0, &src) else { return };
        let extents = src.layout.origin().leaves();
        ("layout.load", dst, extents)
    };
    if declared.elem != dst.elem || declared.space != dst.space {
        let message = format!(
            "{name}: the `written` result is the destination viewed with the extent written, so it holds {} in \"{}\", got {} in \"{}\"",
            dst.elem,
            dst.space.name(),
            declared.elem,
            declared.space.name()
        );
        return c.error(location, &message);
    }
    let expected = match tile::written_view(&dst.layout, &extents) {
        Ok(e) => e,
        Err(e) => return c.error(location, &format!("{name}: {e}")),
    };
    if let Err(why) = tile::check_declared(&declared.layout, &expected) {
        let (l, o) = layout_strings(&expected);
        let why = why.to_string().replace("the tile's", "the written view's");
        c.error(
            location,
            &format!("{name}: the `written` result type does not match the written view: {why}; the written view is LAYOUT \"{l}\" ORIGIN \"{o}\" (s<i>/d<i> = source/destination leaf i, a<i>/b<i>/c<i> = leaf i of A/B/C)"),
        );
    }
}

fn check_copy_elements(
    op: &OperationRef,
    this: Direction,
    (src, dst): (&TensorLayout, &TensorLayout),
    location: Location,
    c: &mut Checker,
) {
    let op_name = this.op_name();
    let (sp, dp) = (pattern_of(op, 0, c), pattern_of(op, 1, c));
    // L3.
    let allowed = copy_element_types(src.space, src.elem);
    if !allowed.contains(&dst.elem) {
        c.error(
            location,
            &format!(
                "{op_name}: cannot convert {} to {} on the way {} -> {}",
                src.elem,
                dst.elem,
                src.space.name(),
                dst.space.name()
            ),
        );
    }
    // L4. Conv layouts: NC1HWC0 <- NCHW / NHWC converts logical (n, c, h, w) coordinates
    // (rank 4 -> rank 5; `layout_algebra::ascend::conv_coordinate`); the other legal pairs that
    // change between a matrix and a conv layout (Fixpipe NZ2NCHW/NHWC/NC1HWC0, Img2Col) have
    // no element correspondence in the types and are not implemented.
    if let (Some(sp), Some(dp)) = (sp, dp) {
        if sp != dp && (!sp.is_matrix() || !dp.is_matrix()) {
            check_conv_copy(op_name, (src, sp), (dst, dp), location, c);
            return;
        }
    }
    let (so, dst_o) = (src.layout.origin(), dst.layout.origin());
    if so.rank() != dst_o.rank() {
        c.error(
            location,
            &format!(
                "{op_name}: source origin {} and destination origin {} have different ranks",
                src.layout.origin(),
                dst.layout.origin()
            ),
        );
        return;
    }
    for (k, (s, d)) in so.leaves().iter().zip(dst_o.leaves()).enumerate() {
        if let (Some(s), Some(d)) = (s.as_constant(), d.as_constant()) {
            if s > d {
                c.error(
                    location,
                    &format!("{op_name}: the source extent {s} of mode {k} does not fit the destination extent {d}"),
                );
                return;
            }
        }
    }
}

fn check_conv_copy(
    op_name: &str,
    (src, sp): (&TensorLayout, FramePattern),
    (dst, dp): (&TensorLayout, FramePattern),
    location: Location,
    c: &mut Checker,
) {
    if sp.is_matrix() || dp != FramePattern::NC1HWC0 {
        c.error(
            location,
            &format!(
                "{op_name}: the copy {} {sp} -> {} {dp} is not supported by this compiler yet (of the matrix <-> convolution layout pairs only NCHW/NHWC -> NC1HWC0 is implemented)",
                src.space.name(),
                dst.space.name()
            ),
        );
        return;
    }
    let extents = |t: &TensorLayout, p: FramePattern| {
        layout_algebra::ascend::conv_logical_extents(p, &t.layout.origin().leaves())
    };
    let (se, de) = match (extents(src, sp), extents(dst, dp)) {
        (Ok(s), Ok(d)) => (s, d),
        (Err(e), _) | (_, Err(e)) => {
            c.error(location, &format!("{op_name}: {e}"));
            return;
        }
    };
    for (k, (s, d)) in se.iter().zip(&de).enumerate() {
        if let (Some(s), Some(d)) = (s.as_constant(), d.as_constant()) {
            if s > d {
                let what = ["n", "c", "h", "w"][k];
                c.error(
                    location,
                    &format!(
                        "{op_name}: the source extent {what} = {s} does not fit the destination ({what} = {d}{})",
                        if k == 1 { " = c1·c0" } else { "" }
                    ),
                );
                return;
            }
        }
    }
}

/// L5: the Fixpipe epilogue of a store and the conversions it implies.
fn check_epilogue(op: &OperationRef, epilogue: StoreEpilogue, location: Location, c: &mut Checker) {
    use layout_algebra::ascend::ElementType as E;
    let (Some((_, src)), Some((_, dst))) = (operand_layout(op, 0, c), operand_layout(op, 1, c)) else {
        return;
    };
    let path = format!("{} {} -> {} {}", src.space.name(), src.elem, dst.space.name(), dst.elem);
    if epilogue.atomic_add {
        check_atomic_add(&path, (&src, &dst), location, c);
    }
    if src.space != MemorySpace::L0c {
        // X5: only a Fixpipe (a store out of l0c) takes part in the unitFlag handshake.
        if epilogue.unit_flag {
            c.error(
                location,
                &format!("layout.store: `unit_flag` is the Fixpipe's side of the Mmad handshake, for stores out of l0c; this store is {path}"),
            );
        }
        if epilogue.relu || epilogue.scale.is_some() {
            c.error(
                location,
                &format!(
                    "layout.store: `relu` and `scale` are Fixpipe epilogues of stores out of l0c; this store is {path}"
                ),
            );
        }
        return;
    }
    if !matches!(src.elem, E::F32 | E::I32) {
        return c.error(
            location,
            &format!("layout.store: Fixpipe reads the accumulator types f32 or i32 from l0c, got {}", src.elem),
        );
    }
    let dequant = (src.elem, dst.elem) == (E::I32, E::F16);
    match epilogue.scale {
        None if dequant => c.error(location, &format!(
            "layout.store: {path} is the DEQF16 dequantization f16(f32(x) · scale) and needs `scale = S : f32`"
        )),
        Some(_) if !dequant => c.error(location, &format!(
            "layout.store: `scale` is the DEQF16 dequantization of an i32 accumulator to f16; this store is {path} (f32 -> f16/bf16 conversions take no scale)"
        )),
        Some(s) if !s.is_finite() => c.error(location, &format!("layout.store: the DEQF16 scale must be finite, got {s}")),
        Some(s) => {
            let kept = ascendc_params::fixpipe_scale(s);
            if kept.to_bits() != s.to_bits() {
                c.error(location, &format!(
                    "layout.store: the DEQF16 scale {s:e} is not representable: the Fixpipe keeps 10 of its 23 mantissa bits, which gives {kept:e}; write that value (or another with a 10-bit mantissa)"
                ));
            }
        }
        None => {}
    }
}

/// L5: `atomic = "add"` is the Fixpipe's atomic add into GM (`SetAtomicAdd<T>()`): L0C → GM
/// only (the one path of that list the dialect stores on), for the element types the target's
/// `SetAtomicAdd` accepts (`legality::atomic_add_types`).
fn check_atomic_add(path: &str, (src, dst): (&TensorLayout, &TensorLayout), location: Location, c: &mut Checker) {
    if src.space != MemorySpace::L0c || dst.space != MemorySpace::Gm {
        return c.error(location, &format!(
            "layout.store: `atomic = \"add\"` is the Fixpipe's atomic add into GM (SetAtomicAdd, l0c -> gm); this store is {path}"
        ));
    }
    let Some(target) = c.target else { return };
    let types = layout_algebra::ascend::legality::atomic_add_types(target);
    if !types.contains(&dst.elem) {
        let list: Vec<&str> = types.iter().map(|t| t.name()).collect();
        let list = if list.is_empty() { "none documented".to_string() } else { list.join(", ") };
        c.error(
            location,
            &format!(
                "layout.store: SetAtomicAdd does not add {} on target \"{}\" (element types: {list})",
                dst.elem,
                target.name()
            ),
        );
    }
}

fn dims(t: &TensorLayout) -> Option<[Option<i64>; 2]> {
    let leaves = match t.layout.origin() {
        layout_algebra::Tuple::Tuple(m) if m.len() == 2 && m.iter().all(|x| x.is_int()) => t.layout.origin().leaves(),
        _ => return None,
    };
    Some([leaves[0].as_constant(), leaves[1].as_constant()])
}

fn check_matmul(op: &OperationRef, location: Location, c: &mut Checker) {
    // X5: a constant unit flag is one the handshake defines for an Mmad (asc-devkit UnitFlag.md:
    // 2 before the accumulation's last Mmad, 3 on it; 0, "off", is the op without the operand).
    if let Some(flag) = op.operand(3).ok().and_then(constant_int) {
        use ascendc_params::decl::UnitFlag;
        if !matches!(UnitFlag::of(flag), Some(UnitFlag::Keep | UnitFlag::Release)) {
            c.error(
                location,
                &format!(
                    "layout.matmul: the unit flag must be {} (more matmuls of the accumulation follow) or {} (the last one), got {flag}",
                    UnitFlag::Keep.value(),
                    UnitFlag::Release.value()
                ),
            );
        }
    }
    let (Some((_, a)), Some((_, b)), Some((_, acc))) =
        (operand_layout(op, 0, c), operand_layout(op, 1, c), operand_layout(op, 2, c))
    else {
        return;
    };
    check_written_result(op, location, c);
    // X1.
    for (what, t, want) in [("A", &a, MemorySpace::L0a), ("B", &b, MemorySpace::L0b), ("C", &acc, MemorySpace::L0c)] {
        if t.space != want {
            c.error(
                location,
                &format!("layout.matmul: operand {what} must be in {}, got {}", want.name(), t.space.name()),
            );
            return;
        }
    }
    // X2.
    if let Some(target) = c.target {
        match matmul_accumulator(a.elem, b.elem, target) {
            Err(reason) => c.error(location, &format!("layout.matmul: {reason}")),
            Ok(want) if want != acc.elem => c.error(
                location,
                &format!("layout.matmul: {} x {} accumulates in {want}, but C is {}", a.elem, b.elem, acc.elem),
            ),
            Ok(_) => {}
        }
    }
    // X3.
    let (Some([m, k]), Some([k2, n]), Some([m2, n2])) = (dims(&a), dims(&b), dims(&acc)) else {
        c.error(location, "layout.matmul: A, B and C need rank-2 origins (M×K, K×N, M×N)");
        return;
    };
    for (what, x, y) in
        [("K (A cols vs B rows)", k, k2), ("M (A rows vs C rows)", m, m2), ("N (B cols vs C cols)", n, n2)]
    {
        if let (Some(x), Some(y)) = (x, y) {
            if x != y {
                c.error(location, &format!("layout.matmul: {what} differs: {x} vs {y}"));
                return;
            }
        }
    }
}

fn check_tile(op: &OperationRef, shape: &[i64], location: Location, c: &mut Checker) {
    let Some(parent_ty) = op.operand(0).ok().and_then(|v| c.layouts.tensor_type(v.r#type())) else {
        return;
    };
    let Ok(parent) = tile::parent_layout(&parent_ty) else {
        return;
    };
    let Some(result_ty) = op.result(0).ok().and_then(|v| c.layouts.tensor_type(v.r#type())) else {
        return;
    };
    // G1 (`shape` is an array<i64>: checked by decoding the op).
    let coords: Vec<Option<i64>> = (1..op.operand_count()).map(|i| op.operand(i).ok().and_then(constant_int)).collect();
    // One coordinate per origin extent: per mode, and (batch, rows, cols) for a batch form.
    let tile_rank = parent.layout.origin().leaves().len();
    if shape.len() != coords.len() || coords.len() != tile_rank {
        c.error(
            location,
            &format!(
                "layout.tile: the parent has {} origin extent(s) (one per mode; batch, rows and cols for a batch form); give one coordinate and one `shape` extent per extent (got {} coordinate(s), {} extent(s))",
                tile_rank,
                coords.len(),
                shape.len()
            ),
        );
        return;
    }
    if let Some(bad) = shape.iter().find(|v| **v <= 0) {
        c.error(location, &format!("layout.tile: tile extents must be positive, got {bad}"));
        return;
    }
    // G1 for batch forms: a tile selects one matrix of a GM batch (what both lowerings move).
    let batch = tile::is_batch_form(&parent.layout);
    if batch && shape[0] != 1 {
        let message = format!("layout.tile: a tile of a batch form selects one matrix: the batch extent must be 1, got {} (tile the batch in a loop over the batch coordinate)", shape[0]);
        return c.error(location, &message);
    }
    if batch && parent.space != MemorySpace::Gm {
        let message = format!(
            "layout.tile: batch forms are tiled in gm only (the on-chip buffers hold one matrix), got \"{}\"",
            parent.space.name()
        );
        return c.error(location, &message);
    }
    if let Some(bad) = coords.iter().flatten().find(|v| **v < 0) {
        c.error(location, &format!("layout.tile: coordinates must be non-negative, got {bad}"));
        return;
    }
    if result_ty.elem != parent_ty.elem || result_ty.space != parent_ty.space {
        c.error(
            location,
            &format!(
                "layout.tile: the tile keeps the parent's element type and memory space ({}, \"{}\"), got ({}, \"{}\")",
                parent_ty.elem, parent_ty.space, result_ty.elem, result_ty.space
            ),
        );
        return;
    }
    // G2.
    let expected = match tile::expected_tile(&parent, shape, &coords) {
        Ok(e) => e,
        Err(e) => {
            c.error(location, &format!("layout.tile: {e}"));
            return;
        }
    };
    if let Ok(declared) = result_ty.resolve_with_prefix("r") {
        if let Err(why) = tile::check_declared(&declared.layout, &expected) {
            let (l, o) = layout_strings(&expected);
            c.error(location, &format!("layout.tile: the result type does not match the tile: {why}; the tile is LAYOUT \"{l}\" ORIGIN \"{o}\" (`?` = dynamic)"));
        }
    }
    // G3 (a batch form: on its matrix, with the (rows, cols) coordinates and extents).
    if let Some((pattern, _)) = parent.recognized_pattern() {
        if pattern.is_fractal() && shape.len() == 2 {
            check_alignment(&parent, pattern, shape, &coords, location, c);
        } else if pattern.is_fractal() && batch {
            let (s, d) = (parent.layout.shape().get(1), parent.layout.stride().get(1));
            if let (Ok(s), Ok(d)) = (s, d) {
                if let Ok(layout) = layout_algebra::Layout::new(s.clone(), d.clone()) {
                    let matrix = TensorLayout { layout, ..parent.clone() };
                    check_alignment(&matrix, pattern, &shape[1..], &coords[1..], location, c);
                }
            }
        }
    }
}

fn check_alignment(
    parent: &TensorLayout,
    pattern: FramePattern,
    shape: &[i64],
    coords: &[Option<i64>],
    location: Location,
    c: &mut Checker,
) {
    let inner: Vec<Option<i64>> = (0..2)
        .map(|k| parent.layout.shape().get_path(&[k, 0]).ok().and_then(|t| t.as_int()).and_then(|v| v.as_constant()))
        .collect();
    let (Some(r_in), Some(c_in)) = (inner[0], inner[1]) else {
        return;
    };
    let block = [r_in, c_in];
    for k in 0..2 {
        if let Some(v) = coords[k] {
            if v % block[k] != 0 {
                c.error(location, &format!(
                    "layout.tile: coordinate {k} = {v} is not a multiple of the {r_in}×{c_in} inner block of {pattern}; cube data movement needs fractal-aligned tile origins (docs/layout-spec.md §B.7)"
                ));
                return;
            }
        }
        if shape[k] % block[k] != 0 {
            c.error(location, &format!(
                "layout.tile: tile extent {k} = {} is not a multiple of the {r_in}×{c_in} inner block of {pattern}; tiles of fractal layouts cover whole fractals (use the origin for tails)",
                shape[k]
            ));
            return;
        }
    }
}

fn check_offset(op: &OperationRef, location: Location, c: &mut Checker) {
    let Some((_, t)) = operand_layout(op, 0, c) else {
        return;
    };
    let n = op.operand_count() - 1;
    if n != t.rank() {
        c.error(
            location,
            &format!("layout.offset: the layout has {} mode(s) but {n} coordinate(s) were given", t.rank()),
        );
        return;
    }
    let coords: Vec<Option<i64>> = (1..op.operand_count()).map(|i| op.operand(i).ok().and_then(constant_int)).collect();
    if let Some(bad) = coords.iter().flatten().find(|v| **v < 0) {
        c.error(location, &format!("layout.offset: coordinates must be non-negative, got {bad}"));
        return;
    }
    if let Some(all) = coords.iter().copied().collect::<Option<Vec<i64>>>() {
        if let Err(e) = tile::constant_offset(&t.layout, &all) {
            c.error(location, &format!("layout.offset: {e}"));
        }
    }
}
