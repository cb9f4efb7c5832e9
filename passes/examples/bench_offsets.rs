//! Offset-simplification benchmark (issue 5 part 3; not a timed test). Run with
//! `scripts/bench-offsets` (= `cargo run --release -p layout-passes --example bench_offsets`).
//!
//! For a fixed suite of kernels (GM ND ↔ L1 NZ/ZN/ZZ copies, a tail-tile loop, a tiled GEMM; static
//! and dynamic sizes) it counts the div/rem, mul, add/sub and other index ops in the innermost
//! loop bodies of:
//! * (a) our lowering: loops whose addresses are `IndexEmitter` on `crd_to_offset(layout, coord)`
//!   with the induction variables as symbols — exactly what `layout-lower-to-loops` emits (set
//!   [`USE_REAL_LOWERING`] to run the real pass on the kernels that have a layout source) —
//!   then `canonicalize, cse, loop-invariant-code-motion`;
//! * (b) the same with `layout-simplify-offsets` (after a first `canonicalize`): the default
//!   pipeline of `layout-opt` from the lowering on;
//! * (c) the same address formulas as `affine.apply` (floordiv/mod; bounds with `affine.min`)
//!   in `scf.for` loops, through `mlir-opt -affine-expand-index-ops -lower-affine -canonicalize
//!   -int-range-optimizations` and then the same clean-up `cse, loop-invariant-code-motion,
//!   canonicalize`;
//! * (d) the minimum number of div/rem: 0 (every coordinate in these kernels has a known range
//!   or is a loop-invariant dynamic size).
//!
//! It also prints the simplifier's time per root expression and whether any bound was hit.

use std::collections::HashMap;
use std::process::Command;
use std::time::Duration;

use layout_algebra::ascend::{frame_layout, FramePattern};
use layout_algebra::sym::BinOp;
use layout_algebra::{crd_to_offset, SymExpr, Tuple};
use layout_passes::index_arith::IndexEmitter;
use layout_passes::simplify_offsets::{simplify_offsets, Summary};
use melior::{
    dialect::{arith, func, memref, scf},
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        r#type::{FunctionType, MemRefType},
        Block, Location, Module, Region, RegionLike, Type, Value, ValueLike,
    },
    pass::PassManager,
    Context,
};

/// Switch to the real `layout-lower-to-loops` pass for (a) once it is registered (kernels
/// without a layout source keep the emulation, which emits the same formulas).
const USE_REAL_LOWERING: bool = false;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// One loop: `for name = lb to ub step step` (bounds over earlier loops and sizes).
struct Loop {
    name: &'static str,
    lb: SymExpr,
    ub: SymExpr,
    step: i64,
}

/// `dst[dst] = src[src]` per innermost iteration (GEMM: `c[c] += a[a] * b[b]`).
enum Body {
    Copy { src: SymExpr, dst: SymExpr },
    Mac { a: SymExpr, b: SymExpr, c: SymExpr },
}

struct Kernel {
    name: String,
    sizes: Vec<&'static str>,
    loops: Vec<Loop>,
    body: Body,
}

fn s(n: &str) -> SymExpr {
    SymExpr::sym(n)
}
fn c(v: i64) -> SymExpr {
    SymExpr::Const(v)
}
fn bin(op: BinOp, a: &SymExpr, b: &SymExpr) -> SymExpr {
    SymExpr::bin(op, a, b).unwrap_or_else(|_| SymExpr::Const(0))
}

fn offset(p: FramePattern, dims: &[SymExpr], r: SymExpr, col: SymExpr) -> SymExpr {
    let l = frame_layout(p, 16, dims).expect("frame layout");
    let crd = Tuple::Tuple(vec![Tuple::Int(r), Tuple::Int(col)]);
    crd_to_offset(&crd, l.shape(), l.stride()).expect("offset")
}

fn suite() -> Vec<Kernel> {
    let mut out = Vec::new();
    for dynamic in [false, true] {
        let (rows, cols, sizes) = if dynamic { (s("R"), s("C"), vec!["R", "C"]) } else { (c(100), c(100), vec![]) };
        let tag = if dynamic { "dyn" } else { "100x100" };
        let dims = [rows.clone(), cols.clone()];
        let full = |name: &'static str, ub: &SymExpr| Loop { name, lb: c(0), ub: ub.clone(), step: 1 };
        for (pname, p, to_l1) in [("NZ", FramePattern::NZ, true), ("ZN", FramePattern::ZN, true), ("ZZ", FramePattern::ZZ, true), ("NZ", FramePattern::NZ, false)] {
            let nd = offset(FramePattern::ND, &dims, s("i"), s("j"));
            let fr = offset(p, &dims, s("i"), s("j"));
            let (src, dst, name) = if to_l1 { (nd, fr, format!("copy ND->{pname} {tag}")) } else { (fr, nd, format!("copy {pname}->ND {tag}")) };
            out.push(Kernel { name, sizes: sizes.clone(), loops: vec![full("i", &rows), full("j", &cols)], body: Body::Copy { src, dst } });
        }
        // Tail tiles: 32-row tiles of an ND -> NZ copy; the last one is clipped.
        let row = bin(BinOp::Add, &s("t"), &s("i"));
        let rest = bin(BinOp::Sub, &rows, &s("t"));
        out.push(Kernel {
            name: format!("tail tiles ND->NZ {tag}"),
            sizes: sizes.clone(),
            loops: vec![
                Loop { name: "t", lb: c(0), ub: rows.clone(), step: 32 },
                Loop { name: "i", lb: c(0), ub: bin(BinOp::Min, &c(32), &rest), step: 1 },
                full("j", &cols),
            ],
            body: Body::Copy { src: offset(FramePattern::ND, &dims, row.clone(), s("j")), dst: offset(FramePattern::NZ, &dims, row, s("j")) },
        });
        // Tiled GEMM on L1 buffers: A (M x K) NZ, B (K x N) ZN, C (M x N) ND; 16x16 output tiles.
        let (m, n, k) = if dynamic { (s("M"), s("N"), s("K")) } else { (c(100), c(100), c(64)) };
        let gsizes = if dynamic { vec!["M", "N", "K"] } else { vec![] };
        let r = bin(BinOp::Add, &s("mt"), &s("i"));
        let col = bin(BinOp::Add, &s("nt"), &s("j"));
        let clip = |t: &str, e: &SymExpr| bin(BinOp::Min, &c(16), &bin(BinOp::Sub, e, &s(t)));
        out.push(Kernel {
            name: format!("tiled GEMM {}", if dynamic { "dyn" } else { "100x100x64" }),
            sizes: gsizes,
            loops: vec![
                Loop { name: "mt", lb: c(0), ub: m.clone(), step: 16 },
                Loop { name: "nt", lb: c(0), ub: n.clone(), step: 16 },
                full("k", &k),
                Loop { name: "i", lb: c(0), ub: clip("mt", &m), step: 1 },
                Loop { name: "j", lb: c(0), ub: clip("nt", &n), step: 1 },
            ],
            body: Body::Mac {
                a: offset(FramePattern::NZ, &[m.clone(), k.clone()], r.clone(), s("k")),
                b: offset(FramePattern::ZN, &[k.clone(), n.clone()], s("k"), col.clone()),
                c: offset(FramePattern::ND, &[m.clone(), n.clone()], r, col),
            },
        });
    }
    out
}

type Raw = mlir_sys::MlirValue;

fn emit<'c>(ctx: &'c Context, block: &Block<'c>, env: &HashMap<String, Raw>, e: &SymExpr) -> Raw {
    let loc = Location::unknown(ctx);
    let mut em = IndexEmitter::new(ctx, loc, |op| block.append_operation(op));
    for (k, v) in env {
        // Safety: values of the module under construction, alive.
        em.bind(k, unsafe { Value::from_raw(*v) });
    }
    em.emit(e).expect("emit").to_raw()
}

fn fill<'c>(ctx: &'c Context, block: &Block<'c>, k: &Kernel, level: usize, env: &mut HashMap<String, Raw>, bufs: &[Raw]) {
    let loc = Location::unknown(ctx);
    let index = Type::index(ctx);
    let val = |r: Raw| unsafe { Value::from_raw(r) };
    if level == k.loops.len() {
        match &k.body {
            Body::Copy { src, dst } => {
                let (so, d) = (emit(ctx, block, env, src), emit(ctx, block, env, dst));
                let v = block.append_operation(memref::load(val(bufs[0]), &[val(so)], loc));
                let v: Value = v.result(0).expect("load").into();
                block.append_operation(memref::store(v, val(bufs[1]), &[val(d)], loc));
            }
            Body::Mac { a, b, c } => {
                let (ao, bo, co) = (emit(ctx, block, env, a), emit(ctx, block, env, b), emit(ctx, block, env, c));
                let ld = |buf: Raw, o: Raw| -> Raw { block.append_operation(memref::load(val(buf), &[val(o)], loc)).result(0).expect("load").into_raw_value() };
                let (x, y, z) = (ld(bufs[0], ao), ld(bufs[1], bo), ld(bufs[2], co));
                let p = block.append_operation(arith::mulf(val(x), val(y), loc)).result(0).expect("mulf").into_raw_value();
                let q = block.append_operation(arith::addf(val(z), val(p), loc)).result(0).expect("addf").into_raw_value();
                block.append_operation(memref::store(val(q), val(bufs[2]), &[val(co)], loc));
            }
        }
        return;
    }
    let l = &k.loops[level];
    let (lb, ub, st) = (emit(ctx, block, env, &l.lb), emit(ctx, block, env, &l.ub), emit(ctx, block, env, &c(l.step)));
    let body = Block::new(&[(index, loc)]);
    let iv: Value = body.argument(0).expect("iv").into();
    env.insert(l.name.to_string(), iv.to_raw());
    fill(ctx, &body, k, level + 1, env, bufs);
    env.remove(l.name);
    body.append_operation(scf::r#yield(&[], loc));
    let region = Region::new();
    region.append_block(body);
    block.append_operation(scf::r#for(val(lb), val(ub), val(st), region, loc));
}

trait IntoRaw {
    fn into_raw_value(self) -> Raw;
}
impl IntoRaw for melior::ir::operation::OperationResult<'_, '_> {
    fn into_raw_value(self) -> Raw {
        Value::from(self).to_raw()
    }
}

fn nbufs(k: &Kernel) -> usize {
    match k.body {
        Body::Copy { .. } => 2,
        Body::Mac { .. } => 3,
    }
}

/// (a) before clean-up: the emulated lowering.
fn lowered<'c>(ctx: &'c Context, k: &Kernel) -> Module<'c> {
    let loc = Location::unknown(ctx);
    let index = Type::index(ctx);
    let f16 = Type::float16(ctx);
    let mref: Type = MemRefType::new(f16, &[i64::MIN], None, None).into();
    let mut args = vec![(mref, loc); nbufs(k)];
    args.extend(k.sizes.iter().map(|_| (index, loc)));
    let block = Block::new(&args);
    let bufs: Vec<Raw> = (0..nbufs(k)).map(|i| Value::from(block.argument(i).expect("arg")).to_raw()).collect();
    let mut env: HashMap<String, Raw> = HashMap::new();
    for (i, n) in k.sizes.iter().enumerate() {
        env.insert(n.to_string(), Value::from(block.argument(nbufs(k) + i).expect("arg")).to_raw());
    }
    fill(ctx, &block, k, 0, &mut env, &bufs);
    block.append_operation(func::r#return(&[], loc));
    let region = Region::new();
    region.append_block(block);
    let types: Vec<Type> = args.iter().map(|a| a.0).collect();
    let module = Module::new(loc);
    module.body().append_operation(func::func(
        ctx,
        StringAttribute::new(ctx, "kernel"),
        TypeAttribute::new(FunctionType::new(ctx, &types, &[]).into()),
        region,
        &[],
        loc,
    ));
    assert!(module.as_operation().verify(), "invalid kernel {}", k.name);
    module
}

fn run(ctx: &Context, module: &mut Module, passes: &[fn() -> melior::pass::Pass]) {
    let pm = PassManager::new(ctx);
    for p in passes {
        pm.add_pass(p());
    }
    pm.run(module).expect("pipeline");
}

use melior::pass::transform::{create_canonicalizer, create_cse, create_loop_invariant_code_motion};
const CLEANUP: [fn() -> melior::pass::Pass; 3] = [create_canonicalizer, create_cse, create_loop_invariant_code_motion];

#[derive(Default, Clone, Copy)]
struct Counts {
    divrem: usize,
    mul: usize,
    add: usize,
    other: usize,
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}/{}/{}", self.divrem, self.mul, self.add, self.other)
    }
}

/// Index ops directly in the bodies of innermost `scf.for`s.
fn count(module: &Module) -> Counts {
    let mut out = Counts::default();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op.name().as_string_ref().as_str() != Ok("scf.for") {
            return WalkResult::Advance;
        }
        let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { return WalkResult::Advance };
        let mut inner = false;
        let mut cur = body.first_operation();
        let mut local = Counts::default();
        while let Some(o) = cur {
            let name = o.name().as_string_ref().as_str().unwrap_or("").to_string();
            match name.as_str() {
                "scf.for" => inner = true,
                "arith.divsi" | "arith.divui" | "arith.remsi" | "arith.remui" | "arith.floordivsi" | "arith.ceildivsi" | "arith.ceildivui" => local.divrem += 1,
                "arith.muli" => local.mul += 1,
                "arith.addi" | "arith.subi" => local.add += 1,
                "arith.shli" | "arith.shrui" | "arith.shrsi" | "arith.andi" | "arith.ori" | "arith.xori" | "arith.select" | "arith.cmpi" | "arith.minsi" | "arith.maxsi" | "arith.minui" | "arith.maxui" | "arith.constant" => local.other += 1,
                _ => {}
            }
            cur = o.next_in_block();
        }
        if !inner {
            out.divrem += local.divrem;
            out.mul += local.mul;
            out.add += local.add;
            out.other += local.other;
        }
        WalkResult::Advance
    });
    out
}

/// Affine expression text: loop variables are dims, sizes are symbols.
fn affine(e: &SymExpr, dims: &[&str], syms: &[&str]) -> String {
    match e {
        SymExpr::Const(v) => format!("{v}"),
        SymExpr::Sym(n) => {
            if let Some(i) = dims.iter().position(|d| *d == n.as_ref()) {
                format!("d{i}")
            } else {
                format!("s{}", syms.iter().position(|d| *d == n.as_ref()).expect("symbol"))
            }
        }
        SymExpr::Bin(op, a, b) => {
            let (a, b) = (affine(a, dims, syms), affine(b, dims, syms));
            let o = match op {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                BinOp::Mul => "*",
                BinOp::FloorDiv => "floordiv",
                BinOp::FloorMod => "mod",
                BinOp::Min | BinOp::Max => panic!("min/max inside an address"),
            };
            format!("({a} {o} {b})")
        }
    }
}

/// `affine.apply` / `affine.min` of `e` with the operands in scope.
fn affine_value(e: &SymExpr, scope: &[&str], k: &Kernel, out: &mut String, fresh: &mut usize) -> String {
    let syms: Vec<&str> = k.sizes.clone();
    let dims: Vec<&str> = scope.to_vec();
    let (kind, results) = match e {
        SymExpr::Bin(BinOp::Min, a, b) => ("affine.min", format!("{}, {}", affine(a, &dims, &syms), affine(b, &dims, &syms))),
        _ => ("affine.apply", affine(e, &dims, &syms)),
    };
    let d: Vec<String> = (0..dims.len()).map(|i| format!("d{i}")).collect();
    let sy: Vec<String> = (0..syms.len()).map(|i| format!("s{i}")).collect();
    let dv: Vec<String> = dims.iter().map(|n| format!("%{n}")).collect();
    let sv: Vec<String> = syms.iter().map(|n| format!("%{n}")).collect();
    *fresh += 1;
    out.push_str(&format!(
        "%v{fresh} = {kind} affine_map<({})[{}] -> ({results})>({})[{}]\n",
        d.join(", "),
        sy.join(", "),
        dv.join(", "),
        sv.join(", ")
    ));
    format!("%v{fresh}")
}

/// (c): the kernel with affine address formulas, as text.
fn affine_kernel(k: &Kernel) -> String {
    let mut t = String::new();
    let nb = nbufs(k);
    let mut params: Vec<String> = (0..nb).map(|i| format!("%b{i}: memref<?xf16>")).collect();
    params.extend(k.sizes.iter().map(|n| format!("%{n}: index")));
    t.push_str(&format!("func.func @kernel({}) {{\n", params.join(", ")));
    let mut fresh = 0;
    let mut scope: Vec<&str> = Vec::new();
    for l in &k.loops {
        let lb = affine_value(&l.lb, &scope, k, &mut t, &mut fresh);
        let ub = affine_value(&l.ub, &scope, k, &mut t, &mut fresh);
        t.push_str(&format!("%st{fresh} = arith.constant {} : index\nscf.for %{} = {lb} to {ub} step %st{fresh} {{\n", l.step, l.name));
        scope.push(l.name);
    }
    match &k.body {
        Body::Copy { src, dst } => {
            let so = affine_value(src, &scope, k, &mut t, &mut fresh);
            let d = affine_value(dst, &scope, k, &mut t, &mut fresh);
            t.push_str(&format!("%x = memref.load %b0[{so}] : memref<?xf16>\nmemref.store %x, %b1[{d}] : memref<?xf16>\n"));
        }
        Body::Mac { a, b, c } => {
            let (ao, bo, co) = (affine_value(a, &scope, k, &mut t, &mut fresh), affine_value(b, &scope, k, &mut t, &mut fresh), affine_value(c, &scope, k, &mut t, &mut fresh));
            t.push_str(&format!(
                "%x = memref.load %b0[{ao}] : memref<?xf16>\n%y = memref.load %b1[{bo}] : memref<?xf16>\n%z = memref.load %b2[{co}] : memref<?xf16>\n%p = arith.mulf %x, %y : f16\n%q = arith.addf %z, %p : f16\nmemref.store %q, %b2[{co}] : memref<?xf16>\n"
            ));
        }
    }
    for _ in &k.loops {
        t.push_str("}\n");
    }
    t.push_str("return\n}\n");
    t
}

fn upstream(ctx: &Context, k: &Kernel) -> Result<Counts, String> {
    let dir = std::env::temp_dir().join(format!("bench-offsets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join("k.mlir");
    std::fs::write(&file, affine_kernel(k)).map_err(|e| e.to_string())?;
    let out = Command::new(MLIR_OPT)
        .args(["-affine-expand-index-ops", "-lower-affine", "-canonicalize", "-int-range-optimizations", "-cse", "-loop-invariant-code-motion", "-canonicalize"])
        .arg(&file)
        .output()
        .map_err(|e| format!("{MLIR_OPT}: {e}"))?;
    let _ = std::fs::remove_dir_all(&dir);
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let module = layout_dialect::parse_source(ctx, &text).ok_or("cannot parse mlir-opt output")?;
    Ok(count(&module))
}

fn real_lowering_available() -> bool {
    USE_REAL_LOWERING && layout_passes::find("layout-lower-to-loops").is_some()
}

fn main() {
    if real_lowering_available() {
        eprintln!("note: layout-lower-to-loops is registered, but the suite has no layout sources yet; using the emulation");
    }
    let ctx = layout_dialect::create_context().expect("context");
    for d in ["arith", "scf", "memref", "func"] {
        ctx.get_or_load_dialect(d);
    }
    println!("counts are div-rem/mul/add-sub/other index ops in innermost loop bodies (other = shifts, masks, select, cmp, min/max, constants)\n");
    println!("| kernel | (a) lowering | (b) + simplify-offsets | (c) upstream affine | (d) min div/rem | roots | rewritten | time/expr | bound hit |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut total_time = Duration::ZERO;
    let mut total_roots = 0;
    for k in suite() {
        let mut a = lowered(&ctx, &k);
        run(&ctx, &mut a, &CLEANUP);
        let mut b = lowered(&ctx, &k);
        run(&ctx, &mut b, &[create_canonicalizer]);
        let summary: Summary = simplify_offsets(b.as_operation());
        run(&ctx, &mut b, &CLEANUP);
        assert!(b.as_operation().verify(), "{}: invalid after the pass", k.name);
        let c = match upstream(&ctx, &k) {
            Ok(c) => c.to_string(),
            Err(e) => format!("error: {}", e.lines().next().unwrap_or("")),
        };
        let n = summary.roots.len().max(1);
        total_time += summary.simplify_time();
        total_roots += summary.roots.len();
        println!(
            "| {} | {} | {} | {} | 0 | {} | {} | {:.2} ms | {} |",
            k.name,
            count(&a),
            count(&b),
            c,
            summary.roots.len(),
            summary.rewritten(),
            summary.simplify_time().as_secs_f64() * 1e3 / n as f64,
            if summary.bound_hit() { "yes" } else { "no" }
        );
        if std::env::var_os("BENCH_OFFSETS_DUMP").is_some() {
            eprintln!("== {} (b)\n{}", k.name, b.as_operation());
        }
    }
    println!(
        "\nsimplifier: {} root expressions, {:.2} ms in total, {:.3} ms per expression",
        total_roots,
        total_time.as_secs_f64() * 1e3,
        total_time.as_secs_f64() * 1e3 / total_roots.max(1) as f64
    );
}
