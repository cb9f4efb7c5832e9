//! Unit tests: the reader (arith → IndexExpr → arith evaluates equal) and the facts.

use std::collections::HashMap;

use index_simplify::{sym, Facts, IndexExpr, SymFact};
use melior::{
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        r#type::FunctionType,
        Block, Location, Module, Region, RegionLike, Type, Value, ValueLike,
    },
    pass::PassManager,
    Context,
};

use super::reader::Reader;
use crate::index_arith::IndexEmitter;
use crate::ir::op_name;

pub(super) fn context() -> Context {
    let context = layout_dialect::create_context().expect("context");
    context.get_or_load_dialect("arith");
    context.get_or_load_dialect("func");
    context.get_or_load_dialect("scf");
    context.get_or_load_dialect("memref");
    context
}

/// Deterministic xorshift.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

/// A random expression over `x, y` using every operator the emitter and reader handle.
fn random_expr(rng: &mut Rng, depth: u32) -> IndexExpr {
    if depth == 0 || rng.range(0, 3) == 0 {
        return match rng.range(0, 2) {
            0 => sym("x"),
            1 => sym("y"),
            _ => IndexExpr::Const(rng.range(-20, 40)),
        };
    }
    let a = random_expr(rng, depth - 1);
    let c = rng.range(1, 33);
    match rng.range(0, 9) {
        0 => a + random_expr(rng, depth - 1),
        1 => a - random_expr(rng, depth - 1),
        2 => a * random_expr(rng, depth - 1),
        3 => a / c,
        4 => a % c,
        5 => a >> rng.range(0, 5),
        6 => a << rng.range(0, 5),
        7 => a & rng.range(0, 63),
        8 => IndexExpr::bin(index_simplify::Op::Min, a, random_expr(rng, depth - 1)),
        _ => IndexExpr::bin(index_simplify::Op::Max, a, random_expr(rng, depth - 1)),
    }
}

/// Builds `func @f(%x, %y) -> index` returning `expr` emitted with [`IndexEmitter`] under
/// `facts`, reads the returned value back with [`Reader`], and folds the function at constant
/// arguments with `canonicalize`.
fn round_trip(context: &Context, expr: &IndexExpr, facts: &Facts, points: &[(i64, i64)]) -> Result<bool, String> {
    let location = Location::unknown(context);
    let index = Type::index(context);
    let module = Module::new(location);
    let block = Block::new(&[(index, location), (index, location)]);
    let x: Value = block.argument(0).map_err(|e| e.to_string())?.into();
    let y: Value = block.argument(1).map_err(|e| e.to_string())?.into();
    let result = {
        let block_ref = &block;
        let mut emitter = IndexEmitter::new(context, location, facts.clone(), |op| block_ref.append_operation(op));
        emitter.bind("x", x);
        emitter.bind("y", y);
        emitter.emit(expr).map_err(|e| e.to_string())?
    };
    block.append_operation(melior::dialect::func::r#return(&[result], location));
    // Read it back: the arguments are atoms; with the facts of the emitter copied onto them.
    let mut reader = Reader::new();
    for (name, v) in [("x", x), ("y", y)] {
        if let Some(f) = facts.get(name) {
            reader.assume(v, *f);
        }
    }
    let back = reader.read(result).expr;
    let names: HashMap<String, &str> = reader
        .symbols
        .iter()
        .filter_map(|(n, v)| {
            if *v == x {
                Some((n.clone(), "x"))
            } else if *v == y {
                Some((n.clone(), "y"))
            } else {
                None
            }
        })
        .collect();
    let rename = |e: &IndexExpr| -> IndexExpr { rename_syms(e, &names) };
    let back = rename(&back);
    let region = Region::new();
    region.append_block(block);
    module.body().append_operation(melior::dialect::func::func(
        context,
        StringAttribute::new(context, "f"),
        TypeAttribute::new(FunctionType::new(context, &[index, index], &[index]).into()),
        region,
        &[],
        location,
    ));
    if !module.as_operation().verify() {
        return Err(format!("invalid module for {expr}"));
    }
    let text = module.as_operation().to_string();
    let fully_read = back.symbols().iter().all(|s| s == "x" || s == "y");
    for &(px, py) in points {
        let env: HashMap<String, i64> = [("x".to_string(), px), ("y".to_string(), py)].into();
        let want = expr.eval(&env);
        let got = back.eval(&env);
        // The reading is exact where it reads an op; where it keeps an atom it never reads more.
        // Atoms other than x, y (ops the reader refuses) make `got` undefined: compared elsewhere.
        if want.is_some() && got.is_some() && want != got {
            return Err(format!("{expr} read back as {back}: {want:?} != {got:?} at ({px},{py})"));
        }
        let Some(want) = want else { continue };
        // The emitted ops compute the value: substitute the arguments and fold.
        let folded = fold_at(context, expr, facts, px, py)?;
        if folded != Some(want) {
            return Err(format!("{expr}: arith folds to {folded:?}, expected {want} at ({px},{py})\n{text}"));
        }
    }
    Ok(fully_read)
}

fn rename_syms(e: &IndexExpr, names: &HashMap<String, &str>) -> IndexExpr {
    match e {
        IndexExpr::Sym(n) => IndexExpr::sym(names.get(n).copied().unwrap_or(n)),
        IndexExpr::Const(c) => IndexExpr::Const(*c),
        IndexExpr::Bin(op, a, b) => IndexExpr::bin(*op, rename_syms(a, names), rename_syms(b, names)),
    }
}

/// Emits `expr` with `x`, `y` bound to constants, canonicalizes, and returns the folded
/// constant: what the emitted ops compute at that point.
fn fold_at(context: &Context, expr: &IndexExpr, facts: &Facts, x: i64, y: i64) -> Result<Option<i64>, String> {
    let location = Location::unknown(context);
    let index = Type::index(context);
    let mut module = Module::new(location);
    let block = Block::new(&[]);
    {
        let block_ref = &block;
        let mut emitter = IndexEmitter::new(context, location, facts.clone(), |op| block_ref.append_operation(op));
        let (xv, yv) = (emitter_constant(context, block_ref, x), emitter_constant(context, block_ref, y));
        emitter.bind("x", xv);
        emitter.bind("y", yv);
        let result = emitter.emit(expr).map_err(|e| e.to_string())?;
        block.append_operation(melior::dialect::func::r#return(&[result], location));
    }
    let region = Region::new();
    region.append_block(block);
    module.body().append_operation(melior::dialect::func::func(
        context,
        StringAttribute::new(context, "g"),
        TypeAttribute::new(FunctionType::new(context, &[], &[index]).into()),
        region,
        &[],
        location,
    ));
    let pm = PassManager::new(context);
    pm.add_pass(melior::pass::transform::create_canonicalizer());
    pm.run(&mut module).map_err(|e| e.to_string())?;
    let text = module.as_operation().to_string();
    if text.matches("arith.").count() != 1 {
        return Err(format!("did not fold:\n{text}"));
    }
    Ok(text.split("arith.constant ").nth(1).and_then(|s| s.split(' ').next()).and_then(|s| s.parse().ok()))
}

fn emitter_constant<'c, 'a>(context: &'c Context, block: &'a Block<'c>, v: i64) -> Value<'c, 'a> {
    let index = Type::index(context);
    let op = melior::dialect::arith::constant(
        context,
        melior::ir::attribute::IntegerAttribute::new(index, v).into(),
        Location::unknown(context),
    );
    let op = block.append_operation(op);
    op.result(0).expect("constant").into()
}

#[test]
fn round_trip_evaluates_equal() {
    let context = context();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Without facts (signed ops and floordivsi where sign is unknown) and with x, y ≥ 0.
    let with_ranges = Facts::new().range("x", 0, 200).range("y", 0, 50);
    let mut failures = Vec::new();
    let mut fully_read = [0usize; 2];
    for case in 0..60 {
        let e = random_expr(&mut rng, 3);
        let (facts, points): (Facts, Vec<(i64, i64)>) = if case % 2 == 0 {
            (Facts::new(), (0..4).map(|_| (rng.range(-100, 100), rng.range(-50, 50))).collect())
        } else {
            (with_ranges.clone(), (0..4).map(|_| (rng.range(0, 200), rng.range(0, 50))).collect())
        };
        match round_trip(&context, &e, &facts, &points) {
            Ok(full) => fully_read[case % 2] += usize::from(full),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Without facts the signed divisions and right shifts of possibly negative values stay
    // atoms; with x, y ≥ 0 most trees are read back completely.
    assert!(fully_read[1] >= 25 && fully_read[0] >= 10, "{fully_read:?}");
}

/// The facts gathered for each `scf.for` induction variable of `source`, in walk order.
fn loop_facts(source: &str) -> Vec<Option<SymFact>> {
    let context = context();
    let module = layout_dialect::parse_source(&context, source).expect("parse");
    let mut ivs = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "scf.for" {
            if let Some(arg) = op.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.argument(0).ok()) {
                ivs.push(Value::from(arg).to_raw());
            }
        }
        WalkResult::Advance
    });
    let mut reader = Reader::new();
    ivs.into_iter()
        .map(|raw| {
            // Safety: values of the live module.
            let v = unsafe { Value::from_raw(raw) };
            let IndexExpr::Sym(name) = reader.read(v).expr else { return None };
            reader.facts.get(&name).copied()
        })
        .collect()
}

fn fact(lo: Option<i64>, hi: Option<i64>, div: Option<(i64, i64)>) -> Option<SymFact> {
    Some(SymFact { lo, hi, divisor: div.map(|d| d.0), residue: div.map_or(0, |d| d.1) })
}

#[test]
fn facts_from_loops() {
    let facts = loop_facts(
        r#"func.func @f(%n: index, %m: index, %s: index) {
             %c0 = arith.constant 0 : index
             %c1 = arith.constant 1 : index
             %c3 = arith.constant 3 : index
             %c4 = arith.constant 4 : index
             %c16 = arith.constant 16 : index
             %c40 = arith.constant 40 : index
             scf.for %a = %c0 to %c16 step %c1 { }
             scf.for %b = %c3 to %c40 step %c4 { }
             scf.for %t = %c0 to %n step %c16 {
               %rest = arith.subi %n, %t : index
               %ub = arith.minsi %rest, %c16 : index
               scf.for %i = %c0 to %ub step %c1 { }
               %lb = arith.addi %t, %c4 : index
               scf.for %j = %lb to %m step %c16 { }
             }
             scf.for %d = %n to %m step %c1 { }
             scf.for %e = %c0 to %c16 step %s { }
             scf.for unsigned %u = %c0 to %n step %c1 { }
             scf.for unsigned %w = %c0 to %c16 step %c1 { }
             return
           }"#,
    );
    assert_eq!(
        facts,
        vec![
            fact(Some(0), Some(15), None),         // 0 to 16
            fact(Some(3), Some(39), Some((4, 3))), // 3 to 40 step 4: ≡ 3 mod 4
            fact(Some(0), None, Some((16, 0))),    // 0 to %n step 16
            fact(Some(0), Some(15), None),         // 0 to min(n - t, 16): tail tile
            fact(Some(4), None, Some((16, 4))),    // t + 4 to m step 16: t ≡ 0 mod 16
            None,                                  // %n to %m: nothing known
            None,                                  // dynamic step: may be ≤ 0
            None,                                  // unsigned compare, unknown ub sign
            fact(Some(0), Some(15), None),         // unsigned compare, both bounds ≥ 0
        ]
    );
}

#[test]
fn memref_dim_is_non_negative_and_arguments_unknown() {
    let context = context();
    let module = layout_dialect::parse_source(
        &context,
        r#"func.func @f(%m: memref<?xf16>, %a: index) -> (index, index) {
             %c0 = arith.constant 0 : index
             %d = memref.dim %m, %c0 : memref<?xf16>
             return %d, %a : index, index
           }"#,
    )
    .expect("parse");
    let mut values = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "func.return" {
            values.extend(op.operands().map(|v| v.to_raw()));
        }
        WalkResult::Advance
    });
    let mut reader = Reader::new();
    let got: Vec<Option<SymFact>> = values
        .into_iter()
        .map(|raw| {
            let v = unsafe { Value::from_raw(raw) };
            let IndexExpr::Sym(n) = reader.read(v).expr else { return None };
            reader.facts.get(&n).copied()
        })
        .collect();
    assert_eq!(got, vec![fact(Some(0), None, None), None]);
}

#[test]
fn signed_division_is_read_only_on_proven_non_negative_dividends() {
    let context = context();
    let module = layout_dialect::parse_source(
        &context,
        r#"func.func @f(%a: index) -> (index, index, index, index) {
             %c0 = arith.constant 0 : index
             %c1 = arith.constant 1 : index
             %c16 = arith.constant 16 : index
             %c64 = arith.constant 64 : index
             %q = arith.divsi %a, %c16 : index
             %f = arith.floordivsi %a, %c16 : index
             %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %c0) -> (index) {
               %k = arith.remsi %i, %c16 : index
               %s = arith.addi %acc, %k : index
               scf.yield %s : index
             }
             %m = arith.subi %c0, %c16 : index
             %n = arith.remsi %m, %c16 : index
             return %q, %f, %r, %n : index, index, index, index
           }"#,
    )
    .expect("parse");
    let mut found = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let name = op_name(&op);
        if matches!(name.as_str(), "arith.divsi" | "arith.floordivsi" | "arith.remsi") {
            if let Ok(r) = op.result(0) {
                found.push((name, Value::from(r).to_raw()));
            }
        }
        WalkResult::Advance
    });
    let mut reader = Reader::new();
    let mut out = Vec::new();
    for (name, raw) in found {
        // Safety: values of the live module.
        let read = reader.read(unsafe { Value::from_raw(raw) });
        out.push((name, read.node, read.expr.to_string()));
    }
    let shapes: Vec<(bool, String)> =
        out.iter().map(|(_, n, e)| (*n, e.chars().filter(|c| !c.is_ascii_digit()).collect())).collect();
    // divsi on an unknown argument: an atom; floordivsi: always floor; remsi on a loop variable
    // in [0, 63]: floor; remsi on the constant -16: its dividend is proven negative, an atom.
    assert_eq!(
        shapes,
        vec![
            (false, "v".to_string()),
            (true, "arg floordiv ".to_string()),
            (true, "i mod ".to_string()),
            (false, "v".to_string()),
        ],
        "{out:?}"
    );
}

/// The clamp `maxsi(%v, %c0)` that `layout-lower-to-loops` puts on dynamic sizes: its reading
/// `max(v, 0)` has the interval `[0, ∞)`, so a division of it (or of a sum with a non-negative
/// part) is read as a floor operation; `maxsi(%v, %c-1)` proves nothing and its division stays
/// an atom. Soundness: every reading equals the arith semantics (truncating `divsi`/`remsi`) at
/// negative, zero and positive values of the argument.
#[test]
fn maxsi_with_a_non_negative_constant_makes_divisions_floor_operations() {
    let context = context();
    let module = layout_dialect::parse_source(
        &context,
        r#"func.func @f(%a: index) -> (index, index, index, index) {
             %c0 = arith.constant 0 : index
             %cm1 = arith.constant -1 : index
             %c15 = arith.constant 15 : index
             %c16 = arith.constant 16 : index
             %n = arith.maxsi %a, %c0 : index
             %q = arith.divsi %n, %c16 : index
             %s = arith.addi %n, %c15 : index
             %r = arith.remsi %s, %c16 : index
             %w = arith.maxsi %a, %cm1 : index
             %u = arith.divsi %w, %c16 : index
             %x = arith.remsi %a, %c16 : index
             return %q, %r, %u, %x : index, index, index, index
           }"#,
    )
    .expect("parse");
    let mut values = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "func.return" {
            values.extend(op.operands().map(|v| v.to_raw()));
        }
        WalkResult::Advance
    });
    let mut reader = Reader::new();
    // Safety: values of the live module.
    let reads: Vec<_> = values.into_iter().map(|raw| reader.read(unsafe { Value::from_raw(raw) })).collect();
    let nodes: Vec<bool> = reads.iter().map(|r| r.node).collect();
    assert_eq!(
        nodes,
        vec![true, true, false, false],
        "{:?}",
        reads.iter().map(|r| r.expr.to_string()).collect::<Vec<_>>()
    );
    // The argument's symbol (the only atom of the first two readings).
    let arg = reads[0].expr.symbols().into_iter().next().expect("a symbol");
    let arith: [fn(i64) -> i64; 2] = [|a| a.max(0) / 16, |a| (a.max(0) + 15) % 16];
    for a in -70..=70 {
        let env: HashMap<String, i64> = [(arg.clone(), a)].into();
        for (k, want) in arith.iter().enumerate() {
            assert_eq!(reads[k].expr.eval(&env), Some(want(a)), "reading {} at a = {a}", reads[k].expr);
        }
    }
}
