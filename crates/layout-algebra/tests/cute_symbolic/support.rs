//! Helpers: symbolic layouts from text, evaluation at a point, comparison with the `i64` algebra.

use std::collections::HashMap;

use layout_algebra::cute::{self, SymFacts, Tiler};
use layout_algebra::{AlgebraError, IndexValue, IntTuple, Layout, SymExpr, Tuple};

// ---------------------------------------------------------------------------------------------
// symbolic layouts from text: leaves are sums of products of integers and names (`4*M+2`)

pub fn leaf(text: &str) -> SymExpr {
    let product = |t: &str| {
        t.split('*').fold(SymExpr::Const(1), |acc, f| {
            let f = f.trim();
            let v = f.parse::<i64>().map(SymExpr::Const).unwrap_or_else(|_| SymExpr::sym(f));
            acc.mul(&v).unwrap()
        })
    };
    text.split('+').map(product).reduce(|a, b| a.add(&b).unwrap()).unwrap()
}

pub fn tuple(text: &str) -> Tuple<SymExpr> {
    fn parse(s: &[u8], at: &mut usize) -> Tuple<SymExpr> {
        if s[*at] == b'(' {
            *at += 1;
            let mut out = Vec::new();
            while s[*at] != b')' {
                out.push(parse(s, at));
                if s[*at] == b',' {
                    *at += 1;
                }
            }
            *at += 1;
            Tuple::Tuple(out)
        } else {
            let start = *at;
            while *at < s.len() && !b"(),:".contains(&s[*at]) {
                *at += 1;
            }
            Tuple::Int(leaf(std::str::from_utf8(&s[start..*at]).unwrap()))
        }
    }
    let mut at = 0;
    let t = parse(text.as_bytes(), &mut at);
    assert_eq!(at, text.len(), "{text}");
    t
}

/// `shape:stride` with symbolic leaves.
pub fn sl(text: &str) -> Layout<SymExpr> {
    let (s, d) = text.split_once(':').unwrap();
    Layout::new(tuple(s), tuple(d)).unwrap()
}

pub fn lift(l: &Layout) -> Layout<SymExpr> {
    let f = &mut |v: &i64| Ok::<_, AlgebraError>(SymExpr::Const(*v));
    Layout::new(l.shape().map(f).unwrap(), l.stride().map(f).unwrap()).unwrap()
}

pub fn lift_tiler(t: &Tiler) -> Tiler<SymExpr> {
    t.map(&mut |v: &i64| Ok(SymExpr::Const(*v))).unwrap()
}

pub fn eval_tuple(t: &Tuple<SymExpr>, env: &HashMap<String, i64>) -> IntTuple {
    t.map(&mut |e: &SymExpr| e.eval(env)).unwrap()
}

pub fn eval(l: &Layout<SymExpr>, env: &HashMap<String, i64>) -> Layout {
    Layout::new(eval_tuple(l.shape(), env), eval_tuple(l.stride(), env)).unwrap()
}

pub fn env(pairs: &[(&str, i64)]) -> HashMap<String, i64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// `R(i)` for every `i < size`, the same for both; sizes equal.
pub fn assert_same_function(sym_at_point: &Layout, concrete: &Layout, what: &str) {
    let n = concrete.size().unwrap();
    assert_eq!(sym_at_point.size().unwrap(), n, "{what}: size of {sym_at_point} vs {concrete}");
    for i in 0..n {
        let x = sym_at_point.crd_to_offset(&Tuple::Int(i)).unwrap();
        let y = concrete.crd_to_offset(&Tuple::Int(i)).unwrap();
        assert_eq!(x, y, "{what}: at {i}: {sym_at_point} vs {concrete}");
    }
}

pub fn condition(e: &AlgebraError) -> String {
    match e {
        AlgebraError::Inadmissible { condition, .. } => condition.clone(),
        other => panic!("expected Inadmissible, got {other:?}"),
    }
}

pub const POINTS: [i64; 9] = [1, 2, 3, 5, 16, 17, 32, 48, 100];

/// Checks `sym` (a result of the symbolic algebra) against `concrete(point)` at every point:
/// the same function, and (`exact_at` true for the point) the same layout.
pub fn check_points(
    what: &str,
    sym: &Layout<SymExpr>,
    points: &[HashMap<String, i64>],
    concrete: impl Fn(&HashMap<String, i64>) -> Layout,
    exact_at: impl Fn(&HashMap<String, i64>) -> bool,
) {
    for p in points {
        let (at, want) = (eval(sym, p), concrete(p));
        assert_same_function(&at, &want, &format!("{what} at {p:?}"));
        if exact_at(p) {
            assert_eq!(at, want, "{what} at {p:?}: {sym}");
        }
    }
}

/// `R(i) == A(B(i))` and `R(i) == (A ∘ B)(i)` with the concrete composition, for every `i` whose
/// `B(i)` is inside `A` (past `size(A)` the extension of `A` is a convention that differs where
/// the concrete `coalesce(A)` drops a trailing size-1 mode).
pub fn check_composition(
    what: &str,
    r: &Layout<SymExpr>,
    a: &Layout<SymExpr>,
    b: &Layout<SymExpr>,
    points: &[HashMap<String, i64>],
) {
    let mut inside = 0;
    for p in points {
        let (ap, bp, rp) = (eval(a, p), eval(b, p), eval(r, p));
        let concrete = cute::composition(&ap, &bp).unwrap_or_else(|e| panic!("{what} at {p:?}: {e}"));
        assert_eq!(rp.size().unwrap(), bp.size().unwrap(), "{what} at {p:?}");
        for i in 0..bp.size().unwrap() {
            let bi = bp.crd_to_offset(&Tuple::Int(i)).unwrap();
            if (0..ap.size().unwrap()).contains(&bi) {
                let ri = rp.crd_to_offset(&Tuple::Int(i)).unwrap();
                assert_eq!(ri, ap.crd_to_offset(&Tuple::Int(bi)).unwrap(), "{what} at {p:?}, {i}: {rp}");
                assert_eq!(ri, concrete.crd_to_offset(&Tuple::Int(i)).unwrap(), "{what} at {p:?}, {i}");
                inside += 1;
            }
        }
    }
    assert!(inside > 0, "{what}: no index inside A");
}

pub fn grid(names: &[&str], values: &[i64], facts: &SymFacts) -> Vec<HashMap<String, i64>> {
    let mut out = vec![HashMap::new()];
    for n in names {
        out = out
            .into_iter()
            .flat_map(|p| {
                values.iter().map(move |v| {
                    let mut q = p.clone();
                    q.insert(n.to_string(), *v);
                    q
                })
            })
            .filter(|p| facts.hold_at(p))
            .collect();
    }
    assert!(!out.is_empty());
    out
}
