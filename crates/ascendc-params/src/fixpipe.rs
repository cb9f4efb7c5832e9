//! L0C → GM: `Fixpipe<Dst, Src, CFG_ROW_MAJOR>` with `FixpipeParamsV220` (NZ2ND).

use layout_algebra::ascend::{ElementType, FramePattern};
use layout_algebra::IndexValue;

use crate::error::{ParamError, Result};
use crate::field::{CType, Checker, FieldSpec};
use crate::instr::{Access, Derived, Instr, Intrinsic};
use crate::operand::{row_stride_nd, Fractal, Operand};
use crate::target::{Buffer, Target};

/// AscendC `QuantMode_t` values the back end emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuantMode {
    /// f32 → f32, i32 → i32.
    NoQuant,
    /// f32 → half.
    F322F16,
    /// f32 → bfloat16_t.
    F322BF16,
}

impl QuantMode {
    pub fn name(self) -> &'static str {
        match self {
            QuantMode::NoQuant => "NoQuant",
            QuantMode::F322F16 => "F322F16",
            QuantMode::F322BF16 => "F322BF16",
        }
    }
    /// The code of the C ABI (`ASCENDC_MODEL_QUANT_*`).
    pub fn abi_code(self) -> u32 {
        match self {
            QuantMode::NoQuant => 0,
            QuantMode::F322F16 => 1,
            QuantMode::F322BF16 => 2,
        }
    }
}

/// AscendC `FixpipeParamsV220` {nSize `uint16_t`, mSize `uint16_t`, srcStride `uint16_t`,
/// dstStride `uint32_t`, reluEn, quantPre, deqScalar `uint64_t`, ndNum `uint16_t`, srcNdStride
/// `uint16_t`, dstNdStride `uint32_t`, unitFlag `uint8_t`}. NZ2ND: row j < mSize, column
/// c < nSize of the result goes to `dst[j·dstStride + c]` from L0C
/// `(c/16)·srcStride·16 + j·16 + c%16`; `srcStride` in units of 16 L0C elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixpipeParamsV220<V = i64> {
    pub n_size: V,
    pub m_size: V,
    pub src_stride: V,
    pub dst_stride: V,
    pub relu_en: bool,
    pub quant_pre: QuantMode,
    pub deq_scalar: V,
    pub nd_num: V,
    pub src_nd_stride: V,
    pub dst_nd_stride: V,
    pub unit_flag: V,
}

impl<V> FixpipeParamsV220<V> {
    pub fn fields(&self) -> [(&'static str, &V); 9] {
        [
            ("nSize", &self.n_size),
            ("mSize", &self.m_size),
            ("srcStride", &self.src_stride),
            ("dstStride", &self.dst_stride),
            ("deqScalar", &self.deq_scalar),
            ("ndNum", &self.nd_num),
            ("srcNdStride", &self.src_nd_stride),
            ("dstNdStride", &self.dst_nd_stride),
            ("unitFlag", &self.unit_flag),
        ]
    }

    /// nSize ∈ [1, 4095] with NZ2ND, mSize ∈ [1, 65535] (AscendC Fixpipe doc).
    pub fn specs() -> [FieldSpec; 9] {
        use CType::*;
        [
            FieldSpec::ranged("nSize", U16, 1, 4095),
            FieldSpec::ranged("mSize", U16, 1, 65535),
            FieldSpec::full("srcStride", U16),
            FieldSpec::full("dstStride", U32),
            FieldSpec::full("deqScalar", U64),
            FieldSpec::ranged("ndNum", U16, 1, 65535),
            FieldSpec::full("srcNdStride", U16),
            FieldSpec::full("dstNdStride", U32),
            FieldSpec::full("unitFlag", U8),
        ]
    }
}

const FIXPIPE: &str = "Fixpipe(FixpipeParamsV220)";

/// L0C (NZ, 16×16 fractals) → GM ND, `CFG_ROW_MAJOR`. `mSize, nSize` = the destination tile's
/// valid extent (origin, the tail sizes as in catlass); `srcStride = stride(L0C, c_out) /
/// stride(L0C, r_in)` (= `align(M,16)`); `dstStride` = the ND row stride; `quantPre` from the
/// types (f32 → f32 / i32 → i32 `NoQuant`, f32 → f16 `F322F16`, f32 → bf16 `F322BF16`).
/// The source coordinate must be 16-aligned; its address 64-B aligned.
pub fn l0c_to_gm_nd<V: IndexValue>(src: &Operand<V>, dst: &Operand<V>, acc: ElementType, out: ElementType, _target: Target) -> Result<Derived<V>> {
    use ElementType as E;
    let quant = match (acc, out) {
        (E::F32, E::F32) | (E::I32, E::I32) => QuantMode::NoQuant,
        (E::F32, E::F16) => QuantMode::F322F16,
        (E::F32, E::BF16) => QuantMode::F322BF16,
        _ => return Err(ParamError::Unsupported { instr: FIXPIPE, detail: format!("{acc} → {out} (supported: f32→f32, i32→i32, f32→f16, f32→bf16)") }),
    };
    let s = Fractal::of(FIXPIPE, "source (L0C)", src.layout, &[FramePattern::NZ])?;
    if s.c0 != 16 {
        return Err(ParamError::Layout { instr: FIXPIPE, detail: format!("L0C fractals are 16×16, got C0 = {}: {}", s.c0, src.layout) });
    }
    let dst_stride = row_stride_nd(FIXPIPE, "destination (GM)", dst.layout)?;
    let mut ck = Checker::new(FIXPIPE);
    ck.exact_div("src row coordinate", &src.coord[0], 16, "L0C fractal rows")?;
    ck.exact_div("src col coordinate", &src.coord[1], 16, "L0C fractal cols")?;
    let src_stride = ck.exact_div("srcStride", &s.stride[3], s.stride[0].as_constant().unwrap_or(16), "C0_Size (16 elements)")?;
    let specs = FixpipeParamsV220::<V>::specs();
    let zero = V::constant(0);
    let p = FixpipeParamsV220 {
        n_size: ck.field(specs[0], dst.extent(1)?)?,
        m_size: ck.field(specs[1], dst.extent(0)?)?,
        src_stride: ck.field(specs[2], src_stride)?,
        dst_stride: ck.field(specs[3], dst_stride)?,
        relu_en: false,
        quant_pre: quant,
        deq_scalar: ck.field(specs[4], zero.clone())?,
        nd_num: ck.field(specs[5], V::constant(1))?,
        src_nd_stride: ck.field(specs[6], zero.clone())?,
        dst_nd_stride: ck.field(specs[7], zero.clone())?,
        unit_flag: ck.field(specs[8], zero.clone())?,
    };
    let (so, dof) = (src.offset()?, dst.offset()?);
    ck.aligned("src", Buffer::L0C, &src.base_bytes, &so, &zero, i64::from(acc.bits() / 8))?;
    Ok(Derived {
        instrs: vec![Instr {
            intrinsic: Intrinsic::FixpipeNz2Nd(p),
            dst: Access { buffer: Buffer::Gm, offset: dof, step: zero.clone() },
            srcs: vec![Access { buffer: Buffer::L0C, offset: so, step: zero }],
            repeat: V::constant(1),
        }],
        assumptions: ck.assumptions,
    })
}
