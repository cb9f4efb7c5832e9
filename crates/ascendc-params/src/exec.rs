//! Runs derived instructions on byte buffers through the C ABI of the model, with bounds
//! checks (the footprint of every call is computed from its parameters before the call), so a
//! wrong parameter is a typed error here, never an out-of-bounds write.

use std::ffi::c_void;

use layout_algebra::{ascend::ElementType, AlgebraError, IndexValue};
use thiserror::Error;

use crate::error::ParamError;
use crate::ffi;
use crate::instr::{Instr, Intrinsic};
use crate::target::Target;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExecError {
    #[error("{function}: operand {operand} needs bytes [{start}, {end}) but its buffer has {len}")]
    OutOfBounds { function: &'static str, operand: usize, start: i64, end: i64, len: usize },
    #[error("{function}: expected {want} element types and {want_srcs} sources")]
    Arity { function: &'static str, want: usize, want_srcs: usize },
    #[error("model status {status}: {message}")]
    Model { status: i32, message: String },
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A footprint or start address leaves `i64` (checked arithmetic).
    #[error("footprint arithmetic: {0}")]
    Arithmetic(#[from] AlgebraError),
    #[error("{0} has no code in the model's C ABI")]
    Type(ElementType),
}

fn code(t: ElementType) -> Result<u32, ExecError> {
    use ElementType as E;
    Ok(match t {
        E::F16 => ffi::dtype_code::F16,
        E::BF16 => ffi::dtype_code::BF16,
        E::F32 => ffi::dtype_code::F32,
        E::I8 => ffi::dtype_code::I8,
        E::I32 => ffi::dtype_code::I32,
        other => return Err(ExecError::Type(other)),
    })
}

/// The scalar arguments of a C ABI call (`AbiArg::ElemBits`, `Dtype`, `Target`), read from the
/// call's element types `[dst, srcs...]` and target, and its sources in call order.
pub(crate) struct AbiScalars<'a> {
    function: &'static str,
    types: &'a [ElementType],
    arch: u32,
}

impl AbiScalars<'_> {
    fn ty(&self, i: usize) -> Result<ElementType, ExecError> {
        let n = self.types.len();
        self.types.get(i).copied().ok_or(ExecError::Arity {
            function: self.function,
            want: n.max(i + 1),
            want_srcs: n - 1,
        })
    }

    pub(crate) fn elem_bits(&self, i: usize) -> Result<u32, ExecError> {
        Ok(self.ty(i)?.bits())
    }

    pub(crate) fn dtype(&self, i: usize) -> Result<u32, ExecError> {
        code(self.ty(i)?)
    }

    pub(crate) fn arch(&self) -> u32 {
        self.arch
    }

    /// The next source pointer of the call.
    pub(crate) fn source(&self, srcs: &mut impl Iterator<Item = *const c_void>) -> Result<*const c_void, ExecError> {
        let n = self.types.len();
        srcs.next().ok_or(ExecError::Arity { function: self.function, want: n, want_srcs: n - 1 })
    }
}

/// Bytes each operand of one call touches from its start: `[dst, srcs...]`. Checked
/// arithmetic (the algebra's `i64` domain): a parameter whose footprint leaves `i64` is an
/// error, never a wrapped length that would pass the bounds check.
fn footprints(intr: &Intrinsic<i64>, types: &[ElementType], target: Target) -> Result<Vec<i64>, ExecError> {
    let eb = |i: usize| i64::from(types[i].bits() / 8);
    // `(n - 1) * step`, the offset of the last of `n` blocks.
    let last = |n: i64, step: i64| n.sub(&1)?.mul(&step);
    let sum = |terms: &[i64]| terms.iter().try_fold(0i64, |acc, t| acc.add(t));
    Ok(match intr {
        Intrinsic::DataCopyNd2Nz(p) => {
            let (e, c0) = (eb(0), 32 / eb(0));
            if p.nd_num == 0 || p.n_value == 0 || p.d_value == 0 {
                return Ok(vec![0, 0]);
            }
            let dst = sum(&[
                last(p.nd_num, p.dst_nz_matrix_stride)?,
                last(p.d_value.ceil_div(&c0)?, p.dst_nz_c0_stride)?.mul(&c0)?,
                last(p.n_value, p.dst_nz_n_stride)?.mul(&c0)?,
                c0,
            ])?;
            let src = sum(&[last(p.nd_num, p.src_nd_matrix_stride)?, last(p.n_value, p.src_d_value)?, p.d_value])?;
            vec![dst.mul(&e)?, src.mul(&e)?]
        }
        Intrinsic::DataCopy(p) => {
            if p.block_count == 0 {
                return Ok(vec![0, 0]);
            }
            let f = |gap: i64| last(p.block_count, p.block_len.add(&gap)?)?.add(&p.block_len)?.mul(&32);
            vec![f(p.dst_stride)?, f(p.src_stride)?]
        }
        Intrinsic::LoadData2D(p) => {
            if p.repeat_times == 0 {
                return Ok(vec![0, 0]);
            }
            vec![
                last(p.repeat_times, p.dst_gap.add(&1)?)?.add(&1)?.mul(&512)?,
                sum(&[p.start_index, last(p.repeat_times, p.src_stride)?, 1])?.mul(&512)?,
            ]
        }
        Intrinsic::LoadData2DV2(p) => {
            if p.m_step == 0 || p.k_step == 0 {
                return Ok(vec![0, 0]);
            }
            // with ifTranspose fractal (m, k) goes to m·dstStride + k
            let dst = if p.if_transpose {
                last(p.m_step, p.dst_stride)?.add(&p.k_step)?
            } else {
                last(p.k_step, p.dst_stride)?.add(&p.m_step)?
            };
            let src_rows = p.k_start_position.add(&p.k_step)?;
            let src = sum(&[last(src_rows, p.src_stride)?, p.m_start_position, p.m_step])?;
            vec![dst.mul(&512)?, src.mul(&512)?]
        }
        Intrinsic::LoadDataWithTranspose(p) => {
            if p.repeat_times == 0 {
                return Ok(vec![0, 0]);
            }
            // 8- and 32-bit: squares of two fractals, two destination fractals per iteration;
            // 16-bit: one fractal.
            let (square, second) = if eb(0) != 2 { (1024, p.dst_frac_gap.add(&1)?) } else { (512, 0) };
            vec![
                sum(&[last(p.repeat_times, p.dst_gap.add(&1)?)?, second, 1])?.mul(&512)?,
                sum(&[p.start_index, last(p.repeat_times, p.src_stride)?, 1])?.mul(&square)?,
            ]
        }
        Intrinsic::Mmad(p) => {
            let c0 = 32 / eb(1);
            let (m1, k1, n1) = (p.m.ceil_div(&16)?, p.k.ceil_div(&c0)?, p.n.ceil_div(&16)?);
            let fractal = 16 * c0; // elements of one 16 x C0 fractal (C0 <= 32)
            vec![
                m1.mul(&n1)?.mul(&256)?.mul(&eb(0))?,
                m1.mul(&k1)?.mul(&fractal)?.mul(&eb(1))?,
                k1.mul(&n1)?.mul(&fractal)?.mul(&eb(2))?,
            ]
        }
        Intrinsic::FixpipeNz2Nd(p) => {
            if p.m_size == 0 || p.n_size == 0 {
                return Ok(vec![0, 0]);
            }
            vec![
                last(p.m_size, p.dst_stride)?.add(&p.n_size)?.mul(&eb(0))?,
                last(p.n_size.ceil_div(&16)?, p.src_stride.mul(&16)?)?.add(&p.m_size.mul(&16)?)?.mul(&eb(1))?,
            ]
        }
        Intrinsic::FixpipeNz2Nz(p) => {
            if p.m_size == 0 || p.n_size == 0 {
                return Ok(vec![0, 0]);
            }
            // destination blocks of w columns, dstStride·U B apart (U = 32 B on a2, the
            // element size on a5), rows w·sizeof apart
            let w = if p.is_channel_split { 8 } else { 16 };
            let unit = if target == Target::A2 { 32 } else { eb(0) };
            vec![
                last(p.n_size.ceil_div(&w)?, p.dst_stride.mul(&unit)?)?.add(&p.m_size.mul(&w)?.mul(&eb(0))?)?,
                last(p.n_size.ceil_div(&16)?, p.src_stride.mul(&16)?)?.add(&p.m_size.mul(&16)?)?.mul(&eb(1))?,
            ]
        }
    })
}

/// Runs `instr` (all loop iterations) with `dst` and `srcs` as the operand tensors' memory
/// (offset 0 = the operand layout's offset 0). `types` = element types `[dst, srcs...]`:
/// copies `[T, T]`, Mmad `[acc, ab, ab]`, Fixpipe `[out, acc]`.
pub fn execute(
    instr: &Instr<i64>,
    dst: &mut [u8],
    srcs: &[&[u8]],
    types: &[ElementType],
    target: Target,
) -> Result<(), ExecError> {
    let function = instr.intrinsic.function();
    let nsrc = instr.intrinsic.decl().source_count();
    if srcs.len() != nsrc || types.len() != nsrc + 1 || instr.srcs.len() != nsrc {
        return Err(ExecError::Arity { function, want: nsrc + 1, want_srcs: nsrc });
    }
    let fp = footprints(&instr.intrinsic, types, target)?;
    let scalars = AbiScalars { function, types, arch: target.arch() };
    for i in 0..instr.repeat.max(0) {
        let mut starts = Vec::with_capacity(nsrc + 1);
        let accesses = std::iter::once(&instr.dst).chain(instr.srcs.iter());
        let lens = std::iter::once(dst.len()).chain(srcs.iter().map(|s| s.len()));
        for (k, (acc, len)) in accesses.zip(lens).enumerate() {
            let eb = i64::from(types[k].bits() / 8);
            let start = i.mul(&acc.step)?.add(&acc.offset)?.mul(&eb)?;
            let end = start.add(&fp[k])?;
            if start < 0 || end > len as i64 {
                return Err(ExecError::OutOfBounds { function, operand: k, start, end, len });
            }
            starts.push(start as usize);
        }
        let d = dst[starts[0]..].as_mut_ptr() as *mut c_void;
        let s: Vec<*const c_void> =
            srcs.iter().zip(&starts[1..]).map(|(s, &at)| s[at..].as_ptr() as *const c_void).collect();
        // SAFETY: every pointer has at least its footprint of valid bytes (checked above).
        let status = unsafe { instr.intrinsic.call_model(d, &s, &scalars)? };
        if status != 0 {
            return Err(ExecError::Model { status, message: ffi::last_error() });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data_copy::DataCopyParams;
    use crate::instr::Access;
    use crate::target::Buffer;

    fn copy(p: DataCopyParams<i64>, offset: i64) -> Instr<i64> {
        let access = |buffer| Access { buffer, offset, step: 0 };
        Instr { intrinsic: Intrinsic::DataCopy(p), dst: access(Buffer::L1), srcs: vec![access(Buffer::Gm)], repeat: 1 }
    }

    /// A footprint that wrapped could pass the bounds check and let the model write out of
    /// bounds; it is an arithmetic error instead.
    #[test]
    fn footprints_that_leave_i64_are_errors() {
        let (mut dst, src) = (vec![0u8; 64], vec![0u8; 64]);
        let types = [ElementType::F16, ElementType::F16];
        // (2^58 - 1) * (2^5 + 0) + 1 blocks of 32 B: about 2^68 bytes.
        let huge = DataCopyParams { block_count: 1 << 58, block_len: 32, src_stride: 0, dst_stride: 0 };
        let r = execute(&copy(huge, 0), &mut dst, &[&src], &types, Target::A2);
        assert!(matches!(r, Err(ExecError::Arithmetic(AlgebraError::Overflow { .. }))), "{r:?}");
        // A start address whose bytes leave i64.
        let one = DataCopyParams { block_count: 1, block_len: 1, src_stride: 0, dst_stride: 0 };
        let r = execute(&copy(one.clone(), i64::MAX / 2 + 1), &mut dst, &[&src], &types, Target::A2);
        assert!(matches!(r, Err(ExecError::Arithmetic(_))), "{r:?}");
        // In range: one 32 B block fits the 64 B buffers.
        assert_eq!(execute(&copy(one, 0), &mut dst, &[&src], &types, Target::A2), Ok(()));
    }
}
