//! L0C → GM: `Fixpipe<Dst, Src, CFG_ROW_MAJOR>` (NZ2ND) and `Fixpipe<Dst, Src, CFG_NZ>` (NZ2NZ)
//! with `FixpipeParamsV220`.

use layout_algebra::ascend::{ElementType, FramePattern};
use layout_algebra::IndexValue;

use crate::error::{ParamError, Result};
use crate::field::Checker;
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
    /// i32 → half with the scalar scale `deqScalar`: `half(float(x) · scale)`, saturating.
    DEQF16,
}

impl QuantMode {
    /// Every mode the back ends emit.
    pub const ALL: [QuantMode; 4] = [QuantMode::NoQuant, QuantMode::F322F16, QuantMode::F322BF16, QuantMode::DEQF16];

    /// The mode of an AscendC `QuantMode_t` name (`"DEQF16"`).
    pub fn from_name(name: &str) -> Option<QuantMode> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            QuantMode::NoQuant => "NoQuant",
            QuantMode::F322F16 => "F322F16",
            QuantMode::F322BF16 => "F322BF16",
            QuantMode::DEQF16 => "DEQF16",
        }
    }
    /// The code of the C ABI (`ASCENDC_MODEL_QUANT_*`).
    pub fn abi_code(self) -> u32 {
        match self {
            QuantMode::NoQuant => 0,
            QuantMode::F322F16 => 1,
            QuantMode::F322BF16 => 2,
            QuantMode::DEQF16 => 3,
        }
    }
}

/// What a Fixpipe does to each element besides moving it (`layout.store {relu, scale}`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Epilogue {
    /// `reluEn`: results below zero (after the conversion) become +0.
    pub relu: bool,
    /// The DEQF16 scale (i32 → f16 only); `deqScalar` holds its f32 bits in the low 32 bits.
    pub scale: Option<f32>,
}

impl Epilogue {
    /// No ReLU, no scale.
    pub const NONE: Epilogue = Epilogue { relu: false, scale: None };
}

/// The scale the Fixpipe multiplies by for a given f32 `scale`: its processor format keeps 1
/// sign, 8 exponent and 10 mantissa bits, so the low 13 mantissa bits are dropped (AscendC
/// "Fixpipe" constraints: golden data must clear them; docs/ascendc-derivation.md §12).
pub fn fixpipe_scale(scale: f32) -> f32 {
    f32::from_bits(scale.to_bits() & !0x1fff)
}

/// AscendC `FixpipeParamsV220` {nSize `uint16_t`, mSize `uint16_t`, srcStride `uint16_t`,
/// dstStride `uint32_t`, reluEn, quantPre, deqScalar `uint64_t`, ndNum `uint16_t`, srcNdStride
/// `uint16_t`, dstNdStride `uint32_t`, unitFlag `uint8_t`}. NZ2ND: row j < mSize, column
/// c < nSize of the result goes to `dst[j·dstStride + c]` from L0C
/// `(c/16)·srcStride·16 + j·16 + c%16`; `srcStride` in units of 16 L0C elements.
/// NZ2NZ (`CFG_NZ`): `dstStride` is the distance between destination column blocks in 32 B;
/// `isChannelSplit` (f32 → f32 only) splits every 16-column L0C block into two 8-column
/// (32 B) destination blocks (see [`l0c_to_gm_nz`]).
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
    /// f32 channel split (NZ2NZ with a C0 = 8 f32 destination).
    pub is_channel_split: bool,
}

const FIXPIPE: &str = "Fixpipe(FixpipeParamsV220)";
const FIXPIPE_NZ: &str = "Fixpipe<CFG_NZ>(FixpipeParamsV220)";

/// `quantPre` from (accumulator, output) types and the epilogue's scale (DEQF16 needs one,
/// the other modes take none).
fn quant_mode(instr: &'static str, acc: ElementType, out: ElementType, scale: Option<f32>) -> Result<QuantMode> {
    use ElementType as E;
    Ok(match (acc, out, scale) {
        (E::F32, E::F32, None) | (E::I32, E::I32, None) => QuantMode::NoQuant,
        (E::F32, E::F16, None) => QuantMode::F322F16,
        (E::F32, E::BF16, None) => QuantMode::F322BF16,
        (E::I32, E::F16, Some(_)) => QuantMode::DEQF16,
        _ => {
            let with = scale.map_or(String::new(), |s| format!(" with scale {s}"));
            return Err(ParamError::Unsupported {
                instr,
                detail: format!(
                    "{acc} → {out}{with} (supported: f32→f32, i32→i32, f32→f16, f32→bf16, i32→f16 with a scale)"
                ),
            });
        }
    })
}

/// The L0C source of a Fixpipe: NZ with 16×16 fractals at a 16-aligned coordinate. Returns the
/// `srcStride` field value, `stride(L0C, c_out) / stride(L0C, r_in)` (= `align(M, 16)`).
fn l0c_source<V: IndexValue>(ck: &mut Checker<V>, instr: &'static str, src: &Operand<V>) -> Result<V> {
    let s = Fractal::of(instr, "source (L0C)", src.layout, &[FramePattern::NZ])?;
    if s.c0 != 16 {
        return Err(ParamError::Layout {
            instr,
            detail: format!("L0C fractals are 16×16, got C0 = {}: {}", s.c0, src.layout),
        });
    }
    ck.exact_div("src row coordinate", &src.coord[0], 16, "L0C fractal rows")?;
    ck.exact_div("src col coordinate", &src.coord[1], 16, "L0C fractal cols")?;
    ck.exact_div("srcStride", &s.stride[3], s.stride[0].as_constant().unwrap_or(16), "C0_Size (16 elements)")
}

/// One Fixpipe of one matrix (`ndNum = 1`, no unit flag), with the field checks, the L0C
/// alignment check and the instruction record. `deqScalar` = the f32 bits of the DEQF16 scale
/// (AscendC `SetFixpipePreQuantFlag`: `static_cast<uint64_t>(*reinterpret_cast<int32_t*>(&s))`).
fn single_fixpipe<V: IndexValue>(
    mut ck: Checker<V>,
    (src, dst): (&Operand<V>, &Operand<V>),
    acc: ElementType,
    (n_size, m_size, src_stride, dst_stride): (V, V, V, V),
    (quant, epilogue): (QuantMode, Epilogue),
    is_channel_split: bool,
    intrinsic: fn(FixpipeParamsV220<V>) -> Intrinsic<V>,
) -> Result<Derived<V>> {
    let specs = FixpipeParamsV220::<V>::specs();
    let zero = V::constant(0);
    let p = FixpipeParamsV220 {
        n_size: ck.field(specs[0], n_size)?,
        m_size: ck.field(specs[1], m_size)?,
        src_stride: ck.field(specs[2], src_stride)?,
        dst_stride: ck.field(specs[3], dst_stride)?,
        relu_en: epilogue.relu,
        quant_pre: quant,
        deq_scalar: ck.field(specs[4], V::constant(epilogue.scale.map_or(0, |s| i64::from(s.to_bits()))))?,
        nd_num: ck.field(specs[5], V::constant(1))?,
        src_nd_stride: ck.field(specs[6], zero.clone())?,
        dst_nd_stride: ck.field(specs[7], zero.clone())?,
        unit_flag: ck.field(specs[8], zero.clone())?,
        is_channel_split,
    };
    let (so, dof) = (src.offset()?, dst.offset()?);
    ck.aligned("src", Buffer::L0C, &src.base_bytes, &so, &zero, i64::from(acc.bits() / 8))?;
    Ok(Derived {
        instrs: vec![Instr {
            intrinsic: intrinsic(p),
            dst: Access { buffer: Buffer::Gm, offset: dof, step: zero.clone() },
            srcs: vec![Access { buffer: Buffer::L0C, offset: so, step: zero }],
            repeat: V::constant(1),
        }],
        assumptions: ck.assumptions,
    })
}

/// L0C (NZ, 16×16 fractals) → GM ND, `CFG_ROW_MAJOR`. `mSize, nSize` = the destination tile's
/// valid extent (origin, the tail sizes as in catlass); `srcStride = stride(L0C, c_out) /
/// stride(L0C, r_in)` (= `align(M,16)`); `dstStride` = the ND row stride; `quantPre` from the
/// types (f32 → f32 / i32 → i32 `NoQuant`, f32 → f16 `F322F16`, f32 → bf16 `F322BF16`).
/// The source coordinate must be 16-aligned; its address 64-B aligned.
pub fn l0c_to_gm_nd<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    acc: ElementType,
    out: ElementType,
    target: Target,
) -> Result<Derived<V>> {
    l0c_to_gm_nd_with(src, dst, (acc, out), target, Epilogue::NONE)
}

/// [`l0c_to_gm_nd`] with a Fixpipe [`Epilogue`] (`reluEn`, DEQF16 `deqScalar`).
pub fn l0c_to_gm_nd_with<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    (acc, out): (ElementType, ElementType),
    _target: Target,
    epilogue: Epilogue,
) -> Result<Derived<V>> {
    let quant = quant_mode(FIXPIPE, acc, out, epilogue.scale)?;
    let mut ck = Checker::new(FIXPIPE);
    let src_stride = l0c_source(&mut ck, FIXPIPE, src)?;
    let dst_stride = row_stride_nd(FIXPIPE, "destination (GM)", dst.layout)?;
    let sizes = (dst.extent(1)?, dst.extent(0)?, src_stride, dst_stride);
    single_fixpipe(ck, (src, dst), acc, sizes, (quant, epilogue), false, Intrinsic::FixpipeNz2Nd)
}

/// L0C (NZ, 16×16 fractals) → GM NZ, `CFG_NZ` (NZ2NZ).
///
/// Semantics (CCE intrinsic doc of the L0C→OUT copy, "常规搬运" and "f32 通道切分"; catlass
/// `CopyL0CToGm<AtlasA2, .., GemmType<_, zN>>`): row `j < mSize` of column block `k` goes to
/// `dst + j·W·sizeof(out) + k·dstStride·32 B`, `W` = 16 columns per block, or 8 with
/// `isChannelSplit` (each 16×16 L0C fractal becomes two 16×8 f32 fractals). So the GM NZ
/// destination must have 32-B rows (C0 = 32 / sizeof(out): f16/bf16 C0 = 16, f32 C0 = 8 with
/// channel split), rows contiguous across row blocks (`stride(r_out) = 16·C0`), and
/// `dstStride = stride(dst, c_out) / C0` (units of 32 B, as catlass `stride(3) / (32 /
/// sizeof)`); on arch 3510 (`FixpipeParamsArch3510<CO2Layout::NZ>`) `dstStride` is the same
/// distance in elements, `stride(dst, c_out)`. i32 → i32 with C0 = 8 would need channel split, which the doc gives for f32 only:
/// unsupported.
///
/// `mSize` = the destination's valid rows (rows are exact); `nSize` = the valid columns rounded
/// up to the block width (documented: a multiple of 16, of 8 with channel split): the columns up
/// to the next C0 boundary of the destination — its padding, inside the same 32-B blocks — get
/// the L0C values at the same positions. `srcStride = stride(L0C, c_out) / 16` as for NZ2ND.
/// The source coordinate must be 16-aligned, the destination column coordinate C0-aligned.
pub fn l0c_to_gm_nz<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    acc: ElementType,
    out: ElementType,
    target: Target,
) -> Result<Derived<V>> {
    l0c_to_gm_nz_with(src, dst, (acc, out), target, Epilogue::NONE)
}

/// [`l0c_to_gm_nz`] with a Fixpipe [`Epilogue`] (`reluEn`, DEQF16 `deqScalar`).
pub fn l0c_to_gm_nz_with<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    (acc, out): (ElementType, ElementType),
    target: Target,
    epilogue: Epilogue,
) -> Result<Derived<V>> {
    let quant = quant_mode(FIXPIPE_NZ, acc, out, epilogue.scale)?;
    let mut ck = Checker::new(FIXPIPE_NZ);
    let src_stride = l0c_source(&mut ck, FIXPIPE_NZ, src)?;
    let d = Fractal::of(FIXPIPE_NZ, "destination (GM)", dst.layout, &[FramePattern::NZ])?;
    let out_bytes = i64::from(out.bits() / 8);
    // Checked: C0 is read from the layout and may be any extent; after this test it is <= 32.
    if d.c0.checked_mul(out_bytes) != Some(32) {
        return Err(ParamError::Layout {
            instr: FIXPIPE_NZ,
            detail: format!(
                "destination C0 must be 32 B (C0 = {} for {out}), got C0 = {}: {}",
                32 / out_bytes.max(1),
                d.c0,
                dst.layout
            ),
        });
    }
    let split = d.c0 == 8;
    if split && out != ElementType::F32 {
        return Err(ParamError::Unsupported {
            instr: FIXPIPE_NZ,
            detail: format!("{acc} → {out} NZ with C0 = 8 needs channel split, documented for f32 only"),
        });
    }
    let c0 = V::constant(d.c0);
    ck.equal("dst r_in stride", &d.stride[0], &c0, || {
        format!("destination rows inside a fractal must be C0 = {} apart: {}", d.c0, dst.layout)
    })?;
    ck.equal("dst c_in stride", &d.stride[2], &V::constant(1), || {
        format!("destination columns inside a fractal must be contiguous: {}", dst.layout)
    })?;
    if !d.shape[1].is_constant(1) {
        let want = V::constant(16 * d.c0);
        ck.equal("dst r_out stride", &d.stride[1], &want, || {
            format!("Fixpipe writes rows contiguously: row blocks must be 16·C0 = {} apart: {}", 16 * d.c0, dst.layout)
        })?;
    }
    ck.exact_div("dst col coordinate", &dst.coord[1], d.c0, "destination C0")?;
    // 2201 (`FixpipeParamsV220`) counts 32 B blocks, 3510 (`FixpipeParamsArch3510`) elements
    // (docs/ascendc-derivation.md §9).
    let dst_stride = match target {
        Target::A2 => ck.exact_div("dstStride", &d.stride[3], d.c0, "C0 (32 B)")?,
        Target::A5 => d.stride[3].clone(),
    };
    let sizes = (dst.extent(1)?.align_to(&c0)?, dst.extent(0)?, src_stride, dst_stride);
    single_fixpipe(ck, (src, dst), acc, sizes, (quant, epilogue), split, Intrinsic::FixpipeNz2Nz)
}
