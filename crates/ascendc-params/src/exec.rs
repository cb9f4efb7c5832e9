//! Runs derived instructions on byte buffers through the C ABI of the model, with bounds
//! checks (the footprint of every call is computed from its parameters before the call), so a
//! wrong parameter is a typed error here, never an out-of-bounds write.

use std::ffi::c_void;

use layout_algebra::ascend::ElementType;
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

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// Bytes each operand of one call touches from its start: `[dst, srcs...]`.
fn footprints(intr: &Intrinsic<i64>, types: &[ElementType]) -> Vec<i64> {
    let eb = |i: usize| i64::from(types[i].bits() / 8);
    match intr {
        Intrinsic::DataCopyNd2Nz(p) => {
            let (e, c0) = (eb(0), 32 / eb(0));
            if p.nd_num == 0 || p.n_value == 0 || p.d_value == 0 {
                return vec![0, 0];
            }
            let dst = (p.nd_num - 1) * p.dst_nz_matrix_stride
                + (ceil_div(p.d_value, c0) - 1) * p.dst_nz_c0_stride * c0
                + (p.n_value - 1) * p.dst_nz_n_stride * c0
                + c0;
            let src = (p.nd_num - 1) * p.src_nd_matrix_stride + (p.n_value - 1) * p.src_d_value + p.d_value;
            vec![dst * e, src * e]
        }
        Intrinsic::DataCopy(p) => {
            if p.block_count == 0 {
                return vec![0, 0];
            }
            let f = |gap: i64| ((p.block_count - 1) * (p.block_len + gap) + p.block_len) * 32;
            vec![f(p.dst_stride), f(p.src_stride)]
        }
        Intrinsic::LoadData2D(p) => {
            if p.repeat_times == 0 {
                return vec![0, 0];
            }
            vec![
                ((p.repeat_times - 1) * (p.dst_gap + 1) + 1) * 512,
                (p.start_index + (p.repeat_times - 1) * p.src_stride + 1) * 512,
            ]
        }
        Intrinsic::LoadData2DV2(p) => {
            if p.m_step == 0 || p.k_step == 0 {
                return vec![0, 0];
            }
            // with ifTranspose fractal (m, k) goes to m·dstStride + k
            let dst = if p.if_transpose {
                (p.m_step - 1) * p.dst_stride + p.k_step
            } else {
                (p.k_step - 1) * p.dst_stride + p.m_step
            };
            vec![dst * 512, ((p.k_start_position + p.k_step - 1) * p.src_stride + p.m_start_position + p.m_step) * 512]
        }
        Intrinsic::LoadDataWithTranspose(p) => {
            if p.repeat_times == 0 {
                return vec![0, 0];
            }
            // 8-bit: squares of two fractals, two destination fractals per iteration.
            let (square, second) = if eb(0) == 1 { (1024, 1 + p.dst_frac_gap) } else { (512, 0) };
            vec![
                ((p.repeat_times - 1) * (p.dst_gap + 1) + second + 1) * 512,
                (p.start_index + (p.repeat_times - 1) * p.src_stride + 1) * square,
            ]
        }
        Intrinsic::Mmad(p) => {
            let c0 = 32 / eb(1);
            let (m1, k1, n1) = (ceil_div(p.m, 16), ceil_div(p.k, c0), ceil_div(p.n, 16));
            vec![m1 * n1 * 256 * eb(0), m1 * k1 * 16 * c0 * eb(1), k1 * n1 * 16 * c0 * eb(2)]
        }
        Intrinsic::FixpipeNz2Nd(p) => {
            if p.m_size == 0 || p.n_size == 0 {
                return vec![0, 0];
            }
            vec![
                ((p.m_size - 1) * p.dst_stride + p.n_size) * eb(0),
                ((ceil_div(p.n_size, 16) - 1) * p.src_stride * 16 + p.m_size * 16) * eb(1),
            ]
        }
        Intrinsic::FixpipeNz2Nz(p) => {
            if p.m_size == 0 || p.n_size == 0 {
                return vec![0, 0];
            }
            // destination blocks of w columns, 32·dstStride B apart, rows w·sizeof apart
            let w = if p.is_channel_split { 8 } else { 16 };
            vec![
                (ceil_div(p.n_size, w) - 1) * p.dst_stride * 32 + p.m_size * w * eb(0),
                ((ceil_div(p.n_size, 16) - 1) * p.src_stride * 16 + p.m_size * 16) * eb(1),
            ]
        }
    }
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
    let nsrc = if matches!(instr.intrinsic, Intrinsic::Mmad(_)) { 2 } else { 1 };
    if srcs.len() != nsrc || types.len() != nsrc + 1 || instr.srcs.len() != nsrc {
        return Err(ExecError::Arity { function, want: nsrc + 1, want_srcs: nsrc });
    }
    let fp = footprints(&instr.intrinsic, types);
    let arch = target.arch();
    for i in 0..instr.repeat.max(0) {
        let mut starts = Vec::with_capacity(nsrc + 1);
        let accesses = std::iter::once(&instr.dst).chain(instr.srcs.iter());
        let lens = std::iter::once(dst.len()).chain(srcs.iter().map(|s| s.len()));
        for (k, (acc, len)) in accesses.zip(lens).enumerate() {
            let eb = i64::from(types[k].bits() / 8);
            let start = (acc.offset + i * acc.step) * eb;
            let end = start + fp[k];
            if start < 0 || end > len as i64 {
                return Err(ExecError::OutOfBounds { function, operand: k, start, end, len });
            }
            starts.push(start as usize);
        }
        let d = dst[starts[0]..].as_mut_ptr() as *mut c_void;
        let s0 = srcs[0][starts[1]..].as_ptr() as *const c_void;
        let bits = types[0].bits();
        // SAFETY: every pointer has at least its footprint of valid bytes (checked above); the
        // parameter structs are the ABI's repr(C) mirrors.
        let status = unsafe {
            match &instr.intrinsic {
                Intrinsic::DataCopyNd2Nz(p) => ffi::ascendc_model_data_copy_nd2nz(d, s0, bits, &p.to_c()?, arch),
                Intrinsic::DataCopy(p) => ffi::ascendc_model_data_copy(d, s0, &p.to_c()?, arch),
                Intrinsic::LoadData2D(p) => ffi::ascendc_model_load_data_2d(d, s0, bits, &p.to_c()?, arch),
                Intrinsic::LoadData2DV2(p) => ffi::ascendc_model_load_data_2d_v2(d, s0, bits, &p.to_c()?, arch),
                Intrinsic::LoadDataWithTranspose(p) => {
                    ffi::ascendc_model_load_data_with_transpose(d, s0, bits, &p.to_c()?, arch)
                }
                Intrinsic::Mmad(p) => {
                    let s1 = srcs[1][starts[2]..].as_ptr() as *const c_void;
                    ffi::ascendc_model_mmad(d, s0, s1, code(types[1])?, code(types[0])?, &p.to_c()?, arch)
                }
                Intrinsic::FixpipeNz2Nd(p) => {
                    ffi::ascendc_model_fixpipe_nz2nd(d, s0, code(types[0])?, code(types[1])?, &p.to_c()?, arch)
                }
                Intrinsic::FixpipeNz2Nz(p) => {
                    ffi::ascendc_model_fixpipe_nz2nz(d, s0, code(types[0])?, code(types[1])?, &p.to_c()?, arch)
                }
            }
        };
        if status != 0 {
            return Err(ExecError::Model { status, message: ffi::last_error() });
        }
    }
    Ok(())
}
