//! `layout.matmul`: `C[i,j] (+)= Σ_{p<k} ext(A[i,p]) · ext(B[p,j])` over the real sizes from the
//! origins; addresses of A (l0a), B (l0b), C (l0c) from their layouts.

use layout_algebra::{ascend::ElementType, SymExpr};
use melior::{
    dialect::{arith, scf},
    ir::{operation::OperationLike, OperationRef, Type},
};

use super::{build, guard, initcheck, Lowerer, Tensor};
use crate::error::LoweringError;

#[derive(Clone, Copy)]
enum Kind {
    /// f16/bf16 (extended) or f32 operands, f32 accumulator.
    Float { extend: bool },
    /// i8 operands, i32 accumulator.
    Int,
}

pub(super) fn matmul(l: &mut Lowerer, op: &OperationRef, accumulate: bool) -> Result<(), LoweringError> {
    let (a, b, c) = (l.operand(op, 0)?, l.operand(op, 1)?, l.operand(op, 2)?);
    let (ae, be, ce) = (a.extents(), b.extents(), c.extents());
    if ae.len() != 2 || be.len() != 2 || ce.len() != 2 {
        return Err(LoweringError::Contract(format!(
            "layout.matmul: A, B and C need rank-2 origins, got {}, {}, {}",
            a.layout.origin(),
            b.layout.origin(),
            c.layout.origin()
        )));
    }
    use ElementType::*;
    let kind = match (a.elem, b.elem, c.elem) {
        (F16, F16, F32) | (BF16, BF16, F32) => Kind::Float { extend: true },
        (F32, F32, F32) => Kind::Float { extend: false },
        (I8, I8, I32) => Kind::Int,
        (x, y, z) => {
            return Err(LoweringError::Unsupported(format!(
                "layout.matmul: {x} x {y} -> {z} is not supported by the CPU lowering (f16/bf16/f32 -> f32, i8 -> i32)"
            )))
        }
    };
    // The real sizes: never read or write outside any operand's origin.
    let m = build::min(&ae[0], &ce[0])?;
    let n = build::min(&be[1], &ce[1])?;
    let k = build::min(&ae[1], &be[0])?;
    let location = op.location();
    let point = guard::guarded(location, build::Point::before(op), &[&a, &b, &c])?;
    let zero = build::constant_text(
        l.context,
        location,
        point,
        match kind {
            Kind::Float { .. } => "0.0 : f32",
            Kind::Int => "0 : i32",
        },
    )?;
    let bounds = l.emit(location, point, &[SymExpr::Const(0), k, SymExpr::Const(1)])?;
    let nest = l.nest(location, point, &[(SymExpr::Const(0), m.clone()), (SymExpr::Const(0), n.clone())])?;
    let (i, j) = (nest.ivs[0].clone(), nest.ivs[1].clone());
    let c_offset = l.emit(location, nest.body, &[c.address(&[i.clone(), j.clone()])?])?[0];
    let init = if accumulate {
        initcheck::check(l, location, nest.body, "layout.matmul", &c, c_offset, &[i.clone(), j.clone()])?;
        let old = build::load(nest.body, location, c.buffer, c_offset)?;
        let what = "accumulator load by layout.matmul";
        l.witness(location, nest.body, build::defining_op(old), (&c, &[i.clone(), j.clone()]), what)?;
        old
    } else {
        zero
    };

    let (block, p) = build::for_op(l.context, location, nest.body, bounds[0], bounds[1], bounds[2], &[init])?;
    let p_name = format!("k{}", l.fresh());
    l.env.insert(p_name.clone(), p);
    let p = SymExpr::sym(&p_name);
    let body = build::Point::end(block);
    let acc = build::block_arg(block, 1);
    let offsets =
        l.emit(location, body, &[a.address(&[i.clone(), p.clone()])?, b.address(&[p.clone(), j.clone()])?])?;
    initcheck::check(l, location, body, "layout.matmul", &a, offsets[0], &[i.clone(), p.clone()])?;
    initcheck::check(l, location, body, "layout.matmul", &b, offsets[1], &[p.clone(), j.clone()])?;
    let mut x = build::load(body, location, a.buffer, offsets[0])?;
    let mut y = build::load(body, location, b.buffer, offsets[1])?;
    l.witness(location, body, build::defining_op(x), (&a, &[i.clone(), p.clone()]), "A load by layout.matmul")?;
    l.witness(location, body, build::defining_op(y), (&b, &[p.clone(), j.clone()]), "B load by layout.matmul")?;
    // Safety: valid element type.
    let acc_type = unsafe { Type::from_raw(c.elem_type) };
    let sum = match kind {
        Kind::Float { extend } => {
            if extend {
                x = body.value(arith::extf(build::val(x), acc_type, location))?;
                y = body.value(arith::extf(build::val(y), acc_type, location))?;
            }
            let product = body.value(arith::mulf(build::val(x), build::val(y), location))?;
            body.value(arith::addf(build::val(acc), build::val(product), location))?
        }
        Kind::Int => {
            x = body.value(arith::extsi(build::val(x), acc_type, location))?;
            y = body.value(arith::extsi(build::val(y), acc_type, location))?;
            let product = body.value(arith::muli(build::val(x), build::val(y), location))?;
            body.value(arith::addi(build::val(acc), build::val(product), location))?
        }
    };
    body.insert(scf::r#yield(&[build::val(sum)], location));
    let result = build::parent_result(block, 0);
    let stored = build::store(nest.body, location, result, c.buffer, &[c_offset]);
    l.witness(location, nest.body, stored, (&c, &[i.clone(), j.clone()]), "store by layout.matmul")?;
    initcheck::mark(l, location, nest.body, &c, c_offset)?;
    if op.result_count() > 0 {
        let layout = crate::tile::written_view(&c.layout, &[m, n])?;
        l.define_written(op, Tensor { layout, name: super::describe(op, "layout.matmul"), ..c })?;
    }
    Ok(())
}
