//! `--emit=ascendc`: a complete AscendC C++ kernel.
//!
//! Shape of the output: `#include "kernel_operator.h"`, then per kernel
//! `extern "C" __global__ __aicore__ void NAME(GM_ADDR arg0, ..., int64_t argK)`; the GM tensors
//! (`GlobalTensor<T>` + `SetGlobalBuffer`); the on-chip buffers
//! (`LocalMemAllocator<Hardware::X>` + `Alloc<TPosition::P, T>`, in placement order, so the
//! allocator's aligned bump allocation gives the byte offsets the lowering chose — written in a
//! comment); then the body: index arithmetic as `const int64_t`, `scf.for` as `for`, each
//! intrinsic as a parameter struct written field by field with a comment per field, and the
//! call; SetFlag/WaitFlag with HardEvent names; layouts as comments in CuTe notation
//! (`shape:stride origin extent`).

use crate::kernel::{Arith, Buf, Call, Kernel, Kind, Param, Stmt, Val};
use std::fmt::Write as _;

/// C++ element type of an MLIR element type.
pub fn cpp_type(elem: &str) -> Result<&'static str, String> {
    Ok(match elem {
        "f16" => "half",
        "bf16" => "bfloat16_t",
        "f32" => "float",
        "i8" => "int8_t",
        "i32" => "int32_t",
        "i16" => "int16_t",
        "ui8" => "uint8_t",
        other => return Err(format!("element type {other} has no AscendC C++ type here")),
    })
}

/// What a field means (units and derivation), for the comment next to it.
fn explain(kind: Kind, field: &str) -> &'static str {
    use Kind::*;
    match (kind, field) {
        (DataCopyNd2Nz, "ndNum") => "one ND matrix",
        (DataCopyNd2Nz, "nValue") => "rows to copy: valid extent of the source (origin)",
        (DataCopyNd2Nz, "dValue") => "columns to copy: valid extent of the source (origin)",
        (DataCopyNd2Nz, "srcNdMatrixStride") => "elements between ND matrices (one matrix)",
        (DataCopyNd2Nz, "srcDValue") => "GM row stride in elements: stride of the ND row mode",
        (DataCopyNd2Nz, "dstNzC0Stride") => {
            "stride(dst, c_out) / C0: distance between C0 column blocks, in 32 B (= the L1 tile's padded rows, at least rows rounded up to 16)"
        }
        (DataCopyNd2Nz, "dstNzNStride") => "stride(dst, r_in) / C0: distance between rows, in 32 B",
        (DataCopyNd2Nz, "dstNzMatrixStride") => "elements between NZ matrices (one matrix)",
        (DataCopy, "blockCount") => "ceil(valid cols / C0): one run per C0 column block",
        (DataCopy, "blockLen") => "valid rows: one 32 B block (a row of C0 elements) each; padding rows stay untouched",
        (DataCopy, "srcStride") => "stride(src, c_out)/C0 - blockLen: 32 B blocks skipped between runs in the source",
        (DataCopy, "dstStride") => {
            "stride(dst, c_out)/C0 - blockLen: 32 B blocks skipped between runs in the destination"
        }
        (LoadData2D, "startIndex") => "first source fractal",
        (LoadData2D, "repeatTimes") => "shape(dst, c_out): fractals per call (uint8_t, at most 255)",
        (LoadData2D, "srcStride") => "stride(src, c_out) / fractal: source fractals between repeats, in 512 B",
        (LoadData2D, "sid") => "stream id",
        (LoadData2D, "dstGap") => "stride(dst, c_out) / fractal - 1: destination fractals skipped between repeats",
        (LoadData2D, "addrMode") => "address mode 0 (increasing)",
        (LoadData2DV2, "mStartPosition") => "first fractal along m (source row / 16)",
        (LoadData2DV2, "kStartPosition") => "first fractal along k (source column / C0)",
        (LoadData2DV2, "mStep") => "fractals along m",
        (LoadData2DV2, "kStep") => "fractals along k",
        (LoadData2DV2, "srcStride") => "stride(src, k_out) / fractal, in 512 B",
        (LoadData2DV2, "dstStride") => "stride(dst, k_out) / fractal, in 512 B",
        (LoadData2DV2, "sid") => "stream id",
        (LoadDataWithTranspose, "startIndex") => "first source square (two 16x32 fractals = 32x32, 1024 B)",
        (LoadDataWithTranspose, "repeatTimes") => {
            "squares per call: destination fractals along the 16-element mode / 2 (uint8_t, at most 255)"
        }
        (LoadDataWithTranspose, "srcStride") => {
            "stride(src, other outer mode) / (2 fractals): source squares between repeats"
        }
        (LoadDataWithTranspose, "dstGap") => {
            "2 * stride(dst, other outer mode) / fractal - 1: from one repeat's first fractal to the next"
        }
        (LoadDataWithTranspose, "dstFracGap") => {
            "stride(dst, other outer mode) / fractal - 1: between the two halves of a transposed square"
        }
        (LoadDataWithTranspose, "addrMode") => "address mode 0 (increasing)",
        (Mmad, "m") => "valid rows of A and C (origin, not padded)",
        (Mmad, "n") => "valid columns of B and C (origin; a2 8-bit B padded to whole 32x32 squares: align(n, 32), extra C columns never stored)",
        (Mmad, "k") => "valid reduction extent (origin, not padded)",
        (Mmad, "unitFlag") => "no unit-flag pipelining",
        (FixpipeNz, "nSize") => {
            "columns to store: valid extent of the destination rounded up to its C0 (whole 32 B blocks)"
        }
        (FixpipeNz, "dstStride") => "stride(dst, c_out) / C0: distance between destination column blocks, in 32 B",
        (FixpipeNz, "isChannelSplit") => "f32: split each 16x16 L0C fractal into two 16x8 (C0 = 8) GM fractals",
        (FixpipeNz, f) => explain(Fixpipe, f),
        (Fixpipe, "nSize") => "columns to store: valid extent of the destination (origin)",
        (Fixpipe, "mSize") => "rows to store: valid extent of the destination (origin)",
        (Fixpipe, "srcStride") => "stride(L0C, c_out) / stride(L0C, r_in): rows of a column block, rounded up to 16",
        (Fixpipe, "dstStride") => "GM row stride in elements (NZ2ND)",
        (Fixpipe, "deqScalar") => "no dequantization scale",
        (Fixpipe, "ndNum") => "one matrix",
        (Fixpipe, "srcNdStride") => "(one matrix)",
        (Fixpipe, "dstNdStride") => "(one matrix)",
        (Fixpipe, "unitFlag") => "no unit-flag pipelining",
        (_, "cmatrixSource") => "C comes from L0C",
        (_, "kDirectionAlign") => "no fp32 k alignment",
        (_, "reluEn") => "no ReLU",
        (_, "quantPre") => "conversion of the L0C accumulator to the GM element type",
        _ => "",
    }
}

/// The integer fields of the AscendC struct, in constructor order (bools/enums placed where
/// AscendC has them).
fn struct_fields(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::DataCopyNd2Nz => &[
            "ndNum",
            "nValue",
            "dValue",
            "srcNdMatrixStride",
            "srcDValue",
            "dstNzC0Stride",
            "dstNzNStride",
            "dstNzMatrixStride",
        ],
        Kind::DataCopy => &["blockCount", "blockLen", "srcStride", "dstStride"],
        Kind::LoadData2D => &["startIndex", "repeatTimes", "srcStride", "sid", "dstGap", "ifTranspose", "addrMode"],
        Kind::LoadData2DV2 => {
            &["mStartPosition", "kStartPosition", "mStep", "kStep", "srcStride", "dstStride", "ifTranspose", "sid"]
        }
        Kind::LoadDataWithTranspose => &["startIndex", "repeatTimes", "srcStride", "dstGap", "dstFracGap", "addrMode"],
        Kind::Mmad => &["m", "n", "k", "unitFlag", "cmatrixSource", "cmatrixInitVal", "kDirectionAlign"],
        Kind::Fixpipe => &[
            "nSize",
            "mSize",
            "srcStride",
            "dstStride",
            "reluEn",
            "quantPre",
            "deqScalar",
            "ndNum",
            "srcNdStride",
            "dstNdStride",
            "unitFlag",
        ],
        Kind::FixpipeNz => &[
            "nSize",
            "mSize",
            "srcStride",
            "dstStride",
            "reluEn",
            "quantPre",
            "deqScalar",
            "ndNum",
            "srcNdStride",
            "dstNdStride",
            "unitFlag",
            "isChannelSplit",
        ],
    }
}

pub fn val(v: &Val) -> String {
    match v {
        Val::Const(c) => c.to_string(),
        Val::Var(n) => n.clone(),
    }
}

fn index(base: &Val, step: &Val, r: Option<&str>) -> String {
    match (base, step, r) {
        (b, Val::Const(0), _) | (b, _, None) => val(b),
        (Val::Const(0), s, Some(r)) => format!("{r} * {}", val(s)),
        (b, s, Some(r)) => format!("{} + {r} * {}", val(b), val(s)),
    }
}

struct Printer<'k> {
    k: &'k Kernel,
    out: String,
    calls: usize,
}

impl Printer<'_> {
    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "    ".repeat(depth));
    }

    fn stmts(&mut self, stmts: &[Stmt], depth: usize) -> Result<(), String> {
        for s in stmts {
            match s {
                Stmt::Const { name, value } => self.line(depth, &format!("const int64_t {name} = {value};")),
                Stmt::Arith { name, op, a, b } => {
                    let (a, b) = (val(a), val(b));
                    let e = match op {
                        Arith::Add if b == "0" => a,
                        Arith::Add => format!("{a} + {b}"),
                        Arith::Sub => format!("{a} - {b}"),
                        Arith::Mul => format!("{a} * {b}"),
                        Arith::Div => format!("{a} / {b}"),
                        Arith::Rem => format!("{a} % {b}"),
                        Arith::Min => format!("({a} < {b} ? {a} : {b})"),
                        Arith::Max => format!("({a} > {b} ? {a} : {b})"),
                    };
                    self.line(depth, &format!("const int64_t {name} = {e};"));
                }
                Stmt::For { var, lo, hi, step, body } => {
                    self.line(
                        depth,
                        &format!("for (int64_t {var} = {}; {var} < {}; {var} += {}) {{", val(lo), val(hi), val(step)),
                    );
                    self.stmts(body, depth + 1)?;
                    self.line(depth, "}");
                }
                Stmt::Flag { set, event, id } => {
                    self.line(
                        depth,
                        &format!(
                            "AscendC::{}<AscendC::HardEvent::{event}>(EVENT_ID{id});",
                            if *set { "SetFlag" } else { "WaitFlag" }
                        ),
                    );
                }
                Stmt::Barrier(pipe) => self.line(depth, &format!("AscendC::PipeBarrier<{pipe}>();")),
                Stmt::Call(c) => self.call(c, depth)?,
            }
        }
        Ok(())
    }

    fn call(&mut self, c: &Call, depth: usize) -> Result<(), String> {
        let p = format!("p{}", self.calls);
        self.calls += 1;
        let transposed = c.notes.iter().any(|(k, _)| k == "transposed");
        let what = match c.kind {
            Kind::DataCopyNd2Nz if transposed => "GM DN -> L1 ZN (MTE2)",
            Kind::DataCopyNd2Nz => "GM ND -> L1 NZ (MTE2)",
            Kind::DataCopy => "NZ -> NZ block copy",
            Kind::LoadData2D | Kind::LoadData2DV2 => "L1 -> L0 (MTE1)",
            Kind::LoadDataWithTranspose => "L1 -> L0, 32x32 squares transposed (MTE1)",
            Kind::Mmad => "cube: C = A x B (M)",
            Kind::Fixpipe => "L0C NZ -> GM ND (FIX)",
            Kind::FixpipeNz => "L0C NZ -> GM NZ (FIX)",
        };
        self.line(depth, &format!("// {} {what}", c.kind.struct_name()));
        for (k, v) in &c.notes {
            self.line(depth, &format!("//   {k}: {v}"));
        }
        self.line(depth, &format!("AscendC::{} {p};", c.kind.struct_name()));
        for f in struct_fields(c.kind) {
            let value = if let Some(b) = c.bools.get(*f) {
                b.to_string()
            } else if *f == "quantPre" {
                format!("AscendC::QuantMode_t::{}", c.quant.clone().unwrap_or_else(|| "NoQuant".into()))
            } else {
                val(&c.field(f))
            };
            let transposed = c.notes.iter().any(|(k, _)| k == "transposed");
            let why = match (*f, c.bools.get(*f)) {
                ("ifTranspose", Some(true)) if c.kind == Kind::LoadData2DV2 => {
                    "transpose each 16x16 fractal and the fractal grid: source fractal (m, k) -> destination m * dstStride + k"
                }
                ("dstStride", _) if c.kind == Kind::LoadData2DV2 && c.bools.get("ifTranspose") == Some(&true) => "stride(dst, m_out) / fractal, in 512 B (transposed grid)",
                ("ifTranspose", Some(true)) => "transpose each 16x16 fractal: row-major (NZ) in, column-major (ZN) out",
                ("ifTranspose", _) => "no transpose: both fractals have the same inner order",
                ("cmatrixInitVal", Some(true)) => "C = A x B (overwrite L0C)",
                ("cmatrixInitVal", _) => "C += A x B (accumulate into L0C)",
                ("nValue", _) if transposed => "columns to copy (rows of the transposed view): valid extent (origin)",
                ("dValue", _) if transposed => "rows to copy (columns of the transposed view): valid extent (origin)",
                ("srcDValue", _) if transposed => "GM column stride in elements: stride of the DN column mode",
                ("dstNzC0Stride", _) if transposed => "stride(dst, r_out) / C0: distance between the C0 row blocks of ZN, in 32 B (= columns rounded up to 16)",
                ("dstNzNStride", _) if transposed => "stride(dst, c_in) / C0: distance between columns, in 32 B",
                _ => explain(c.kind, f),
            };
            let comment = if why.is_empty() { String::new() } else { format!("  // {why}") };
            self.line(depth, &format!("{p}.{f} = {value};{comment}"));
        }
        let repeat = c.field("repeat");
        let looped = repeat != Val::Const(1);
        let r = looped.then_some("r");
        let arg = |i: usize| -> String {
            let b: &Buf = &self.k.bufs[c.bufs[i]];
            format!("{}[{}]", b.name, index(&c.field(&format!("off{i}")), &c.field(&format!("step{i}")), r))
        };
        let args: Vec<String> = (0..c.bufs.len()).map(arg).collect();
        let call = match c.kind {
            Kind::DataCopyNd2Nz | Kind::DataCopy => format!("AscendC::DataCopy({}, {}, {p});", args[0], args[1]),
            Kind::LoadData2D | Kind::LoadData2DV2 => format!("AscendC::LoadData({}, {}, {p});", args[0], args[1]),
            Kind::LoadDataWithTranspose => format!("AscendC::LoadDataWithTranspose({}, {}, {p});", args[0], args[1]),
            Kind::Mmad => format!("AscendC::Mmad({}, {}, {}, {p});", args[0], args[1], args[2]),
            Kind::Fixpipe => {
                let (d, s) = (&self.k.bufs[c.bufs[0]], &self.k.bufs[c.bufs[1]]);
                format!(
                    "AscendC::Fixpipe<{}, {}, AscendC::CFG_ROW_MAJOR>({}, {}, {p});",
                    cpp_type(&d.elem)?,
                    cpp_type(&s.elem)?,
                    args[0],
                    args[1]
                )
            }
            Kind::FixpipeNz => {
                let (d, s) = (&self.k.bufs[c.bufs[0]], &self.k.bufs[c.bufs[1]]);
                format!(
                    "AscendC::Fixpipe<{}, {}, AscendC::CFG_NZ>({}, {}, {p});",
                    cpp_type(&d.elem)?,
                    cpp_type(&s.elem)?,
                    args[0],
                    args[1]
                )
            }
        };
        if looped {
            self.line(
                depth,
                &format!("for (int64_t r = 0; r < {}; ++r) {{  // one call per row of fractals", val(&repeat)),
            );
            self.line(depth + 1, &call);
            self.line(depth, "}");
        } else {
            self.line(depth, &call);
        }
        Ok(())
    }
}

fn hardware(position: &str) -> &'static str {
    match position {
        "A1" | "B1" => "L1",
        "A2" => "L0A",
        "B2" => "L0B",
        _ => "L0C",
    }
}

/// Prints one kernel.
pub fn kernel(k: &Kernel, target: &str) -> Result<String, String> {
    let mut p = Printer { k, out: String::new(), calls: 0 };
    let params: Vec<String> = k
        .params
        .iter()
        .map(|p| match p {
            Param::Gm { name, .. } => format!("GM_ADDR {name}"),
            Param::Index { name } => format!("int64_t {name}"),
        })
        .collect();
    p.line(0, &format!("extern \"C\" __global__ __aicore__ void {}({})", k.name, params.join(", ")));
    p.line(0, "{");
    p.line(1, "AscendC::InitSocState();");
    p.line(1, "// GM tensors (layouts in CuTe notation: shape:stride, origin = valid extent)");
    for b in k.bufs.iter().filter(|b| b.local.is_none()) {
        let t = cpp_type(&b.elem)?;
        let pname = match b.param.and_then(|i| k.params.get(i)) {
            Some(Param::Gm { name, .. }) => name.clone(),
            _ => return Err(format!("GM tensor {} has no kernel argument", b.name)),
        };
        p.line(1, &format!("AscendC::GlobalTensor<{t}> {};  // {}", b.name, b.layout));
        p.line(1, &format!("{}.SetGlobalBuffer((__gm__ {t}*){pname});", b.name));
    }
    p.line(1, &format!("// On-chip buffers, placed by layout-lower-to-ascendc (target {target}); allocated in"));
    p.line(1, "// placement order, so the aligned bump allocation yields the byte ranges noted.");
    let mut allocators: Vec<&str> = Vec::new();
    for b in k.bufs.iter() {
        let Some((pos, _, _)) = &b.local else { continue };
        let hw = hardware(pos);
        if !allocators.contains(&hw) {
            allocators.push(hw);
            p.line(1, &format!("AscendC::LocalMemAllocator<AscendC::Hardware::{hw}> {}Allocator;", hw.to_lowercase()));
        }
    }
    for b in k.bufs.iter() {
        let Some((pos, offset, size)) = &b.local else { continue };
        let t = cpp_type(&b.elem)?;
        let hw = hardware(pos);
        let bytes = (size / elem_bytes(&b.elem)?).max(1);
        p.line(1, &format!("// {hw} bytes [{offset}, {}): {}", offset + size, b.layout));
        p.line(
            1,
            &format!(
                "AscendC::LocalTensor<{t}> {} = {}Allocator.Alloc<AscendC::TPosition::{pos}, {t}>({bytes});",
                b.name,
                hw.to_lowercase()
            ),
        );
    }
    p.stmts(&k.body, 1)?;
    p.line(0, "}");
    Ok(p.out)
}

pub fn elem_bytes(elem: &str) -> Result<i64, String> {
    Ok(match elem {
        "f16" | "bf16" | "i16" => 2,
        "f32" | "i32" => 4,
        "i8" | "ui8" => 1,
        other => return Err(format!("element type {other} is not supported")),
    })
}

/// The whole translation unit.
pub fn translation_unit(kernels: &[Kernel], target: &str) -> Result<String, String> {
    let arch = match target {
        "a5" => "Ascend 950, arch 3510",
        _ => "Atlas A2/A3, arch 2201",
    };
    let mut out = format!(
        "// Generated by layout-opt --emit=ascendc for target {target} ({arch}).\n// On the host: g++ -std=c++17 -I crates/ascendc-emit/host -I crates/ascendc-params/model -DASCENDC_MODEL_ARCH={} ...\n#include \"kernel_operator.h\"\n",
        if target == "a5" { 3510 } else { 2201 }
    );
    for k in kernels {
        out.push('\n');
        out.push_str(&kernel(k, target)?);
    }
    Ok(out)
}
