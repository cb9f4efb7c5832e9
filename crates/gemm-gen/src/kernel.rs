//! The kernel text. Per block: `for t = blockIdx; t < tiles; t += blockNum`, C tile
//! `(mi, ni)` of the block order (`layout_algebra::ascend::TileOrder::coord`, the one formula); per C tile, K streamed through L1 in
//! `k1` slices and through L0A/L0B in `k0` slices, every read through the view of what the copy
//! before it wrote (rule R1); the first slice overwrites L0C, so it is peeled (the K loop may
//! run zero more times), the rest accumulate; the Fixpipe stores the tile with the epilogue.
//! Tails in M, N and K are clipped by the layout algebra (tile origins), nothing here.
//! With two stages and a static K of two or more L1 slices, the K stream is
//! software-pipelined instead ([`crate::pipeline`]).
//! Split-K (`split_k` S > 1): K is cut into `chunks` ≤ S chunks of `per` whole `k1` slices
//! (`per = ceil(ceil(K/k1)/S)`, `chunks = ceil(ceil(K/k1)/per)`, so no chunk is empty), the tasks
//! are the (tile, chunk) pairs — task `t` is tile `t mod tiles`, chunk `t / tiles` — and each
//! task's store adds into C (`atomic = "add"`), which must be zero on entry.

use crate::error::Result;
use crate::pipeline;
use crate::spec::{Dim, GemmSpec, GmLayout};
use crate::text::Body;
use crate::tiles;
use layout_algebra::{IndexValue, SymExpr};

/// Views of what a copy wrote (every leaf left to the algebra).
const FLAT: &str = "(?,?):(?,?)";
const NESTED: &str = "((?,?),(?,?)):((?,?),(?,?))";

/// The layout-dialect module of `spec` (checked first: types, epilogue, tiles, budget).
pub fn generate(spec: &GemmSpec) -> Result<String> {
    spec.check()?;
    let acc = spec.accumulator()?;
    tiles::check(&spec.tiles, spec.input, acc, spec.target)?;
    let t = spec.tiles;
    let (inp, out, accn) = (spec.input.name(), spec.output.name(), acc.name());
    let l0a = spec.target.l0a_pattern().name();
    let (l1a, l1b) = spec.l1_patterns();
    let gm_tile = |l: GmLayout| if l == GmLayout::Nz { NESTED } else { FLAT };
    let tensor = |ty: &str, space: &str, layout: &str, dims: String| {
        format!("!layout.tensor<{ty}, \"{space}\", \"{layout}\", \"{dims}\">")
    };
    let d2 = |a: Dim, b: Dim| format!("({},{})", a.leaf(), b.leaf());
    let types = [
        ("gmA", tensor(inp, "gm", spec.a.pattern().name(), d2(spec.m, spec.k))),
        ("gmB", tensor(inp, "gm", spec.b.pattern().name(), d2(spec.k, spec.n))),
        ("gmC", tensor(out, "gm", "ND", d2(spec.m, spec.n))),
        ("l1A", tensor(inp, "l1", l1a.name(), format!("({},{})", t.m1, t.k1))),
        ("l1B", tensor(inp, "l1", l1b.name(), format!("({},{})", t.k1, t.n1))),
        ("l0A", tensor(inp, "l0a", l0a, format!("({},{})", t.m1, t.k0))),
        ("l0B", tensor(inp, "l0b", "ZN", format!("({},{})", t.k0, t.n1))),
        ("l0C", tensor(accn, "l0c", "NZ", format!("({},{})", t.m1, t.n1))),
        ("tA", tensor(inp, "gm", gm_tile(spec.a), "(?,?)".into())),
        ("tB", tensor(inp, "gm", gm_tile(spec.b), "(?,?)".into())),
        ("tC", tensor(out, "gm", FLAT, "(?,?)".into())),
        ("l1T", tensor(inp, "l1", NESTED, "(?,?)".into())),
        ("l0aT", tensor(inp, "l0a", NESTED, "(?,?)".into())),
        ("l0bT", tensor(inp, "l0b", NESTED, "(?,?)".into())),
    ];

    // Parameters: A, B, C, then the dynamic sizes in the order M, N, K.
    let memref =
        |l: GmLayout, ty: &str| if l == GmLayout::Nz { format!("memref<?x{ty}>") } else { format!("memref<?x?x{ty}>") };
    let (ma, mb, mc) = (memref(spec.a, inp), memref(spec.b, inp), memref(GmLayout::Nd, out));
    let mut params = vec![format!("%A: {ma}"), format!("%B: {mb}"), format!("%C: {mc}")];
    // The sizes are extents (>= 0), task indices start at blockIdx >= 0, and every divisor is a
    // tile size or a band of at least one tile inside the task loop: truncating division is the
    // floor division of the formulas.
    let mut body = Body::default();
    body.non_negative_division = true;
    let mut size = |name: &str, d: Dim, body: &mut Body| -> SymExpr {
        match d {
            Dim::Static(v) => SymExpr::Const(v),
            Dim::Dynamic => {
                params.push(format!("%{name}: index"));
                body.symbols.insert(name.into(), format!("%{name}"));
                SymExpr::sym(name)
            }
        }
    };
    let (m, n, k) = (size("M", spec.m, &mut body), size("N", spec.n, &mut body), size("K", spec.k, &mut body));
    let dyn_of = |pairs: &[(&str, Dim)]| -> (String, String) {
        let names: Vec<&str> = pairs.iter().filter(|(_, d)| *d == Dim::Dynamic).map(|(n, _)| *n).collect();
        (names.iter().map(|n| format!(", %{n}")).collect(), names.iter().map(|_| ", index").collect())
    };
    for (v, arg, ty, alias, dims) in [
        ("%ga", "%A", &ma, "gmA", [("M", spec.m), ("K", spec.k)]),
        ("%gb", "%B", &mb, "gmB", [("K", spec.k), ("N", spec.n)]),
        ("%gc", "%C", &mc, "gmC", [("M", spec.m), ("N", spec.n)]),
    ] {
        let (ops, tys) = dyn_of(&dims);
        body.line(format!("{v} = \"layout.view\"({arg}{ops}) : ({ty}{tys}) -> !{alias}"));
    }
    let pipelined = pipeline::pipelined_k(spec);
    let mut allocs = vec![("%a1", "l1A"), ("%b1", "l1B"), ("%a0", "l0A"), ("%b0", "l0B"), ("%acc", "l0C")];
    if pipelined.is_some() {
        // The second stage (crate::pipeline).
        allocs.extend([("%a1q", "l1A"), ("%b1q", "l1B"), ("%a0q", "l0A"), ("%b0q", "l0B")]);
    }
    for (v, alias) in allocs {
        body.line(format!("{v} = \"layout.alloc\"() : () -> !{alias}"));
    }

    // The C tile grid and this block's share of it.
    body.line("%bid = \"layout.block_idx\"() : () -> index");
    body.line("%bnum = \"layout.block_num\"() : () -> index");
    let rows = m.ceil_div(&SymExpr::Const(t.m1))?;
    let cols = n.ceil_div(&SymExpr::Const(t.n1))?;
    body.expr(&rows, "rows");
    body.expr(&cols, "cols");
    let tiles = rows.mul(&cols)?;
    let tiles_v = body.expr(&tiles, "tiles");
    let task = SymExpr::sym("t");
    // Split-K: the chunks of K and the (tile, chunk) of task t (module comment).
    let (tasks_v, tile, k_range) = if spec.split_k > 1 {
        let k1 = SymExpr::Const(t.k1);
        let slices = k.ceil_div(&k1)?;
        let per = slices.ceil_div(&SymExpr::Const(spec.split_k))?;
        let chunks = slices.ceil_div(&per)?;
        let tasks_v = body.expr(&tiles.mul(&chunks)?, "tasks");
        let chunk_k = per.mul(&k1)?;
        let start = task.floor_div(&tiles)?.mul(&chunk_k)?;
        let end = start.add(&chunk_k)?.min(&k)?;
        (tasks_v, task.floor_mod(&tiles)?, Some((start, end)))
    } else {
        (tiles_v, task.clone(), None)
    };
    body.open(format!("scf.for %t = %bid to {tasks_v} step %bnum"));
    body.symbols.insert("t".into(), "%t".into());
    if spec.split_k > 1 {
        // Named once here; the expressions below reuse them.
        body.expr(&tile, "tile");
        body.expr(&task.floor_div(&tiles)?, "chunk");
    }
    let (mi, ni) = spec.order.coord(&tile, &rows, &cols)?;
    let m0 = body.expr(&mi.mul(&SymExpr::Const(t.m1))?, "m0");
    let n0 = body.expr(&ni.mul(&SymExpr::Const(t.n1))?, "n0");

    if let Some(k) = pipelined {
        let ping = pipeline::Stage { l1: ("%a1", "%b1"), l0: ("%a0", "%b0") };
        let pong = pipeline::Stage { l1: ("%a1q", "%b1q"), l0: ("%a0q", "%b0q") };
        pipeline::k_stream(&mut body, spec, k, (&m0, &n0), [ping, pong])?;
    } else {
        // K: the first L1 slice (peeled: it overwrites), the others in a loop; the whole of K,
        // or the task's chunk [start, end).
        let k1 = body.constant(t.k1);
        let (start, end) = k_range.unwrap_or((SymExpr::Const(0), k.clone()));
        let first = (body.expr(&start, "ks"), start.clone());
        l1_slice(&mut body, spec, (&first.0, &first.1), (&m0, &n0), &k, true)?;
        let k_lo = if spec.split_k > 1 { body.expr(&start.add(&SymExpr::Const(t.k1))?, "k_lo") } else { k1.clone() };
        let k_hi = body.expr(&end, "k_end");
        body.open(format!("scf.for %k = {k_lo} to {k_hi} step {k1}"));
        body.symbols.insert("k".into(), "%k".into());
        l1_slice(&mut body, spec, ("%k", &SymExpr::sym("k")), (&m0, &n0), &k, false)?;
        body.close();
    }

    let tile_c = body.fresh("tc");
    body.line(format!(
        "{tile_c} = \"layout.tile\"(%gc, {m0}, {n0}) {{shape = array<i64: {}, {}>}} : (!gmC, index, index) -> !tC",
        t.m1, t.n1
    ));
    body.line(format!(
        "\"layout.store\"(%acc, {tile_c}){} : (!l0C, !tC) -> ()",
        epilogue(spec, pipeline::unit_flag_handshake(spec))
    ));
    body.close();
    body.line("return");

    let mut text = format!("// Generated by layout-gemm: {}.\n", describe(spec));
    for (alias, ty) in types {
        text.push_str(&format!("!{alias} = {ty}\n"));
    }
    text.push_str(&format!("\nmodule attributes {{layout.target = #layout.target<\"{}\">}} {{\n", spec.target.name()));
    text.push_str(&format!(
        "  func.func @{}({}) attributes {{llvm.emit_c_interface}} {{\n",
        spec.name,
        params.join(", ")
    ));
    text.push_str(&body.finish());
    text.push_str("  }\n}\n");
    Ok(text)
}

/// The GM tiles of A (m0, k) and B (k, n0) of one L1 slice, loaded into the L1 buffers `l1`
/// (the single buffers, or one pipelined stage's); returns the two loaded L1 views.
pub(crate) fn load_l1_slice(
    body: &mut Body,
    spec: &GemmSpec,
    k: &str,
    (m0, n0): (&str, &str),
    (l1a, l1b): (&str, &str),
) -> (String, String) {
    let t = spec.tiles;
    let (ta, tb, a1v, b1v) = (body.fresh("ta"), body.fresh("tb"), body.fresh("a1v"), body.fresh("b1v"));
    body.line(format!(
        "{ta} = \"layout.tile\"(%ga, {m0}, {k}) {{shape = array<i64: {}, {}>}} : (!gmA, index, index) -> !tA",
        t.m1, t.k1
    ));
    body.line(format!(
        "{tb} = \"layout.tile\"(%gb, {k}, {n0}) {{shape = array<i64: {}, {}>}} : (!gmB, index, index) -> !tB",
        t.k1, t.n1
    ));
    body.line(format!("{a1v} = \"layout.load\"({ta}, {l1a}) : (!tA, !l1A) -> !l1T"));
    body.line(format!("{b1v} = \"layout.load\"({tb}, {l1b}) : (!tB, !l1B) -> !l1T"));
    (a1v, b1v)
}

/// One L1 slice at `k` (its SSA value and its expression): GM → L1 panels, then L0 slices of
/// `k0` (the first L0 slice of a task's `first` L1 slice overwrites L0C).
fn l1_slice(
    body: &mut Body,
    spec: &GemmSpec,
    (k, here): (&str, &SymExpr),
    (m0, n0): (&str, &str),
    kk: &SymExpr,
    first: bool,
) -> Result<()> {
    let t = spec.tiles;
    let (a1v, b1v) = load_l1_slice(body, spec, k, (m0, n0), ("%a1", "%b1"));
    if t.k0 == t.k1 {
        l0_slice(body, spec, &a1v, &b1v, None, !first, L0, None);
        return Ok(());
    }
    // The valid K of this slice: min(k1, K - k).
    let valid = SymExpr::Const(t.k1).min(&kk.sub(here)?)?;
    let k0 = body.constant(t.k0);
    let from = if first {
        let zero = body.constant(0);
        l0_slice(body, spec, &a1v, &b1v, Some(&zero), false, L0, None);
        k0.clone()
    } else {
        body.constant(0)
    };
    let hi = body.expr(&valid, "kv");
    let iv = body.fresh("kk");
    body.open(format!("scf.for {iv} = {from} to {hi} step {k0}"));
    l0_slice(body, spec, &a1v, &b1v, Some(&iv), true, L0, None);
    body.close();
    Ok(())
}

/// The L0 buffers of a single-stage kernel (`layout-multi-buffer` doubles them in a loop).
const L0: (&str, &str) = ("%a0", "%b0");

/// L1 → L0A/L0B buffers `l0` at L1 column/row `at` (the whole panel when `None`) and the Mmad.
#[allow(clippy::too_many_arguments)]
pub(crate) fn l0_slice(
    body: &mut Body,
    spec: &GemmSpec,
    a1v: &str,
    b1v: &str,
    at: Option<&str>,
    accumulate: bool,
    (a0, b0): (&str, &str),
    unit_flag: Option<&str>,
) {
    let t = spec.tiles;
    let (a_src, b_src) = match at {
        None => (a1v.to_string(), b1v.to_string()),
        Some(kk) => {
            let (a, b) = (body.fresh("a1s"), body.fresh("b1s"));
            let zero = body.constant(0);
            body.line(format!(
                "{a} = \"layout.tile\"({a1v}, {zero}, {kk}) {{shape = array<i64: {}, {}>}} : (!l1T, index, index) -> !l1T",
                t.m1, t.k0
            ));
            body.line(format!(
                "{b} = \"layout.tile\"({b1v}, {kk}, {zero}) {{shape = array<i64: {}, {}>}} : (!l1T, index, index) -> !l1T",
                t.k0, t.n1
            ));
            (a, b)
        }
    };
    let (a0v, b0v) = (body.fresh("a0v"), body.fresh("b0v"));
    body.line(format!("{a0v} = \"layout.load\"({a_src}, {a0}) : (!l1T, !l0A) -> !l0aT"));
    body.line(format!("{b0v} = \"layout.load\"({b_src}, {b0}) : (!l1T, !l0B) -> !l0bT"));
    let (flag, flag_ty) = unit_flag.map_or((String::new(), ""), |u| (format!(", {u}"), ", index"));
    body.line(format!(
        "\"layout.matmul\"({a0v}, {b0v}, %acc{flag}) {{accumulate = {accumulate}}} : (!l0aT, !l0bT, !l0C{flag_ty}) -> ()"
    ));
}

/// The store's attributes; `unit_flag`: the Fixpipe side of the unitFlag handshake (the
/// pipelined kernels, [`crate::pipeline`]).
fn epilogue(spec: &GemmSpec, unit_flag: bool) -> String {
    let mut attrs = Vec::new();
    if spec.epilogue.relu {
        attrs.push("relu = true".to_string());
    }
    if let Some(s) = spec.epilogue.scale {
        // Nine significant digits round-trip every f32; MLIR float literals need the point.
        attrs.push(format!("scale = {s:.8e} : f32"));
    }
    if spec.split_k > 1 {
        attrs.push("atomic = \"add\"".to_string());
    }
    if unit_flag {
        attrs.push("unit_flag = true".to_string());
    }
    if attrs.is_empty() {
        String::new()
    } else {
        format!(" {{{}}}", attrs.join(", "))
    }
}

/// One line saying what the kernel computes, for its header comment.
pub fn describe(spec: &GemmSpec) -> String {
    let l = |g: GmLayout| g.pattern().name();
    format!(
        "C ({}x{} {} ND) {} A ({}x{} {} {}) x B ({}x{} {} {}) on {}, tiles {}, order {:?}{}{}{}",
        spec.m.leaf(),
        spec.n.leaf(),
        spec.output.name(),
        if spec.split_k > 1 { "+=" } else { "=" },
        spec.m.leaf(),
        spec.k.leaf(),
        spec.input.name(),
        l(spec.a),
        spec.k.leaf(),
        spec.n.leaf(),
        spec.input.name(),
        l(spec.b),
        spec.target.name(),
        spec.tiles,
        spec.order,
        if spec.epilogue.relu { ", relu" } else { "" },
        spec.epilogue.scale.map(|s| format!(", scale {s}")).unwrap_or_default(),
        if spec.split_k > 1 {
            format!(", split-K {} (atomic-add stores: C must be zero on entry)", spec.split_k)
        } else {
            String::new()
        },
    )
}
