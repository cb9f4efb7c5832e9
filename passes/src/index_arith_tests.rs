//! Tests of the index emitter: values (folded by `canonicalize`), sharing, and the op choice.

use super::*;
use index_simplify::{sym, SymFact};
use layout_algebra::{parse_layout, SymExpr, Tuple};
use melior::ir::{
    attribute::{StringAttribute, TypeAttribute},
    block::BlockLike,
    operation::OperationLike,
    r#type::FunctionType,
    Block, Module, Region, RegionLike,
};
use melior::pass::PassManager;

fn context() -> Context {
    let context = layout_dialect::create_context().unwrap();
    // A pass declares arith as a dependent dialect; here it is loaded by hand.
    context.get_or_load_dialect("arith");
    context.get_or_load_dialect("func");
    context
}

/// Emits the NZ offset of symbolic (r, c) — the algebra's `SymExpr`, converted at the one
/// boundary — into a function whose arguments are bound to constants, lets `canonicalize` fold
/// it, and compares with the algebra's `i64` result; with the facts of the point and without.
#[test]
fn emitted_offsets_fold_to_the_algebra_value() {
    let layout = parse_layout("((16,7),(16,7)):((16,256),(1,1792))").unwrap();
    let to_sym =
        |t: &Tuple<i64>| t.map(&mut |v: &i64| Ok::<_, layout_algebra::AlgebraError>(SymExpr::Const(*v))).unwrap();
    let crd = Tuple::Tuple(vec![Tuple::Int(SymExpr::sym("r")), Tuple::Int(SymExpr::sym("c"))]);
    let sym_expr = layout_algebra::crd_to_offset(&crd, &to_sym(layout.shape()), &to_sym(layout.stride())).unwrap();
    let expr = IndexExpr::from(&sym_expr);
    for (r, c) in [(0, 0), (17, 33), (99, 99), (15, 15), (16, 0), (111, 111)] {
        for facts in [Facts::new(), Facts::new().range("r", 0, 111).range("c", 0, 111)] {
            let context = context();
            let location = Location::unknown(&context);
            let index = Type::index(&context);
            let module = Module::new(location);
            let block = Block::new(&[]);
            {
                let block_ref = &block;
                let mut emitter = IndexEmitter::new(&context, location, facts, |op| block_ref.append_operation(op));
                let rv = emitter.constant(r).unwrap();
                let cv = emitter.constant(c).unwrap();
                emitter.bind("r", rv);
                emitter.bind("c", cv);
                let result = emitter.emit(&expr).unwrap();
                block.append_operation(melior::dialect::func::r#return(&[result], location));
            }
            let region = Region::new();
            region.append_block(block);
            module.body().append_operation(melior::dialect::func::func(
                &context,
                StringAttribute::new(&context, "offset"),
                TypeAttribute::new(FunctionType::new(&context, &[], &[index]).into()),
                region,
                &[],
                location,
            ));
            assert!(module.as_operation().verify());
            let pm = PassManager::new(&context);
            pm.add_pass(melior::pass::transform::create_canonicalizer());
            let mut module = module;
            pm.run(&mut module).unwrap();
            let text = module.as_operation().to_string();
            let want = layout.crd_to_offset(&Tuple::Tuple(vec![Tuple::Int(r), Tuple::Int(c)])).unwrap();
            assert!(
                text.contains(&format!("arith.constant {want} : index")) && text.matches("arith.").count() == 1,
                "({r},{c}) want {want}:\n{text}"
            );
        }
    }
    // The expression itself keeps the fractal structure (4 div/mod before simplification).
    assert_eq!(expr.to_string(), "r mod 16 * 16 + r floordiv 16 * 256 + c mod 16 + c floordiv 16 * 1792");
}

/// Emits each expression of `exprs` into one block with `x` bound to a constant, under
/// `facts`, and returns the emitted op names in order.
fn emitted_ops(exprs: &[IndexExpr], facts: Facts) -> Vec<String> {
    let context = context();
    let location = Location::unknown(&context);
    let block = Block::new(&[]);
    let block_ref = &block;
    let mut emitter = IndexEmitter::new(&context, location, facts, |op| block_ref.append_operation(op));
    let x = emitter.constant(3).unwrap();
    emitter.bind("x", x);
    for e in exprs {
        emitter.emit(e).unwrap();
    }
    let mut names = Vec::new();
    let mut op = block.first_operation();
    while let Some(o) = op {
        names.push(crate::ir::op_name(&o));
        op = o.next_in_block();
    }
    names
}

/// `e_k = e_(k-1) + e_(k-1)` with both operands one shared `Rc`: 48 ops, although the
/// expanded tree has 2^48 nodes (an emitter that hashes the expanded tree at every node to
/// look up its cache never finishes here).
#[test]
fn shared_sub_expressions_are_emitted_once_without_expanding_them() {
    let mut e = sym("x");
    for _ in 0..48 {
        let shared = Rc::new(e);
        e = IndexExpr::Bin(Op::Add, shared.clone(), shared);
    }
    let ops = emitted_ops(&[e], Facts::new());
    assert_eq!(ops.len(), 1 + 48, "{ops:?}");
    assert!(ops[1..].iter().all(|n| n == "arith.addi"), "{ops:?}");
}

/// Equal small expressions built separately (no shared `Rc`) are still emitted once.
#[test]
fn equal_small_expressions_are_emitted_once() {
    let build = || sym("x") * 16 + sym("x");
    let ops = emitted_ops(&[build(), build()], Facts::new());
    assert_eq!(ops, ["arith.constant", "arith.constant", "arith.muli", "arith.addi"]);
}

/// The facts decide the ops: `x ∈ [0, 255]` makes `floordiv`/`mod` by 16 a shift and a mask
/// and by 48 unsigned ops; without facts they are floor ops (the lowering used to write
/// `divsi`/`remsi` here, wrong for a negative `x`).
#[test]
fn the_facts_choose_the_ops() {
    let exprs = [sym("x") / 16, sym("x") % 16, sym("x") / 48, sym("x") % 48];
    let with = emitted_ops(&exprs, Facts::new().range("x", 0, 255));
    let ops: Vec<&str> = with.iter().map(String::as_str).filter(|n| *n != "arith.constant").collect();
    assert_eq!(ops, ["arith.shrui", "arith.andi", "arith.divui", "arith.remui"]);
    let without = emitted_ops(&exprs, Facts::new());
    let ops: Vec<&str> = without.iter().map(String::as_str).filter(|n| *n != "arith.constant").collect();
    let expansion = ["arith.floordivsi", "arith.muli", "arith.subi"];
    let want: Vec<&str> =
        ["arith.floordivsi"].into_iter().chain(expansion).chain(["arith.floordivsi"]).chain(expansion).collect();
    assert_eq!(ops, want);
}

/// What [`choose`] picks computes the operator at every point the facts admit: every operator,
/// dividends known non-negative, known to straddle 0 or unknown, divisors powers of two or not.
#[test]
fn the_chosen_ops_are_exact_at_every_admitted_point() {
    let ranges: [(Option<i64>, Option<i64>); 3] = [(Some(0), Some(300)), (Some(-300), Some(300)), (None, None)];
    for (lo, hi) in ranges {
        let da = Data::from_fact(&SymFact { lo, hi, ..SymFact::default() });
        for b in 1..=40 {
            let db = Data::exact(b);
            for op in Op::ALL {
                let choice = choose(op, &da, &db);
                for a in lo.unwrap_or(-300)..=hi.unwrap_or(300) {
                    let want = op.eval(a, b);
                    let got = match choice {
                        Choice::One { op, rhs } => op.eval(a, rhs.unwrap_or(b)),
                        Choice::FloorModExpansion => ArithOp::FloorDivSI
                            .eval(a, b)
                            .and_then(|q| ArithOp::SubI.eval(a, ArithOp::MulI.eval(q, b)?)),
                    };
                    if want.is_some() {
                        assert_eq!(got, want, "{op:?} {a} {b} as {choice:?}");
                    }
                }
            }
        }
    }
    let non_negative = Data::from_fact(&SymFact { lo: Some(0), ..SymFact::default() });
    assert_eq!(choose(Op::FloorDiv, &non_negative, &Data::exact(16)), Choice::One { op: ArithOp::ShRUI, rhs: Some(4) });
    assert_eq!(choose(Op::FloorMod, &non_negative, &Data::exact(16)), Choice::One { op: ArithOp::AndI, rhs: Some(15) });
    assert_eq!(choose(Op::FloorDiv, &Data::TOP, &Data::exact(16)), Choice::One { op: ArithOp::FloorDivSI, rhs: None });
}
