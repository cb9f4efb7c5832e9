//! `frame_layout` on symbolic dims (`SymExpr`), evaluated at many points, equals the `i64` result.

use std::collections::HashMap;

use layout_algebra::ascend::{frame_c0, frame_layout, recognize, ElementType, FramePattern, ALL_FRAME_PATTERNS};
use layout_algebra::{AlgebraError, IntTuple, Layout, SymExpr, Tuple};

fn eval_tuple(t: &Tuple<SymExpr>, env: &HashMap<String, i64>) -> IntTuple {
    t.map(&mut |e: &SymExpr| e.eval(env)).unwrap()
}

fn eval_layout(l: &Layout<SymExpr>, env: &HashMap<String, i64>) -> Layout {
    Layout::with_origin(eval_tuple(l.shape(), env), eval_tuple(l.stride(), env), eval_tuple(l.origin(), env)).unwrap()
}

fn sym(name: &str) -> SymExpr {
    SymExpr::sym(name)
}

/// Values that satisfy every pattern's precondition (even where a pattern divides by 2).
const VALUES: [i64; 10] = [2, 4, 14, 16, 18, 30, 32, 34, 100, 258];

#[test]
fn symbolic_rows_and_cols_agree_with_concrete() {
    for p in ALL_FRAME_PATTERNS.iter().copied().filter(|p| p.is_matrix()) {
        for dtype in [ElementType::F16, ElementType::F32, ElementType::I8, ElementType::F4E1M2, ElementType::F8E8M0FNU]
        {
            let c0 = frame_c0(p, dtype).unwrap();
            let full = frame_layout(p, c0, &[sym("m"), sym("n")]).unwrap();
            let rows_only = frame_layout(p, c0, &[sym("m"), SymExpr::Const(48)]).unwrap();
            let batched = frame_layout(p, c0, &[sym("b"), sym("m"), sym("n")]).unwrap();
            for m in VALUES {
                for n in VALUES {
                    let env = HashMap::from([("m".to_string(), m), ("n".to_string(), n), ("b".to_string(), 3)]);
                    let want = frame_layout(p, c0, &[m, n]).unwrap();
                    assert_eq!(eval_layout(&full, &env), want, "{p} {dtype} m={m} n={n}: {full}");
                    assert_eq!(eval_layout(&rows_only, &env), frame_layout(p, c0, &[m, 48]).unwrap(), "{p} {dtype}");
                    assert_eq!(
                        eval_layout(&batched, &env),
                        frame_layout(p, c0, &[3, m, n]).unwrap(),
                        "{p} {dtype} batched"
                    );
                }
            }
        }
    }
}

#[test]
fn symbolic_offsets_agree_with_concrete() {
    // the offset expression of a dynamic coordinate in a dynamic-size NZ matrix
    let l = frame_layout(FramePattern::NZ, 16, &[sym("m"), sym("n")]).unwrap();
    let crd = Tuple::Tuple(vec![Tuple::Int(sym("i")), Tuple::Int(sym("j"))]);
    let e = l.crd_to_offset(&crd).unwrap();
    for m in [1i64, 17, 100] {
        let concrete = frame_layout(FramePattern::NZ, 16, &[m, 37]).unwrap();
        for i in (0..m).step_by(5) {
            for j in 0..37 {
                let env = HashMap::from([("m".into(), m), ("n".into(), 37), ("i".into(), i), ("j".into(), j)]);
                let want = concrete.crd_to_offset(&IntTuple::Tuple(vec![IntTuple::Int(i), IntTuple::Int(j)])).unwrap();
                assert_eq!(e.eval(&env).unwrap(), want);
            }
        }
    }
}

#[test]
fn symbolic_structure_stays_static_where_it_should() {
    // inner fractal sizes and in-fractal strides are constants even when the matrix is dynamic,
    // which is what recognition (and code generation) rely on.
    let l = frame_layout(FramePattern::ZN, 8, &[sym("m"), sym("n")]).unwrap();
    let r = recognize(&l).unwrap();
    assert_eq!((r.pattern, r.c0, r.batched), (FramePattern::ZN, 8, false));
    assert_eq!(l.shape().get_path(&[0, 0]).unwrap(), &Tuple::Int(SymExpr::Const(8)));
    assert_eq!(l.stride().get_path(&[1, 1]).unwrap(), &Tuple::Int(SymExpr::Const(128)));
}

#[test]
fn symbolic_conv_patterns_agree() {
    let dims = [sym("a"), sym("b"), sym("c"), sym("d")];
    for p in [FramePattern::NCHW, FramePattern::NHWC, FramePattern::NC1HWC0] {
        let l = frame_layout(p, 16, &dims).unwrap();
        let env = HashMap::from([("a".into(), 2), ("b".into(), 3), ("c".into(), 5), ("d".into(), 7)]);
        assert_eq!(eval_layout(&l, &env), frame_layout(p, 16, &[2i64, 3, 5, 7]).unwrap(), "{p}");
    }
}

#[test]
fn static_errors_still_fire_with_symbolic_neighbours() {
    let r = frame_layout(FramePattern::NN, 2, &[SymExpr::Const(15), sym("n")]);
    assert!(matches!(r, Err(AlgebraError::Inadmissible { .. })));
    let r = frame_layout(FramePattern::NZ, 16, &[SymExpr::Const(0), sym("n")]);
    assert!(matches!(r, Err(AlgebraError::NotPositive { .. })));
    assert!(frame_layout(FramePattern::NZ, 16, &[sym("n")]).is_err());
}
