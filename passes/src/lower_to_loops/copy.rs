//! `layout.load` / `layout.store`: element-by-element copy over the valid region with layout
//! conversion, Fixpipe element conversion and the hardware's zero-fill (docs/layout-spec.md §A.7, §D).

use layout_algebra::{
    ascend::{conv_coordinate, conv_logical_extents, ElementType, FramePattern},
    IndexValue, SymExpr,
};
use layout_dialect::ops::StoreEpilogue;
use layout_dialect::MemorySpace;
use melior::{
    dialect::arith::{self, CmpfPredicate, CmpiPredicate},
    ir::{operation::OperationLike, Location, OperationRef, Type},
};
use mlir_sys::{MlirType, MlirValue};

use super::{build, describe, guard, initcheck, racecheck, Lowerer, Tensor};
use crate::error::LoweringError;

/// How an element changes on the way: the Fixpipe conversion the types give, with the store's
/// epilogue (docs/ascendc-derivation.md §12 for the semantics and their sources).
enum Conversion {
    None,
    /// Fixpipe F322F16 / F322BF16: `arith.truncf`, round to nearest even, non-saturating.
    Truncate,
    /// Fixpipe DEQF16: `f16(clamp(f32(x) · scale, ±65504))`, `scale` as the hardware keeps it.
    Dequant {
        scale: f32,
    },
}

fn conversion(src: &Tensor, dst: &Tensor, name: &str, scale: Option<f32>) -> Result<Conversion, LoweringError> {
    match (src.space, src.elem, dst.elem, scale) {
        (_, s, d, None) if s == d => Ok(Conversion::None),
        (MemorySpace::L0c, ElementType::F32, ElementType::F16 | ElementType::BF16, None) => Ok(Conversion::Truncate),
        (MemorySpace::L0c, ElementType::I32, ElementType::F16, Some(scale)) => {
            Ok(Conversion::Dequant { scale: ascendc_params::fixpipe_scale(scale) })
        }
        (MemorySpace::L0c, ElementType::I32, _, None) => Err(LoweringError::Contract(format!(
            "{name}: the Fixpipe conversion {} -> {} needs quantization parameters: i32 -> f16 takes `scale` (DEQF16); the i32 -> i8 modes (REQ8) are not supported",
            src.elem, dst.elem
        ))),
        _ => Err(LoweringError::Unsupported(format!("{name}: cannot convert {} to {} on the way {} -> {}{}", src.elem, dst.elem, src.space.name(), dst.space.name(), scale.map_or(String::new(), |s| format!(" with scale {s}"))))),
    }
}

/// The element operation of a copy with its constants, emitted once before the loop nest (so
/// they dominate its body): [`Self::prepare`] at the copy's insertion point, then
/// [`Self::apply`] per element.
struct ElementOp {
    conversion: Conversion,
    /// +0 of the type ReLU compares in (`relu = true`).
    relu_zero: Option<MlirValue>,
    /// The DEQF16 scale and the ±65504 clamp bounds.
    dequant: Option<(MlirValue, MlirValue, MlirValue)>,
    /// The bfloat16 NaN the Fixpipe writes (0x7FFF), for F322BF16.
    bf16_nan: Option<MlirValue>,
    dst_type: MlirType,
}

impl ElementOp {
    fn prepare(
        l: &Lowerer,
        location: Location,
        point: build::Point,
        (conversion, relu): (Conversion, bool),
        (src, dst): (&Tensor, &Tensor),
    ) -> Result<ElementOp, LoweringError> {
        let constant = |text: &str| build::constant_text(l.context, location, point, text);
        let f32_text = |v: f32| format!("0x{:08X} : f32", v.to_bits());
        // The element type ReLU sees: the dequantized f32, else the source element.
        let relu_elem = if matches!(conversion, Conversion::Dequant { .. }) { ElementType::F32 } else { src.elem };
        let relu_zero = if relu { Some(constant(&zero_text(relu_elem))?) } else { None };
        let dequant = match conversion {
            Conversion::Dequant { scale } => {
                Some((constant(&f32_text(scale))?, constant(&f32_text(65504.0))?, constant(&f32_text(-65504.0))?))
            }
            _ => None,
        };
        let bf16_nan = match (&conversion, dst.elem) {
            (Conversion::Truncate, ElementType::BF16) => Some(constant("0x7FFF : bf16")?),
            _ => None,
        };
        Ok(ElementOp { conversion, relu_zero, dequant, bf16_nan, dst_type: dst.elem_type })
    }

    /// Emits the conversion and ReLU of `value` in `body`.
    fn apply(
        &self,
        l: &Lowerer,
        location: Location,
        body: build::Point,
        value: MlirValue,
    ) -> Result<MlirValue, LoweringError> {
        let v = |x: MlirValue| build::val(x);
        let mut x = value;
        if let Some((scale, _, _)) = self.dequant {
            x = body.value(arith::sitofp(v(x), Type::float32(l.context), location))?;
            x = body.value(arith::mulf(v(x), v(scale), location))?;
        }
        if let Some(zero) = self.relu_zero {
            // Keep x if x > 0 or NaN (unordered), else +0: -0 becomes +0 too.
            // Safety: a valid value.
            let is_int = unsafe { mlir_sys::mlirTypeIsAInteger(mlir_sys::mlirValueGetType(x)) };
            let keep = if is_int {
                body.value(arith::cmpi(l.context, CmpiPredicate::Sgt, v(x), v(zero), location))?
            } else {
                body.value(arith::cmpf(l.context, CmpfPredicate::Ugt, v(x), v(zero), location))?
            };
            x = body.value(arith::select(v(keep), v(x), v(zero), location))?;
        }
        if let Some((_, max, min)) = self.dequant {
            // DEQF16 saturates (no INF_NAN mode): clamp to the largest finite half first.
            x = body.value(arith::minimumf(v(x), v(max), location))?;
            x = body.value(arith::maxnumf(v(x), v(min), location))?;
        }
        if matches!(self.conversion, Conversion::Truncate | Conversion::Dequant { .. }) {
            let wide = x;
            // Safety: a valid element type.
            let to = unsafe { Type::from_raw(self.dst_type) };
            x = body.value(arith::truncf(v(wide), to, location))?;
            if let Some(nan) = self.bf16_nan {
                let is_nan = body.value(arith::cmpf(l.context, CmpfPredicate::Uno, v(wide), v(wide), location))?;
                x = body.value(arith::select(v(is_nan), v(nan), v(x), location))?;
            }
        }
        Ok(x)
    }
}

/// The origin leaf along which the destination's C0 blocks run ([`FramePattern::c0_axis`] of
/// the matrix modes, the last two), with C0, when this copy zero-fills: ND→NZ and DN→ZN
/// (docs/layout-spec.md §A.7).
fn zero_fill_axis(src: &Tensor, dst: &Tensor, rank: usize) -> Option<(usize, i64)> {
    use FramePattern::*;
    let (sp, _) = src.pattern?;
    let (dp, c0) = dst.pattern?;
    if rank < 2 || !matches!((sp, dp), (ND | NDExt, NZ) | (DN | DNExt, ZN)) {
        return None;
    }
    Some((rank - 2 + dp.c0_axis()?, c0))
}

fn is_integer(elem: ElementType) -> bool {
    elem.name().starts_with('i') || elem.name().starts_with("ui")
}

fn zero_text(elem: ElementType) -> String {
    if is_integer(elem) {
        format!("0 : {}", elem.name())
    } else {
        format!("0.0 : {}", elem.name())
    }
}

pub(super) fn copy(
    l: &mut Lowerer,
    op: &OperationRef,
    name: &str,
    epilogue: StoreEpilogue,
) -> Result<(), LoweringError> {
    let src = l.operand(op, 0)?;
    let dst = l.operand(op, 1)?;
    if let (Some((sp, _)), Some((dp, _))) = (src.pattern, dst.pattern) {
        if sp != dp && (!sp.is_matrix() || !dp.is_matrix()) {
            if epilogue != StoreEpilogue::default() {
                return Err(LoweringError::Unsupported(format!(
                    "{name}: a Fixpipe epilogue on a convolution-layout copy"
                )));
            }
            if op.result_count() > 0 {
                return Err(LoweringError::Unsupported(format!("{name}: a convolution layout conversion {sp} -> {dp} has no `written` view here (use the destination)")));
            }
            return conv_copy(l, op, name, (&src, sp), (&dst, dp));
        }
    }
    // One matrix of a batch form is copied as that matrix at its batch offset; whole batches
    // (host copies, layout-verify L6) element by element.
    let in_op = |e: LoweringError| LoweringError::Contract(format!("{name}: {e}"));
    let whole_batches = crate::tile::is_batch_form(&src.layout) && crate::tile::is_batch_form(&dst.layout);
    let (src, dst) =
        if whole_batches { (src, dst) } else { (src.matrix().map_err(in_op)?, dst.matrix().map_err(in_op)?) };
    let (se, de) = (src.extents(), dst.extents());
    if se.len() != de.len() {
        return Err(LoweringError::Contract(format!(
            "{name}: source origin {} and destination origin {} have different ranks",
            src.layout.origin(),
            dst.layout.origin()
        )));
    }
    let conversion = conversion(&src, &dst, name, epilogue.scale)?;
    let region: Vec<SymExpr> = se.iter().zip(&de).map(|(s, d)| build::min(s, d)).collect::<Result<_, _>>()?;
    let location = op.location();
    let point = guard::guarded(location, build::Point::before(op), &[&src, &dst])?;

    // dst[dst_offset(x)] = convert(src[src_offset(x)]) over the valid region.
    let ranges: Vec<(SymExpr, SymExpr)> = region.iter().map(|e| (SymExpr::Const(0), e.clone())).collect();
    let element = ElementOp::prepare(l, location, point, (conversion, epilogue.relu), (&src, &dst))?;
    let nest = l.nest(location, point, &ranges)?;
    let offsets = l.emit(location, nest.body, &[src.address(&nest.ivs)?, dst.address(&nest.ivs)?])?;
    initcheck::check(l, location, nest.body, name, &src, offsets[0], &nest.ivs)?;
    let loaded = build::load(nest.body, location, src.buffer, offsets[0])?;
    l.witness(location, nest.body, build::defining_op(loaded), (&src, &nest.ivs), &format!("load by {name}"))?;
    let mut value = element.apply(l, location, nest.body, loaded)?;
    if epilogue.atomic_add {
        // SetAtomicAdd: GM += the converted value, in the destination type (one rounding).
        let old = build::load(nest.body, location, dst.buffer, offsets[1])?;
        let what = format!("atomic-add load by {name}");
        l.witness(location, nest.body, build::defining_op(old), (&dst, &nest.ivs), &what)?;
        let (a, b) = (build::val(old), build::val(value));
        value = nest.body.value(if is_integer(dst.elem) {
            arith::addi(a, b, location)
        } else {
            arith::addf(a, b, location)
        })?;
    }
    let stored = build::store(nest.body, location, value, dst.buffer, &[offsets[1]]);
    l.witness(location, nest.body, stored, (&dst, &nest.ivs), &format!("store by {name}"))?;
    initcheck::mark(l, location, nest.body, &dst, offsets[1])?;
    let write = if epilogue.atomic_add { racecheck::Write::AtomicAdd } else { racecheck::Write::Plain };
    racecheck::record(l, location, nest.body, (name, write), &dst, offsets[1])?;

    // Zero-fill the tail of the last incomplete C0 block of every valid row (NZ) / column (ZN).
    let fill = zero_fill_axis(&src, &dst, region.len());
    if let Some((axis, c0)) = fill.filter(|&(axis, c0)| !statically_aligned(&region, &dst, axis, c0)) {
        let c0 = SymExpr::Const(c0);
        let start = &region[axis];
        let global_end = build::add(&dst.coord[axis], start)?;
        let end = global_end.align_to(&c0).and_then(|a| a.sub(&dst.coord[axis]))?;
        let ranges: Vec<(SymExpr, SymExpr)> = region
            .iter()
            .enumerate()
            .map(|(k, e)| if k == axis { (start.clone(), end.clone()) } else { (SymExpr::Const(0), e.clone()) })
            .collect();
        let zero = build::constant_text(l.context, location, point, &zero_text(dst.elem))?;
        let nest = l.nest(location, point, &ranges)?;
        let offset = l.emit(location, nest.body, &[dst.address(&nest.ivs)?])?;
        let stored = build::store(nest.body, location, zero, dst.buffer, &offset);
        l.witness(location, nest.body, stored, (&dst, &nest.ivs), &format!("zero-fill store by {name}"))?;
        initcheck::mark(l, location, nest.body, &dst, offset[0])?;
        racecheck::record(l, location, nest.body, (name, racecheck::Write::Plain), &dst, offset[0])?;
    }
    if op.result_count() > 0 {
        let layout = crate::tile::written_view(&dst.layout, &se)?;
        l.define_written(op, Tensor { layout, name: describe(op, name), ..dst })?;
    }
    Ok(())
}

/// Whether the zero-fill range along `axis` is provably empty: every C0 block is complete
/// (a static extent at a static coordinate that ends on a multiple of C0). Then no fill loop
/// is emitted.
fn statically_aligned(region: &[SymExpr], dst: &Tensor, axis: usize, c0: i64) -> bool {
    match (region.get(axis).and_then(|e| e.as_constant()), dst.coord.get(axis).and_then(|c| c.as_constant())) {
        // Checked: an end that leaves i64 is not "aligned" (the fill loop's own bounds are
        // then computed, checked, by the algebra).
        (Some(n), Some(c)) => c.checked_add(n).is_some_and(|end| end % c0 == 0),
        _ => false,
    }
}

/// The C0 of a conv layout (the last coordinate dim of NC1HWC0; 1, unused, for NCHW/NHWC).
fn conv_c0(t: &Tensor, pattern: FramePattern) -> SymExpr {
    match pattern {
        FramePattern::NC1HWC0 => t.extents().get(4).cloned().unwrap_or(SymExpr::Const(1)),
        _ => SymExpr::Const(1),
    }
}

/// A copy between two different conv layouts (GM → L1 NC1HWC0 ← NCHW / NHWC, docs/layout-spec.md §D.2): a
/// loop nest over the logical `(n, c, h, w)` region — the source's logical extents clipped to
/// the destination's (for NC1HWC0 the padded `c1·c0`) — with both addresses from
/// `conv_coordinate` of the algebra. Padding: the tail of the last incomplete C0 block of
/// every valid pixel, channels `[C, align(C, C0))`, is zero-filled (docs/layout-spec.md §A.7 applied to the
/// channel axis: NHWC → NC1HWC0 is ND2NZ with rows = pixels, cols = channels); further C1
/// blocks of a larger destination are left untouched.
fn conv_copy(
    l: &mut Lowerer,
    op: &OperationRef,
    name: &str,
    (src, sp): (&Tensor, FramePattern),
    (dst, dp): (&Tensor, FramePattern),
) -> Result<(), LoweringError> {
    let supported = !sp.is_matrix() && dp == FramePattern::NC1HWC0;
    if !supported {
        return Err(LoweringError::Unsupported(format!("{name}: the copy {} {sp} -> {} {dp} is not supported by this compiler yet (the CPU lowering converts NCHW/NHWC/NC1HWC0 -> NC1HWC0 only)", src.space.name(), dst.space.name())));
    }
    if !src.coord.iter().chain(&dst.coord).all(|c| c.is_constant(0)) {
        return Err(LoweringError::Unsupported(format!("{name}: a layout conversion {sp} -> {dp} of tiles is not supported by this compiler yet (copy whole tensors)")));
    }
    let conversion = conversion(src, dst, name, None)?;
    let se = conv_logical_extents(sp, &src.extents())
        .map_err(LoweringError::algebra_in(format!("{name}: source {}", src.name)))?;
    let de = conv_logical_extents(dp, &dst.extents())
        .map_err(LoweringError::algebra_in(format!("{name}: destination {}", dst.name)))?;
    let region: Vec<SymExpr> = se.iter().zip(&de).map(|(s, d)| build::min(s, d)).collect::<Result<_, _>>()?;
    let (sc0, dc0) = (conv_c0(src, sp), conv_c0(dst, dp));
    let location = op.location();
    let point = guard::guarded(location, build::Point::before(op), &[src, dst])?;

    let ranges: Vec<(SymExpr, SymExpr)> = region.iter().map(|e| (SymExpr::Const(0), e.clone())).collect();
    let element = ElementOp::prepare(l, location, point, (conversion, false), (src, dst))?;
    let nest = l.nest(location, point, &ranges)?;
    let src_crd = conv_coordinate(sp, &sc0, &nest.ivs).map_err(LoweringError::algebra_in(name))?;
    let dst_crd = conv_coordinate(dp, &dc0, &nest.ivs).map_err(LoweringError::algebra_in(name))?;
    let offsets = l.emit(location, nest.body, &[src.address(&src_crd)?, dst.address(&dst_crd)?])?;
    initcheck::check(l, location, nest.body, name, src, offsets[0], &nest.ivs)?;
    let loaded = build::load(nest.body, location, src.buffer, offsets[0])?;
    l.witness(location, nest.body, build::defining_op(loaded), (src, &src_crd), &format!("load by {name}"))?;
    let value = element.apply(l, location, nest.body, loaded)?;
    let stored = build::store(nest.body, location, value, dst.buffer, &[offsets[1]]);
    l.witness(location, nest.body, stored, (dst, &dst_crd), &format!("store by {name}"))?;
    initcheck::mark(l, location, nest.body, dst, offsets[1])?;
    racecheck::record(l, location, nest.body, (name, racecheck::Write::Plain), dst, offsets[1])?;

    // Zero-fill channels [C, align(C, C0)) of every valid pixel (NCHW/NHWC sources only).
    let channels = &region[1];
    let aligned = matches!((channels.as_constant(), dc0.as_constant()), (Some(c), Some(k)) if k > 0 && c % k == 0);
    if sp != FramePattern::NC1HWC0 && !aligned {
        let end = channels.align_to(&dc0)?;
        let ranges: Vec<(SymExpr, SymExpr)> = region
            .iter()
            .enumerate()
            .map(|(k, e)| if k == 1 { (channels.clone(), end.clone()) } else { (SymExpr::Const(0), e.clone()) })
            .collect();
        let zero = build::constant_text(l.context, location, point, &zero_text(dst.elem))?;
        let nest = l.nest(location, point, &ranges)?;
        let crd = conv_coordinate(dp, &dc0, &nest.ivs).map_err(LoweringError::algebra_in(name))?;
        let offset = l.emit(location, nest.body, &[dst.address(&crd)?])?;
        let stored = build::store(nest.body, location, zero, dst.buffer, &offset);
        l.witness(location, nest.body, stored, (dst, &crd), &format!("zero-fill store by {name}"))?;
        initcheck::mark(l, location, nest.body, dst, offset[0])?;
        racecheck::record(l, location, nest.body, (name, racecheck::Write::Plain), dst, offset[0])?;
    }
    Ok(())
}
