//! `--emit=ascendc`: a complete AscendC C++ kernel.
//!
//! Shape of the output: `#include "kernel_operator.h"`, then per kernel
//! `extern "C" __global__ __aicore__ void NAME(GM_ADDR arg0, ..., int64_t argK)`; the GM tensors
//! (`GlobalTensor<T>` + `SetGlobalBuffer`); the on-chip buffers
//! (`LocalMemAllocator<Hardware::X>` + `Alloc<TPosition::P, T>`, in placement order, so the
//! allocator's aligned bump allocation gives the byte offsets the lowering chose — written in a
//! comment; a buffer that reuses bytes of an earlier one, placed where that one is dead, gets a
//! fresh allocator, which starts at address 0, and a padding allocation up to its offset); then
//! the body: index arithmetic as `const int64_t`, comparisons as `const bool`, `scf.for` as `for`
//! (`iter_args` as variables declared before it and assigned at the end of the body), `scf.if`
//! as `if`/`else` (results declared before it), each
//! intrinsic as a parameter struct written field by field with a comment per field, and the
//! call; SetFlag/WaitFlag with HardEvent names; layouts as comments in CuTe notation
//! (`shape:stride origin extent`).

use crate::kernel::{ArithOp, Buf, Call, EmitError, Kernel, Located, Param, Stmt, Val};
use ascendc_params::decl::{Source, UnitFlag, When};
use ascendc_params::Target;
use std::fmt::Write as _;

/// C++ element type of an MLIR element type.
pub fn cpp_type(elem: &str) -> Result<&'static str, EmitError> {
    Ok(match elem {
        "f16" => "half",
        "bf16" => "bfloat16_t",
        "f32" => "float",
        "i8" => "int8_t",
        "i32" => "int32_t",
        "i16" => "int16_t",
        "ui8" => "uint8_t",
        other => return Err(EmitError::CppType(other.to_string())),
    })
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

/// The C++ of `a op b` on `int64_t` operands, computing what the `arith` op computes:
/// truncating `/` and `%` for `divsi`/`remsi`, unsigned for `divui`/`remui`/`shrui`, and the
/// floor and ceiling adjustments of `floordivsi`/`ceildivsi`.
fn arith_text(op: ArithOp, a: String, b: String) -> String {
    match op {
        ArithOp::AddI if b == "0" => a,
        ArithOp::AddI => format!("{a} + {b}"),
        ArithOp::SubI => format!("{a} - {b}"),
        ArithOp::MulI => format!("{a} * {b}"),
        ArithOp::DivSI => format!("{a} / {b}"),
        ArithOp::RemSI => format!("{a} % {b}"),
        ArithOp::DivUI => format!("int64_t(uint64_t({a}) / uint64_t({b}))"),
        ArithOp::RemUI => format!("int64_t(uint64_t({a}) % uint64_t({b}))"),
        ArithOp::FloorDivSI => format!("{a} / {b} - ({a} % {b} != 0 && ({a} % {b} < 0) != ({b} < 0))"),
        ArithOp::CeilDivSI => format!("{a} / {b} + ({a} % {b} != 0 && ({a} % {b} < 0) == ({b} < 0))"),
        ArithOp::MinSI => format!("({a} < {b} ? {a} : {b})"),
        ArithOp::MaxSI => format!("({a} > {b} ? {a} : {b})"),
        ArithOp::ShLI => format!("{a} << {b}"),
        ArithOp::ShRUI => format!("int64_t(uint64_t({a}) >> {b})"),
        ArithOp::ShRSI => format!("{a} >> {b}"),
        ArithOp::AndI => format!("{a} & {b}"),
    }
}

struct Printer<'k> {
    k: &'k Kernel,
    target: Target,
    out: String,
    calls: usize,
}

impl Printer<'_> {
    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "    ".repeat(depth));
    }

    /// `name = value;` for each pair, through temporaries so that a value naming another
    /// variable of the list reads its old value (`scf.yield %b, %a`).
    fn assign(&mut self, depth: usize, names: &[String], values: &[Val]) {
        if let ([name], [value]) = (names, values) {
            self.line(depth, &format!("{name} = {};", val(value)));
            return;
        }
        for (n, v) in names.iter().zip(values) {
            self.line(depth, &format!("const int64_t {n}_next = {};", val(v)));
        }
        for n in names {
            self.line(depth, &format!("{n} = {n}_next;"));
        }
    }

    fn stmts(&mut self, stmts: &[Stmt], depth: usize) -> Result<(), Located> {
        for s in stmts {
            match s {
                Stmt::Const { name, value } => self.line(depth, &format!("const int64_t {name} = {value};")),
                Stmt::Arith { name, op, a, b } => {
                    let (a, b) = (val(a), val(b));
                    let e = arith_text(*op, a, b);
                    self.line(depth, &format!("const int64_t {name} = {e};"));
                }
                Stmt::Cmp { name, pred, a, b } => {
                    let op = match pred.name().trim_start_matches(['s', 'u']) {
                        "eq" => "==",
                        "ne" => "!=",
                        "lt" => "<",
                        "le" => "<=",
                        "gt" => ">",
                        _ => ">=",
                    };
                    let (a, b) = if pred.unsigned() {
                        (format!("(uint64_t){}", val(a)), format!("(uint64_t){}", val(b)))
                    } else {
                        (val(a), val(b))
                    };
                    self.line(depth, &format!("const bool {name} = {a} {op} {b};"));
                }
                Stmt::Select { name, cond, a, b } => {
                    self.line(depth, &format!("const int64_t {name} = {} ? {} : {};", val(cond), val(a), val(b)));
                }
                Stmt::For { var, lo, hi, step, iter, body, yields, results } => {
                    for (carried, init) in iter {
                        self.line(depth, &format!("int64_t {carried} = {};", val(init)));
                    }
                    self.line(
                        depth,
                        &format!("for (int64_t {var} = {}; {var} < {}; {var} += {}) {{", val(lo), val(hi), val(step)),
                    );
                    self.stmts(body, depth + 1)?;
                    let carried: Vec<String> = iter.iter().map(|(n, _)| n.clone()).collect();
                    if !carried.is_empty() {
                        self.assign(depth + 1, &carried, yields);
                    }
                    self.line(depth, "}");
                    for (r, c) in results.iter().zip(&carried) {
                        self.line(depth, &format!("const int64_t {r} = {c};"));
                    }
                }
                Stmt::If { cond, results, then_body, then_yields, else_body, else_yields } => {
                    for r in results {
                        self.line(depth, &format!("int64_t {r};"));
                    }
                    self.line(depth, &format!("if ({}) {{", val(cond)));
                    self.stmts(then_body, depth + 1)?;
                    if !results.is_empty() {
                        self.assign(depth + 1, results, then_yields);
                    }
                    if !else_body.is_empty() || !results.is_empty() {
                        self.line(depth, "} else {");
                        self.stmts(else_body, depth + 1)?;
                        if !results.is_empty() {
                            self.assign(depth + 1, results, else_yields);
                        }
                    }
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
                Stmt::Block { name, num } => {
                    let f = if *num { "GetBlockNum" } else { "GetBlockIdx" };
                    self.line(depth, &format!("const int64_t {name} = AscendC::{f}();"));
                }
                Stmt::Atomic { add: Some(elem) } => {
                    let t = cpp_type(elem).map_err(|e| e.at(None))?;
                    self.line(depth, &format!("AscendC::SetAtomicAdd<{t}>();  // the next Fixpipe adds into GM"));
                }
                Stmt::Atomic { add: None } => self.line(depth, "AscendC::SetAtomicNone();"),
                Stmt::Call(c) => self.call(c, depth)?,
            }
        }
        Ok(())
    }

    fn call(&mut self, c: &Call, depth: usize) -> Result<(), Located> {
        let p = format!("p{}", self.calls);
        self.calls += 1;
        let transposed = c.notes.iter().any(|(k, _)| k == "transposed");
        let decl = c.kind.decl();
        let what = decl.summary_transposed.filter(|_| transposed).unwrap_or(decl.summary);
        let struct_name = decl.struct_name(self.target);
        self.line(depth, &format!("// {struct_name} {what}"));
        for (k, v) in &c.notes {
            self.line(depth, &format!("//   {k}: {v}"));
        }
        self.line(depth, &format!("AscendC::{struct_name} {p};"));
        for f in decl.printed_fields(self.target) {
            let value = if let Some(b) = c.bools.get(f.name) {
                b.to_string()
            } else if f.source == Source::Quant {
                format!("AscendC::QuantMode_t::{}", c.quant.clone().unwrap_or_else(|| "NoQuant".into()))
            } else {
                val(&c.field(f.name))
            };
            let holds = |w: &When| match w {
                When::True => c.bools.get(f.name) == Some(&true),
                When::Transposed => transposed,
                When::IfTranspose => c.bools.get("ifTranspose") == Some(&true),
                When::UnitKeep => c.field(f.name) == Val::Const(UnitFlag::Keep.value()),
                When::UnitRelease => c.field(f.name) == Val::Const(UnitFlag::Release.value()),
            };
            // A unitFlag computed at run time: 2, or 3 on the accumulation's last Mmad (not the
            // static default's "0: no unit flag").
            let computed_unit_flag =
                f.variants.iter().any(|(w, _)| *w == When::UnitKeep) && !matches!(c.field(f.name), Val::Const(_));
            let why = if computed_unit_flag {
                "2, or 3 on the accumulation's last Mmad (computed; asc-devkit UnitFlag)"
            } else {
                f.variants.iter().find(|(w, _)| holds(w)).map_or(decl.meaning(f, self.target), |(_, text)| text)
            };
            let comment = if why.is_empty() { String::new() } else { format!("  // {why}") };
            self.line(depth, &format!("{p}.{} = {value};{comment}", decl.member(f, self.target)));
        }
        let repeat = c.field("repeat");
        let looped = repeat != Val::Const(1);
        let r = looped.then_some("r");
        let arg = |i: usize| -> String {
            let b: &Buf = &self.k.bufs[c.bufs[i]];
            format!("{}[{}]", b.name, index(&c.field(&format!("off{i}")), &c.field(&format!("step{i}")), r))
        };
        let args: Vec<String> = (0..c.bufs.len()).map(arg).collect();
        let template = match decl.cpp_config {
            Some(cfg) => {
                let (d, s) = (&self.k.bufs[c.bufs[0]], &self.k.bufs[c.bufs[1]]);
                let at = |e: EmitError| e.at(c.at.clone());
                format!("<{}, {}, AscendC::{cfg}>", cpp_type(&d.elem).map_err(at)?, cpp_type(&s.elem).map_err(at)?)
            }
            None => String::new(),
        };
        let call = format!("AscendC::{}{template}({}, {p});", decl.function, args.join(", "));
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
pub fn kernel(k: &Kernel, target: Target) -> Result<String, Located> {
    let mut p = Printer { k, target, out: String::new(), calls: 0 };
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
        let t = cpp_type(&b.elem).map_err(|e| e.at(b.at.clone()))?;
        let pname = match b.param.and_then(|i| k.params.get(i)) {
            Some(Param::Gm { name, .. }) => name.clone(),
            _ => {
                return Err(
                    EmitError::Malformed(format!("GM tensor {} has no kernel argument", b.name)).at(b.at.clone())
                )
            }
        };
        p.line(1, &format!("AscendC::GlobalTensor<{t}> {};  // {}", b.name, b.layout));
        p.line(1, &format!("{}.SetGlobalBuffer((__gm__ {t}*){pname});", b.name));
    }
    p.line(
        1,
        &format!("// On-chip buffers, placed by layout-lower-to-ascendc (target {}); allocated in", target.name()),
    );
    p.line(1, "// placement order, so the aligned bump allocation yields the byte ranges noted.");
    // Per memory: the allocators declared so far and the bytes the last one has handed out.
    let mut allocators: Vec<(&str, usize, i64)> = Vec::new();
    for b in k.bufs.iter() {
        let Some((pos, offset, size)) = &b.local else { continue };
        b.check_capacity(target)?;
        let at = |e: EmitError| e.at(b.at.clone());
        let t = cpp_type(&b.elem).map_err(at)?;
        let hw = hardware(pos);
        let base = hw.to_lowercase();
        let slot = allocators.iter().position(|(h, _, _)| *h == hw);
        let fresh = match slot {
            Some(i) if allocators[i].2 <= *offset => None,
            Some(i) => Some(allocators[i].1 + 1),
            None => Some(0),
        };
        if let Some(n) = fresh {
            let name = if n == 0 { format!("{base}Allocator") } else { format!("{base}Allocator{n}") };
            if n > 0 {
                p.line(
                    1,
                    &format!(
                        "// {hw} bytes from {offset} reuse those of buffers no longer live: a fresh allocator from 0."
                    ),
                );
            }
            p.line(1, &format!("AscendC::LocalMemAllocator<AscendC::Hardware::{hw}> {name};"));
            match slot {
                Some(i) => allocators[i] = (hw, n, 0),
                None => allocators.push((hw, 0, 0)),
            }
        }
        let i = allocators.iter().position(|(h, _, _)| *h == hw).expect("declared above");
        let name = match allocators[i].1 {
            0 => format!("{base}Allocator"),
            n => format!("{base}Allocator{n}"),
        };
        if allocators[i].2 < *offset {
            // Bytes of buffers not live here: skipped with a padding allocation (the next one is
            // aligned, as the placement was).
            let gap = offset - allocators[i].2;
            p.line(
                1,
                &format!("(void){name}.Alloc<AscendC::TPosition::{pos}, uint8_t>({gap});  // skip to byte {offset}"),
            );
        }
        allocators[i].2 = offset + size;
        let count = (size / elem_bytes(&b.elem).map_err(at)?).max(1);
        p.line(1, &format!("// {hw} bytes [{offset}, {}): {}", offset + size, b.layout));
        p.line(
            1,
            &format!("AscendC::LocalTensor<{t}> {} = {name}.Alloc<AscendC::TPosition::{pos}, {t}>({count});", b.name),
        );
    }
    p.stmts(&k.body, 1)?;
    p.line(0, "}");
    Ok(p.out)
}

pub fn elem_bytes(elem: &str) -> Result<i64, EmitError> {
    Ok(match elem {
        "f16" | "bf16" | "i16" => 2,
        "f32" | "i32" => 4,
        "i8" | "ui8" => 1,
        other => return Err(EmitError::ElemBytes(other.to_string())),
    })
}

/// The whole translation unit.
pub fn translation_unit(kernels: &[Kernel], target: Target) -> Result<String, Located> {
    let (name, product, arch) = (target.name(), target.product(), target.arch());
    let mut out = format!(
        "// Generated by layout-opt --emit=ascendc for target {name} ({product}, arch {arch}).\n// On the host: g++ -std=c++17 -I crates/ascendc-emit/host -I crates/ascendc-params/model -DASCENDC_MODEL_ARCH={arch} ...\n#include \"kernel_operator.h\"\n"
    );
    for k in kernels {
        out.push('\n');
        out.push_str(&kernel(k, target)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{arith_text, ArithOp};
    use std::process::Command;

    /// Every `ArithOp` printed as C++ (the `int64_t` operands of a kernel) computes what
    /// `ArithOp::eval` says the `arith` op computes: compiled with g++ (`-Wall -Werror`, the
    /// C++17 of the kernels) and run on negative, zero and positive operands. The old printer
    /// wrote `floordivsi` as the truncating `/`, which this catches at a = -37, b = 8.
    #[test]
    fn every_arith_op_prints_as_cpp_that_computes_it() {
        let samples: [(i64, i64); 10] = [
            (-37, 8),
            (37, 8),
            (-1, 4),
            (100, 7),
            (-100, 7),
            (5, -3),
            (-5, -3),
            (0, 3),
            (1 << 40, 13),
            (-(1 << 40), 5),
        ];
        // (op, a, b, the value of the arith op). Shift amounts in [0, 20); no left shift of a
        // negative value (undefined in C++17); undefined results (division by zero) left out.
        let mut cases = Vec::new();
        for op in ArithOp::ALL {
            for (a, b) in samples {
                let (a, b) = match op {
                    ArithOp::ShLI => (a.abs(), b.rem_euclid(20)),
                    ArithOp::ShRUI | ArithOp::ShRSI => (a, b.rem_euclid(20)),
                    _ => (a, b),
                };
                if let Some(v) = op.eval(a, b) {
                    cases.push((op, a, b, v));
                }
            }
        }
        let body: String = cases
            .iter()
            .map(|(op, a, b, _)| {
                let e = arith_text(*op, "a".into(), "b".into());
                format!("  {{ const int64_t a = {a}LL; const int64_t b = {b}LL; const int64_t v = {e}; std::printf(\"%lld\\n\", (long long)v); }}\n")
            })
            .collect();
        let dir = std::env::temp_dir().join(format!("ascendc-emit-arith-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = format!("#include <cstdint>\n#include <cstdio>\nint main() {{\n{body}  return 0;\n}}\n");
        std::fs::write(dir.join("arith.cpp"), &src).unwrap();
        let out = Command::new("g++")
            .args(["-std=c++17", "-O1", "-Wall", "-Werror", "arith.cpp", "-o", "arith"])
            .current_dir(&dir)
            .output()
            .expect("g++");
        assert!(out.status.success(), "g++ failed:\n{}\n{src}", String::from_utf8_lossy(&out.stderr));
        let run = Command::new(dir.join("arith")).output().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let got: Vec<i64> = String::from_utf8_lossy(&run.stdout).lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(got.len(), cases.len());
        for ((op, a, b, want), got) in cases.iter().zip(got) {
            assert_eq!(got, *want, "{} {a} {b}: C++ `{}`", op.name(), arith_text(*op, "a".into(), "b".into()));
        }
    }
}
