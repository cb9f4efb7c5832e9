//! Offset-simplification benchmark (not a timed test). Run with `scripts/bench-offsets`
//! (= `cargo run --release -p layout-passes --example bench_offsets`).
//!
//! Counts the div/rem, mul, add/sub and other index ops in the innermost loop bodies of a suite
//! of layout-dialect kernels (copies between GM ND and L1/L0A fractal layouts, a tail-tile copy,
//! `examples/tiled_gemm.mlir`; dynamic and static sizes) after (a) the lowering and clean-up
//! without `layout-simplify-offsets`, (b) with [`POST_LOWERING`], (c) upstream affine
//! simplification of the same expressions (`mlir-opt`), (e) (b) with `layout-strength-reduce`,
//! against (d) the minimum (one add per address stream); and the
//! simplifier's time per root expression. The method in full: docs/index-simplification.md §12.

use std::collections::HashSet;
use std::process::Command;
use std::time::Duration;

use layout_passes::ir::{constant_int, defining_op, op_name};
use layout_passes::simplify_offsets::{add_post_lowering, simplify_offsets, Summary, POST_LOWERING};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, OperationMutLike, WalkOrder, WalkResult},
        Attribute, BlockRef, Identifier, Module, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
    },
    pass::{transform::create_canonicalizer, PassManager},
    Context,
};
use mlir_sys::MlirValue;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";
const UPSTREAM: [&str; 7] = [
    "-affine-expand-index-ops",
    "-lower-affine",
    "-canonicalize",
    "-int-range-optimizations",
    "-cse",
    "-loop-invariant-code-motion",
    "-canonicalize",
];

/// Why one benchmark step failed (the row of the kernel says it and the run exits with 1).
#[derive(Debug, thiserror::Error)]
enum BenchError {
    /// Text that should be MLIR does not parse (`what`: a kernel's source, mlir-opt's output).
    #[error("{what} does not parse")]
    Parse { what: String },
    /// The module does not have the shape the step expects (a missing op, operand or result).
    #[error("{0}")]
    Ir(String),
    /// A pass pipeline failed.
    #[error("{stage}: {message}")]
    Pass { stage: &'static str, message: String },
    /// A module does not verify after `stage`.
    #[error("invalid after {stage}")]
    Invalid { stage: &'static str },
    /// Writing the affine kernel for mlir-opt failed.
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    /// mlir-opt could not be run or rejected the kernel (its first stderr line).
    #[error("{MLIR_OPT}: {0}")]
    MlirOpt(String),
}

/// An MLIR error value as an [`BenchError::Ir`].
fn ir(e: impl std::fmt::Display) -> BenchError {
    BenchError::Ir(e.to_string())
}

/// One benchmark kernel: layout-dialect source, and the constants that replace its size
/// arguments (argument number, value) in the static variant.
struct Kernel {
    name: String,
    source: String,
    statics: Vec<(usize, i64)>,
}

fn tensor(space: &str, pattern: &str) -> String {
    format!("!layout.tensor<f16, \"{space}\", \"{pattern}\", \"(?,?)\">")
}

/// `dst = src` for an R x C f16 matrix; both buffers are views (so the copy is observable).
fn copy_source(src: (&str, &str), dst: (&str, &str)) -> String {
    let (st, dt) = (tensor(src.0, src.1), tensor(dst.0, dst.1));
    let op = if dst.0 == "gm" { "layout.store" } else { "layout.load" };
    format!(
        r#"module attributes {{layout.target = #layout.target<"a2">}} {{
  func.func @kernel(%s: memref<?xf16>, %d: memref<?xf16>, %R: index, %C: index) {{
    %a = "layout.view"(%s, %R, %C) : (memref<?xf16>, index, index) -> {st}
    %b = "layout.view"(%d, %R, %C) : (memref<?xf16>, index, index) -> {dt}
    "{op}"(%a, %b) : ({st}, {dt}) -> ()
    return
  }}
}}"#
    )
}

/// GM ND -> L1 NZ in 32 x 32 tiles: the last row and column of tiles are clipped.
fn tail_source() -> String {
    let (g, l) = (tensor("gm", "ND"), tensor("l1", "NZ"));
    let (gt, lt) = (
        "!layout.tensor<f16, \"gm\", \"(?,?):(?,?)\", \"(?,?)\">",
        "!layout.tensor<f16, \"l1\", \"((?,?),(?,?)):((?,?),(?,?))\", \"(?,?)\">",
    );
    format!(
        r#"module attributes {{layout.target = #layout.target<"a2">}} {{
  func.func @kernel(%s: memref<?xf16>, %d: memref<?xf16>, %R: index, %C: index) {{
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %a = "layout.view"(%s, %R, %C) : (memref<?xf16>, index, index) -> {g}
    %b = "layout.view"(%d, %R, %C) : (memref<?xf16>, index, index) -> {l}
    scf.for %t = %c0 to %R step %c32 {{
      scf.for %u = %c0 to %C step %c32 {{
        %ta = "layout.tile"(%a, %t, %u) {{shape = array<i64: 32, 32>}} : ({g}, index, index) -> {gt}
        %tb = "layout.tile"(%b, %t, %u) {{shape = array<i64: 32, 32>}} : ({l}, index, index) -> {lt}
        "layout.load"(%ta, %tb) : ({gt}, {lt}) -> ()
      }}
    }}
    return
  }}
}}"#
    )
}

fn suite() -> Vec<Kernel> {
    let mut out = Vec::new();
    for dynamic in [false, true] {
        let tag = if dynamic { "dyn" } else { "100x100" };
        let sizes = |list: Vec<(usize, i64)>| if dynamic { Vec::new() } else { list };
        for (name, src, dst) in [
            ("ND->NZ", ("gm", "ND"), ("l1", "NZ")),
            ("ND->ZN", ("gm", "ND"), ("l1", "ZN")),
            ("ND->ZZ", ("gm", "ND"), ("l0a", "ZZ")),
            ("NZ->ND", ("l1", "NZ"), ("gm", "ND")),
        ] {
            out.push(Kernel {
                name: format!("copy {name} {tag}"),
                source: copy_source(src, dst),
                statics: sizes(vec![(2, 100), (3, 100)]),
            });
        }
        out.push(Kernel {
            name: format!("tail tiles 32x32 ND->NZ {tag}"),
            source: tail_source(),
            statics: sizes(vec![(2, 100), (3, 100)]),
        });
        out.push(Kernel {
            name: format!("tiled GEMM (examples/tiled_gemm.mlir) {}", if dynamic { "dyn" } else { "200x200x256" }),
            source: include_str!("../../examples/tiled_gemm.mlir").to_string(),
            statics: sizes(vec![(3, 200), (4, 200)]),
        });
    }
    out
}

/// Parses `k` and, for the static variant, replaces the size arguments by constants.
fn load<'c>(ctx: &'c Context, k: &Kernel) -> Result<Module<'c>, BenchError> {
    let module = layout_dialect::parse_source(ctx, &k.source)
        .ok_or_else(|| BenchError::Parse { what: format!("the source of {}", k.name) })?;
    if k.statics.is_empty() {
        return Ok(module);
    }
    let function = module.body().first_operation().ok_or_else(|| ir("empty module"))?;
    let entry = function.region(0).ok().and_then(|r| r.first_block()).ok_or_else(|| ir("function without body"))?;
    let anchor = entry.first_operation().ok_or_else(|| ir("empty function"))?;
    for (arg, value) in &k.statics {
        let constant = melior::dialect::arith::constant(
            ctx,
            IntegerAttribute::new(Type::index(ctx), *value).into(),
            function.location(),
        );
        let constant = entry.insert_operation_before(anchor, constant);
        let old = entry.argument(*arg).map_err(ir)?;
        let new = constant.result(0).map_err(ir)?;
        // Safety: both values are valid `index` values of the module.
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
    }
    Ok(module)
}

/// The lowering alone: `layout-fold, layout-lower-to-loops{host-copies=true}`.
fn lower(ctx: &Context, module: &mut Module) -> Result<(), BenchError> {
    let pm = PassManager::new(ctx);
    pm.add_pass(layout_passes::fold::create());
    // The copies write views of L1 (observable; an alloc'ed buffer only written is dead code).
    let rules = layout_passes::verify::Rules { host_copies: true, ..Default::default() };
    pm.add_pass(layout_passes::lower_to_loops::create_with_rules(rules));
    pm.run(module).map_err(|e| BenchError::Pass { stage: "lowering", message: e.to_string() })
}

fn post_lowering(ctx: &Context, module: &mut Module, simplify: bool) -> Result<(), BenchError> {
    let pm = PassManager::new(ctx);
    add_post_lowering(&pm, simplify);
    pm.run(module).map_err(|e| BenchError::Pass { stage: "post-lowering passes", message: e.to_string() })
}

#[derive(Default, Clone, Copy)]
struct Counts {
    divrem: usize,
    mul: usize,
    add: usize,
    other: usize,
    /// Distinct load/store addresses that are not the loop variable itself: each needs at
    /// least one add per iteration (its own step), so their number is the minimum op count.
    streams: usize,
}

impl Counts {
    fn total(&self) -> usize {
        self.divrem + self.mul + self.add + self.other
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}/{}/{}", self.divrem, self.mul, self.add, self.other)
    }
}

/// Index ops directly in the bodies of innermost `scf.for`s (summed over all of them).
fn count(module: &Module) -> Counts {
    let mut out = Counts::default();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) != "scf.for" {
            return WalkResult::Advance;
        }
        let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { return WalkResult::Advance };
        let mut inner = false;
        let mut cur = body.first_operation();
        let mut local = Counts::default();
        let iv = body.argument(0).map(|v| v.to_raw().ptr).ok();
        let mut addresses = HashSet::new();
        while let Some(o) = cur {
            let first_index = match op_name(&o).as_str() {
                "memref.load" => 1,
                "memref.store" => 2,
                _ => usize::MAX,
            };
            for k in first_index..o.operand_count() {
                if let Ok(v) = o.operand(k) {
                    if Some(v.to_raw().ptr) != iv {
                        addresses.insert(v.to_raw().ptr as usize);
                    }
                }
            }
            match op_name(&o).as_str() {
                "scf.for" => inner = true,
                "arith.divsi" | "arith.divui" | "arith.remsi" | "arith.remui" | "arith.floordivsi"
                | "arith.ceildivsi" | "arith.ceildivui" => local.divrem += 1,
                "arith.muli" => local.mul += 1,
                "arith.addi" | "arith.subi" => local.add += 1,
                "arith.shli" | "arith.shrui" | "arith.shrsi" | "arith.andi" | "arith.ori" | "arith.xori"
                | "arith.select" | "arith.cmpi" | "arith.minsi" | "arith.maxsi" | "arith.minui" | "arith.maxui" => {
                    local.other += 1
                }
                "arith.constant" if o.result(0).is_ok_and(|r| r.r#type().is_index()) => local.other += 1,
                _ => {}
            }
            cur = o.next_in_block();
        }
        if !inner {
            out.divrem += local.divrem;
            out.mul += local.mul;
            out.add += local.add;
            out.other += local.other;
            out.streams += addresses.len();
        }
        WalkResult::Advance
    });
    out
}

// ---------------------------------------------------------------------------------------------
// (c): the lowering's address trees as affine maps.

/// The index `arith` ops the lowering emits (`layout_passes::index_arith::IndexEmitter`); its
/// shifts and masks by constants are read back as the floor ops they compute (the emitter
/// writes them only for proven non-negative values), so (c) starts from the same expressions.
const TREE: [&str; 12] = [
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.divsi",
    "arith.remsi",
    "arith.divui",
    "arith.remui",
    "arith.floordivsi",
    "arith.shrui",
    "arith.andi",
    "arith.minsi",
    "arith.maxsi",
];

/// The operands of one affine map: dims (any index value) and symbols (function arguments).
#[derive(Default)]
struct Operands {
    dims: Vec<MlirValue>,
    syms: Vec<MlirValue>,
}

fn is_function_argument(value: Value) -> bool {
    // Safety: queries on a valid value.
    unsafe {
        if !mlir_sys::mlirValueIsABlockArgument(value.to_raw()) {
            return false;
        }
        let block = BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw()));
        block.parent_operation().is_some_and(|op| op_name(&op) == "func.func")
    }
}

impl Operands {
    /// `value` as a leaf: `(text, has_dims)`.
    fn leaf(&mut self, value: Value) -> (String, bool) {
        let raw = value.to_raw();
        if is_function_argument(value) {
            let k = self.syms.iter().position(|v| v.ptr == raw.ptr).unwrap_or_else(|| {
                self.syms.push(raw);
                self.syms.len() - 1
            });
            return (format!("s{k}"), false);
        }
        let k = self.dims.iter().position(|v| v.ptr == raw.ptr).unwrap_or_else(|| {
            self.dims.push(raw);
            self.dims.len() - 1
        });
        (format!("d{k}"), true)
    }

    /// The affine text of `value` (`has_dims` says whether it depends on a dim). Whatever affine
    /// maps cannot say (a product of two dim expressions, a division by a non-constant, a
    /// nested min/max) stays an operand.
    fn expr(&mut self, value: Value) -> (String, bool) {
        if let Some(c) = constant_int(value) {
            return (if c < 0 { format!("({c})") } else { c.to_string() }, false);
        }
        let Some(op) = defining_op(value).filter(|op| TREE.contains(&op_name(op).as_str()) && op.operand_count() == 2)
        else {
            return self.leaf(value);
        };
        let (Ok(x), Ok(y)) = (op.operand(0), op.operand(1)) else { return self.leaf(value) };
        let name = op_name(&op);
        let divisor = constant_int(y).filter(|c| *c > 0);
        let shift = constant_int(y).filter(|k| (0..=62).contains(k));
        let mask = constant_int(y).filter(|m| *m >= 0 && (m + 1).count_ones() == 1);
        let floor_op =
            matches!(name.as_str(), "arith.divsi" | "arith.remsi" | "arith.divui" | "arith.remui" | "arith.floordivsi");
        if name.ends_with("minsi")
            || name.ends_with("maxsi")
            || (floor_op && divisor.is_none())
            || (name == "arith.shrui" && shift.is_none())
            || (name == "arith.andi" && mask.is_none())
        {
            return self.leaf(value);
        }
        // (A product of two dim expressions falls back to a leaf after both sides were read:
        // their operands stay in the map unused, which affine maps allow.)
        let (a, da) = self.expr(x);
        let (b, db) = self.expr(y);
        let text = match name.as_str() {
            "arith.addi" => format!("({a} + {b})"),
            "arith.subi" => format!("({a} - {b})"),
            "arith.muli" if da && db => return self.leaf(value),
            "arith.muli" => format!("({a} * {b})"),
            "arith.divsi" | "arith.divui" | "arith.floordivsi" => format!("({a} floordiv {b})"),
            "arith.shrui" => format!("({a} floordiv {})", 1i64 << shift.unwrap_or(0)),
            "arith.andi" => format!("({a} mod {})", mask.unwrap_or(0) + 1),
            _ => format!("({a} mod {b})"),
        };
        (text, da || db)
    }
}

/// Replaces every root of an index-`arith` tree (a tree op used by something that is not a
/// tree op) by `affine.apply` (or `affine.min`/`affine.max` for a min/max root) of the same
/// expression; the old trees become dead (mlir-opt's canonicalize erases them).
fn to_affine(ctx: &Context, module: &Module) -> Result<(), BenchError> {
    let mut ops = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if TREE.contains(&op_name(&op).as_str()) && op.result(0).is_ok_and(|r| r.r#type().is_index()) {
            ops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let tree: HashSet<usize> = ops.iter().map(|o| o.ptr as usize).collect();
    // Read everything before changing anything.
    let mut rewrites = Vec::new();
    for raw in &ops {
        // Safety: ops of the module, alive (nothing is erased here).
        let op = unsafe { OperationRef::from_raw(*raw) };
        let result: Value = op.result(0).map_err(ir)?.into();
        let mut users = Vec::new();
        // Safety: walking the use list of a valid value.
        unsafe {
            let mut u = mlir_sys::mlirValueGetFirstUse(result.to_raw());
            while !mlir_sys::mlirOpOperandIsNull(u) {
                users.push(mlir_sys::mlirOpOperandGetOwner(u).ptr as usize);
                u = mlir_sys::mlirOpOperandGetNextUse(u);
            }
        }
        if users.iter().all(|u| tree.contains(u)) {
            continue;
        }
        let mut operands = Operands::default();
        let name = op_name(&op);
        let (kind, results) = if name == "arith.minsi" || name == "arith.maxsi" {
            let (a, _) = operands.expr(op.operand(0).map_err(ir)?);
            let (b, _) = operands.expr(op.operand(1).map_err(ir)?);
            (if name == "arith.minsi" { "affine.min" } else { "affine.max" }, format!("{a}, {b}"))
        } else {
            ("affine.apply", operands.expr(result).0)
        };
        // A root that affine maps cannot say (a product of two dim expressions) came back as a
        // leaf of itself: it stays as it is (rewriting it would make it use its own result).
        if operands.dims.iter().any(|v| v.ptr == result.to_raw().ptr) {
            continue;
        }
        rewrites.push((*raw, kind, results, operands));
    }
    let index = Type::index(ctx);
    for (raw, kind, results, operands) in rewrites {
        // Safety: as above.
        let op = unsafe { OperationRef::from_raw(raw) };
        let dims: Vec<String> = (0..operands.dims.len()).map(|k| format!("d{k}")).collect();
        let syms: Vec<String> = (0..operands.syms.len()).map(|k| format!("s{k}")).collect();
        let map = format!("affine_map<({})[{}] -> ({results})>", dims.join(", "), syms.join(", "));
        let map = Attribute::parse(ctx, &map).ok_or_else(|| BenchError::Parse { what: map.clone() })?;
        // Safety: valid values of the module.
        let values: Vec<Value> =
            operands.dims.iter().chain(&operands.syms).map(|v| unsafe { Value::from_raw(*v) }).collect();
        let new = OperationBuilder::new(kind, op.location())
            .add_operands(&values)
            .add_attributes(&[(Identifier::new(ctx, "map"), map)])
            .add_results(&[index])
            .build()
            .map_err(|e| ir(format!("{kind}: {e}")))?;
        let block = op.block().ok_or_else(|| ir("tree op outside a block"))?;
        let new = block.insert_operation_before(op, new);
        let (old, new) = (op.result(0).map_err(ir)?, new.result(0).map_err(ir)?);
        // Safety: both values are valid `index` values.
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
    }
    Ok(())
}

/// (c): lowered, addresses as affine maps, through `mlir-opt`.
fn upstream(ctx: &Context, k: &Kernel) -> Result<Counts, BenchError> {
    let mut module = load(ctx, k)?;
    lower(ctx, &mut module)?;
    to_affine(ctx, &module)?;
    // mlir-opt does not know the layout dialect: drop its target attribute.
    let _ = module.as_operation_mut().remove_attribute("layout.target");
    if !module.as_operation().verify() {
        return Err(BenchError::Invalid { stage: "the rewrite to affine maps" });
    }
    let dir = std::env::temp_dir().join(format!("bench-offsets-{}", std::process::id()));
    let io = |path: &std::path::Path| {
        let path = path.display().to_string();
        move |source| BenchError::Io { path, source }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let file = dir.join("k.mlir");
    std::fs::write(&file, module.as_operation().to_string()).map_err(io(&file))?;
    if std::env::var_os("BENCH_OFFSETS_DUMP").is_some() {
        eprintln!("== {} (c) input\n{}", k.name, module.as_operation());
    }
    let out =
        Command::new(MLIR_OPT).args(UPSTREAM).arg(&file).output().map_err(|e| BenchError::MlirOpt(e.to_string()))?;
    let _ = std::fs::remove_dir_all(&dir);
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(BenchError::MlirOpt(stderr.lines().next().unwrap_or("failed").to_string()));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let module = layout_dialect::parse_source(ctx, &text)
        .ok_or_else(|| BenchError::Parse { what: "the output of mlir-opt".into() })?;
    Ok(count(&module))
}

struct Row {
    a: Counts,
    b: Counts,
    e: Counts,
    summary: Summary,
}

/// (e): (b) followed by `layout-strength-reduce`.
fn strength_reduced(ctx: &Context, k: &Kernel) -> Result<Counts, BenchError> {
    let mut m = load(ctx, k)?;
    lower(ctx, &mut m)?;
    post_lowering(ctx, &mut m, true)?;
    let pm = PassManager::new(ctx);
    pm.add_pass(layout_passes::strength_reduce::create());
    pm.run(&mut m).map_err(|e| BenchError::Pass { stage: "layout-strength-reduce", message: e.to_string() })?;
    if !m.as_operation().verify() {
        return Err(BenchError::Invalid { stage: "layout-strength-reduce" });
    }
    if std::env::var_os("BENCH_OFFSETS_DUMP").is_some() {
        eprintln!("== {} (e)\n{}", k.name, m.as_operation());
    }
    Ok(count(&m))
}

fn ours(ctx: &Context, k: &Kernel) -> Result<Row, BenchError> {
    let mut a = load(ctx, k)?;
    lower(ctx, &mut a)?;
    post_lowering(ctx, &mut a, false)?;
    let mut b = load(ctx, k)?;
    lower(ctx, &mut b)?;
    post_lowering(ctx, &mut b, true)?;
    if !b.as_operation().verify() {
        return Err(BenchError::Invalid { stage: "layout-simplify-offsets" });
    }
    if std::env::var_os("BENCH_OFFSETS_DUMP").is_some() {
        eprintln!("== {} (a)\n{}\n== {} (b)\n{}", k.name, a.as_operation(), k.name, b.as_operation());
    }
    // The simplifier's statistics: the pass's own entry point on the module as the pass sees it
    // in (b) (after the first `canonicalize` of POST_LOWERING).
    let mut s = load(ctx, k)?;
    lower(ctx, &mut s)?;
    let pm = PassManager::new(ctx);
    pm.add_pass(create_canonicalizer());
    pm.run(&mut s).map_err(|e| BenchError::Pass { stage: "canonicalize", message: e.to_string() })?;
    let summary = simplify_offsets(s.as_operation());
    Ok(Row { a: count(&a), b: count(&b), e: strength_reduced(ctx, k)?, summary })
}

fn main() {
    let ctx = match layout_dialect::create_context() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("bench-offsets: {e}");
            std::process::exit(1);
        }
    };
    for d in ["arith", "scf", "memref", "func"] {
        ctx.get_or_load_dialect(d);
    }
    DialectHandle::affine().load_dialect(&ctx);
    println!("(b) = lowering + {}", POST_LOWERING.join(", "));
    println!("counts are div-rem/mul/add-sub/other index ops in innermost loop bodies (other = shifts, masks, select, cmp, min/max, index constants)\n");
    println!("(e) = (b) + layout-strength-reduce; each column: div-rem/mul/add-sub/other = total");
    println!("(d) = the minimum: one add per address stream of each innermost loop (distinct load/store addresses other than the loop variable); distance = (e) - (d)\n");
    println!("| kernel | (a) lowering | (b) + simplify-offsets | (c) upstream affine | (e) + strength-reduce | (d) min | distance | roots | rewritten | time/expr | bound hit |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut total_time = Duration::ZERO;
    let mut total_roots = 0;
    let mut failed = false;
    // Set when upstream's pipeline spends fewer ops than (b) on some kernel (reported at the end).
    let mut worse = false;
    for k in suite() {
        let row = match ours(&ctx, &k) {
            Ok(row) => row,
            Err(e) => {
                println!("| {} | error: {e} |", k.name);
                failed = true;
                continue;
            }
        };
        let c = match upstream(&ctx, &k) {
            Ok(c) => {
                if c.total() < row.b.total() {
                    worse = true;
                }
                format!("{c} = {}", c.total())
            }
            Err(e) => format!("error: {e}"),
        };
        let summary = &row.summary;
        let n = summary.roots.len().max(1);
        total_time += summary.simplify_time();
        total_roots += summary.roots.len();
        println!(
            "| {} | {} = {} | {} = {} | {} | {} = {} | {} | {} | {} | {} | {:.2} ms | {} |",
            k.name,
            row.a,
            row.a.total(),
            row.b,
            row.b.total(),
            c,
            row.e,
            row.e.total(),
            row.e.streams,
            row.e.total().saturating_sub(row.e.streams),
            summary.roots.len(),
            summary.rewritten(),
            summary.simplify_time().as_secs_f64() * 1e3 / n as f64,
            if summary.bound_hit() { "yes" } else { "no" }
        );
    }
    println!(
        "\nsimplifier: {} root expressions, {:.2} ms in total, {:.3} ms per expression",
        total_roots,
        total_time.as_secs_f64() * 1e3,
        total_time.as_secs_f64() * 1e3 / total_roots.max(1) as f64
    );
    if worse {
        println!("(b) spends more ops than upstream (c) on some kernel");
    }
    if failed {
        std::process::exit(1);
    }
}
