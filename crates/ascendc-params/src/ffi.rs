//! The C ABI of the CPU model (`model/ascendc_model_abi.h`), linked from the static library
//! `ascendc_model` that `build.rs` compiles, and the conversion of derived parameters to it.
//!
//! For the JIT: [`c_abi_symbols`] returns `(name, address)` for every function, to hand to
//! MLIR's `mlirExecutionEngineRegisterSymbol` so that LLVM IR calling
//! `ascendc_model_load_data_2d(...)` etc. resolves to this model.

use std::ffi::{c_char, c_void, CStr};

use crate::data_copy::{DataCopyParams, Nd2NzParams};
use crate::error::{ParamError, Result};
use crate::fixpipe::FixpipeParamsV220;
use crate::load_data::{LoadData2DParams, LoadData2DParamsV2, LoadData2dTransposeParams};
use crate::mmad::MmadParams;

/// `ascendc_model_nd2nz_params` (3510 widths).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct CNd2NzParams {
    pub ndNum: u16,
    pub nValue: u16,
    pub dValue: u32,
    pub srcNdMatrixStride: u64,
    pub srcDValue: u64,
    pub dstNzC0Stride: u16,
    pub dstNzNStride: u16,
    pub dstNzMatrixStride: u32,
}

/// `ascendc_model_data_copy_params`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct CDataCopyParams {
    pub blockCount: u16,
    pub blockLen: u16,
    pub srcStride: u16,
    pub dstStride: u16,
}

/// `ascendc_model_load_data_2d_params`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct CLoadData2DParams {
    pub startIndex: u16,
    pub repeatTimes: u8,
    pub srcStride: u16,
    pub sid: u8,
    pub dstGap: u16,
    pub ifTranspose: bool,
    pub addrMode: u8,
}

/// `ascendc_model_load_data_2d_params_v2`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct CLoadData2DParamsV2 {
    pub mStartPosition: u32,
    pub kStartPosition: u32,
    pub mStep: u16,
    pub kStep: u16,
    pub srcStride: i32,
    pub dstStride: u16,
    pub ifTranspose: bool,
    pub sid: u8,
}

/// `ascendc_model_load_data_2d_transpose_params`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct CLoadData2dTransposeParams {
    pub startIndex: u16,
    pub repeatTimes: u8,
    pub srcStride: u16,
    pub dstGap: u16,
    pub dstFracGap: u16,
    pub addrMode: u8,
}

/// `ascendc_model_mmad_params`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct CMmadParams {
    pub m: u16,
    pub n: u16,
    pub k: u16,
    pub isBias: bool,
    pub fmOffset: i32,
    pub enSsparse: bool,
    pub enWinogradA: bool,
    pub enWinogradB: bool,
    pub unitFlag: u8,
    pub kDirectionAlign: bool,
    pub cmatrixSource: bool,
    pub cmatrixInitVal: bool,
}

/// `ascendc_model_fixpipe_params_v220`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct CFixpipeParamsV220 {
    pub nSize: u16,
    pub mSize: u16,
    pub srcStride: u16,
    pub dstStride: u32,
    pub reluEn: bool,
    pub quantPre: u32,
    pub deqScalar: u64,
    pub ndNum: u16,
    pub srcNdStride: u16,
    pub dstNdStride: u32,
    pub unitFlag: u8,
    pub isChannelSplit: bool,
}

/// Element type codes of the C ABI (`ASCENDC_MODEL_F16`, ...).
pub mod dtype_code {
    pub const F16: u32 = 1;
    pub const BF16: u32 = 2;
    pub const F32: u32 = 3;
    pub const I8: u32 = 4;
    pub const I32: u32 = 5;
}

extern "C" {
    pub fn ascendc_model_data_copy_nd2nz(
        dst: *mut c_void,
        src: *const c_void,
        elem_bits: u32,
        p: *const CNd2NzParams,
        target: u32,
    ) -> i32;
    pub fn ascendc_model_data_copy(dst: *mut c_void, src: *const c_void, p: *const CDataCopyParams, target: u32)
        -> i32;
    pub fn ascendc_model_load_data_2d(
        dst: *mut c_void,
        src: *const c_void,
        elem_bits: u32,
        p: *const CLoadData2DParams,
        target: u32,
    ) -> i32;
    pub fn ascendc_model_load_data_2d_v2(
        dst: *mut c_void,
        src: *const c_void,
        elem_bits: u32,
        p: *const CLoadData2DParamsV2,
        target: u32,
    ) -> i32;
    pub fn ascendc_model_load_data_with_transpose(
        dst: *mut c_void,
        src: *const c_void,
        elem_bits: u32,
        p: *const CLoadData2dTransposeParams,
        target: u32,
    ) -> i32;
    pub fn ascendc_model_mmad(
        c: *mut c_void,
        a: *const c_void,
        b: *const c_void,
        ab_dtype: u32,
        c_dtype: u32,
        p: *const CMmadParams,
        target: u32,
    ) -> i32;
    pub fn ascendc_model_fixpipe_nz2nd(
        dst: *mut c_void,
        src: *const c_void,
        dst_dtype: u32,
        src_dtype: u32,
        p: *const CFixpipeParamsV220,
        target: u32,
    ) -> i32;
    pub fn ascendc_model_fixpipe_nz2nz(
        dst: *mut c_void,
        src: *const c_void,
        dst_dtype: u32,
        src_dtype: u32,
        p: *const CFixpipeParamsV220,
        target: u32,
    ) -> i32;
    pub fn ascendc_model_set_flag(src_pipe: u32, dst_pipe: u32, event_id: u32);
    pub fn ascendc_model_wait_flag(src_pipe: u32, dst_pipe: u32, event_id: u32);
    pub fn ascendc_model_pipe_barrier(pipe: u32);
    pub fn ascendc_model_last_error() -> *const c_char;
}

/// Every C ABI function as `(symbol name, address)`, for `mlirExecutionEngineRegisterSymbol`.
pub fn c_abi_symbols() -> Vec<(&'static str, *const c_void)> {
    vec![
        ("ascendc_model_data_copy_nd2nz", ascendc_model_data_copy_nd2nz as *const c_void),
        ("ascendc_model_data_copy", ascendc_model_data_copy as *const c_void),
        ("ascendc_model_load_data_2d", ascendc_model_load_data_2d as *const c_void),
        ("ascendc_model_load_data_2d_v2", ascendc_model_load_data_2d_v2 as *const c_void),
        ("ascendc_model_load_data_with_transpose", ascendc_model_load_data_with_transpose as *const c_void),
        ("ascendc_model_mmad", ascendc_model_mmad as *const c_void),
        ("ascendc_model_fixpipe_nz2nd", ascendc_model_fixpipe_nz2nd as *const c_void),
        ("ascendc_model_fixpipe_nz2nz", ascendc_model_fixpipe_nz2nz as *const c_void),
        ("ascendc_model_set_flag", ascendc_model_set_flag as *const c_void),
        ("ascendc_model_wait_flag", ascendc_model_wait_flag as *const c_void),
        ("ascendc_model_pipe_barrier", ascendc_model_pipe_barrier as *const c_void),
        ("ascendc_model_last_error", ascendc_model_last_error as *const c_void),
    ]
}

/// The model's message for the last non-zero status.
pub fn last_error() -> String {
    // SAFETY: the model returns a pointer to a static NUL-terminated buffer.
    unsafe {
        let p = ascendc_model_last_error();
        if p.is_null() {
            return String::new();
        }
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

fn narrow<T: TryFrom<i64>>(
    instr: &'static str,
    field: &'static str,
    v: i64,
    ctype: &'static str,
    min: i64,
    max: i64,
) -> Result<T> {
    T::try_from(v).map_err(|_| ParamError::FieldOverflow { instr, field, value: v, ctype, min, max })
}

macro_rules! conv {
    ($instr:expr, $field:expr, $v:expr, $t:ty) => {
        narrow::<$t>($instr, $field, *$v, stringify!($t), <$t>::MIN as i64, <$t>::MAX as i64)?
    };
}

impl Nd2NzParams<i64> {
    /// The ABI struct (errors if a value exceeds even the ABI width).
    pub fn to_c(&self) -> Result<CNd2NzParams> {
        const I: &str = "DataCopy(Nd2NzParams)";
        Ok(CNd2NzParams {
            ndNum: conv!(I, "ndNum", &self.nd_num, u16),
            nValue: conv!(I, "nValue", &self.n_value, u16),
            dValue: conv!(I, "dValue", &self.d_value, u32),
            srcNdMatrixStride: conv!(I, "srcNdMatrixStride", &self.src_nd_matrix_stride, u64),
            srcDValue: conv!(I, "srcDValue", &self.src_d_value, u64),
            dstNzC0Stride: conv!(I, "dstNzC0Stride", &self.dst_nz_c0_stride, u16),
            dstNzNStride: conv!(I, "dstNzNStride", &self.dst_nz_n_stride, u16),
            dstNzMatrixStride: conv!(I, "dstNzMatrixStride", &self.dst_nz_matrix_stride, u32),
        })
    }
}

impl DataCopyParams<i64> {
    pub fn to_c(&self) -> Result<CDataCopyParams> {
        const I: &str = "DataCopy(DataCopyParams)";
        Ok(CDataCopyParams {
            blockCount: conv!(I, "blockCount", &self.block_count, u16),
            blockLen: conv!(I, "blockLen", &self.block_len, u16),
            srcStride: conv!(I, "srcStride", &self.src_stride, u16),
            dstStride: conv!(I, "dstStride", &self.dst_stride, u16),
        })
    }
}

impl LoadData2DParams<i64> {
    pub fn to_c(&self) -> Result<CLoadData2DParams> {
        const I: &str = "LoadData(LoadData2DParams)";
        Ok(CLoadData2DParams {
            startIndex: conv!(I, "startIndex", &self.start_index, u16),
            repeatTimes: conv!(I, "repeatTimes", &self.repeat_times, u8),
            srcStride: conv!(I, "srcStride", &self.src_stride, u16),
            sid: conv!(I, "sid", &self.sid, u8),
            dstGap: conv!(I, "dstGap", &self.dst_gap, u16),
            ifTranspose: self.if_transpose,
            addrMode: conv!(I, "addrMode", &self.addr_mode, u8),
        })
    }
}

impl LoadData2DParamsV2<i64> {
    pub fn to_c(&self) -> Result<CLoadData2DParamsV2> {
        const I: &str = "LoadData(LoadData2DParamsV2)";
        Ok(CLoadData2DParamsV2 {
            mStartPosition: conv!(I, "mStartPosition", &self.m_start_position, u32),
            kStartPosition: conv!(I, "kStartPosition", &self.k_start_position, u32),
            mStep: conv!(I, "mStep", &self.m_step, u16),
            kStep: conv!(I, "kStep", &self.k_step, u16),
            srcStride: conv!(I, "srcStride", &self.src_stride, i32),
            dstStride: conv!(I, "dstStride", &self.dst_stride, u16),
            ifTranspose: self.if_transpose,
            sid: conv!(I, "sid", &self.sid, u8),
        })
    }
}

impl LoadData2dTransposeParams<i64> {
    pub fn to_c(&self) -> Result<CLoadData2dTransposeParams> {
        const I: &str = "LoadDataWithTranspose(LoadData2dTransposeParams)";
        Ok(CLoadData2dTransposeParams {
            startIndex: conv!(I, "startIndex", &self.start_index, u16),
            repeatTimes: conv!(I, "repeatTimes", &self.repeat_times, u8),
            srcStride: conv!(I, "srcStride", &self.src_stride, u16),
            dstGap: conv!(I, "dstGap", &self.dst_gap, u16),
            dstFracGap: conv!(I, "dstFracGap", &self.dst_frac_gap, u16),
            addrMode: conv!(I, "addrMode", &self.addr_mode, u8),
        })
    }
}

impl MmadParams<i64> {
    pub fn to_c(&self) -> Result<CMmadParams> {
        const I: &str = "Mmad(MmadParams)";
        Ok(CMmadParams {
            m: conv!(I, "m", &self.m, u16),
            n: conv!(I, "n", &self.n, u16),
            k: conv!(I, "k", &self.k, u16),
            unitFlag: conv!(I, "unitFlag", &self.unit_flag, u8),
            kDirectionAlign: self.k_direction_align,
            cmatrixSource: self.cmatrix_source,
            cmatrixInitVal: self.cmatrix_init_val,
            ..Default::default()
        })
    }
}

impl FixpipeParamsV220<i64> {
    pub fn to_c(&self) -> Result<CFixpipeParamsV220> {
        const I: &str = "Fixpipe(FixpipeParamsV220)";
        Ok(CFixpipeParamsV220 {
            nSize: conv!(I, "nSize", &self.n_size, u16),
            mSize: conv!(I, "mSize", &self.m_size, u16),
            srcStride: conv!(I, "srcStride", &self.src_stride, u16),
            dstStride: conv!(I, "dstStride", &self.dst_stride, u32),
            reluEn: self.relu_en,
            quantPre: self.quant_pre.abi_code(),
            deqScalar: conv!(I, "deqScalar", &self.deq_scalar, u64),
            ndNum: conv!(I, "ndNum", &self.nd_num, u16),
            srcNdStride: conv!(I, "srcNdStride", &self.src_nd_stride, u16),
            dstNdStride: conv!(I, "dstNdStride", &self.dst_nd_stride, u32),
            unitFlag: conv!(I, "unitFlag", &self.unit_flag, u8),
            isChannelSplit: self.is_channel_split,
        })
    }
}
