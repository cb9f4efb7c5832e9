//! Prints what the simplifier does to the NZ/ZN/ZZ offsets of a tile-local coordinate and to a
//! few dynamic-size expressions, with e-graph figures: `cargo run -p index-simplify --example offsets --release`.

use index_simplify::{simplify, sym, Facts, IndexExpr};
use layout_algebra::ascend::{frame_layout, FramePattern};
use layout_algebra::{crd_to_offset, SymExpr, Tuple};

fn offset(pattern: FramePattern, c0: i64, rows: i64, cols: i64, r: SymExpr, c: SymExpr) -> IndexExpr {
    let l = frame_layout(pattern, c0, &[SymExpr::Const(rows), SymExpr::Const(cols)]).expect("frame layout");
    let crd = Tuple::Tuple(vec![Tuple::Int(r), Tuple::Int(c)]);
    IndexExpr::from(&crd_to_offset(&crd, l.shape(), l.stride()).expect("offset"))
}

fn main() {
    let s = SymExpr::sym;
    let tile = |i: &str, t: &str, n: i64| {
        SymExpr::bin(
            layout_algebra::sym::BinOp::Add,
            &s(i),
            &SymExpr::bin(layout_algebra::sym::BinOp::Mul, &s(t), &SymExpr::Const(n)).unwrap(),
        )
        .unwrap()
    };
    let facts = Facts::new()
        .range("i", 0, 15)
        .range("j", 0, 15)
        .range("tr", 0, 6)
        .range("tc", 0, 6)
        .range("r", 0, 111)
        .range("c", 0, 111);
    for (name, p) in [("NZ", FramePattern::NZ), ("ZN", FramePattern::ZN), ("ZZ", FramePattern::ZZ)] {
        for (what, r, c) in [("tile-local", tile("i", "tr", 16), tile("j", "tc", 16)), ("whole matrix", s("r"), s("c"))]
        {
            let e = offset(p, 16, 100, 100, r, c);
            let rep = simplify(&e, &facts);
            println!("{name} {what}: {rep}");
        }
    }
    let dynf = Facts::new().at_least("n", 0).divisible("n", 16).range("i", 0, 15).at_least("k", 0);
    for e in [
        (sym("n") / 16) * 16,
        (sym("n") + sym("i")) / 16,
        (sym("n") * sym("k") + sym("i")) % 16,
        sym("k") % 16 + sym("k") / 16 * 1792,
    ] {
        println!("dynamic: {}", simplify(&e, &dynf));
    }
}
