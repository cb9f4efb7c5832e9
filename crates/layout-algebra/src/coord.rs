//! Coordinates to offsets and back (CuTe `crd2idx` / `idx2crd`, catlass `crd2offset`).

use crate::domain::IndexValue;
use crate::error::{AlgebraError, Result};
use crate::int_tuple::Tuple;

/// The layout function: maps a coordinate to an offset.
///
/// Recursive on `(c, s, d)`:
/// 1. all tuples of the same rank: `Σ_i crd_to_offset(c_i, s_i, d_i)`;
/// 2. `c` an integer, `s`/`d` tuples of rank R: colexicographic split — for `i < R-1` the
///    term is `crd_to_offset(c mod size(s_i), s_i, d_i)` and `c := c div size(s_i)`; **the last
///    mode takes the remaining quotient unreduced**, so a coordinate past the end extends
///    linearly along the last sub-mode (this is what makes tiles at unaligned origins correct);
/// 3. all integers: `c · d`;
/// 4. a tuple coordinate for an integer shape: error.
///
/// Example: `((4,2),(4,3)):((4,16),(1,32))` at `(1,5)`: row 1 → `1·4`, col 5 → `(5%4)·1 + (5/4)·32
/// = 33`, offset 37.
pub fn crd_to_offset<T: IndexValue>(crd: &Tuple<T>, shape: &Tuple<T>, stride: &Tuple<T>) -> Result<T> {
    match (crd, shape, stride) {
        (Tuple::Int(c), Tuple::Int(_), Tuple::Int(d)) => c.mul(d),
        (Tuple::Tuple(c), Tuple::Tuple(s), Tuple::Tuple(d)) => {
            if c.len() != s.len() || s.len() != d.len() {
                return Err(AlgebraError::Incompatible {
                    what: "crd_to_offset",
                    detail: format!("coordinate {crd} has rank {} but shape {shape} has rank {}", c.len(), s.len()),
                });
            }
            let mut acc = T::constant(0);
            for ((ci, si), di) in c.iter().zip(s).zip(d) {
                acc = acc.add(&crd_to_offset(ci, si, di)?)?;
            }
            Ok(acc)
        }
        (Tuple::Int(c), Tuple::Tuple(s), Tuple::Tuple(d)) => {
            if s.len() != d.len() {
                return Err(AlgebraError::NotCongruent {
                    what: "shape and stride",
                    lhs: shape.to_string(),
                    rhs: stride.to_string(),
                });
            }
            if c.is_constant(0) || s.is_empty() {
                return Ok(T::constant(0));
            }
            let mut acc = T::constant(0);
            let mut rest = c.clone();
            for (i, (si, di)) in s.iter().zip(d).enumerate() {
                if i + 1 == s.len() {
                    acc = acc.add(&crd_to_offset(&Tuple::Int(rest.clone()), si, di)?)?;
                } else {
                    let n = si.size()?;
                    let here = rest.floor_mod(&n)?;
                    acc = acc.add(&crd_to_offset(&Tuple::Int(here), si, di)?)?;
                    rest = rest.floor_div(&n)?;
                }
            }
            Ok(acc)
        }
        (Tuple::Tuple(_), Tuple::Int(_), _) => Err(AlgebraError::Incompatible {
            what: "crd_to_offset",
            detail: format!("tuple coordinate {crd} for integer shape {shape}"),
        }),
        _ => Err(AlgebraError::NotCongruent {
            what: "shape and stride",
            lhs: shape.to_string(),
            rhs: stride.to_string(),
        }),
    }
}

/// Index to natural coordinate (CuTe C++ `idx2crd(idx, shape)`): the colexicographic split of
/// [`crd_to_offset`] rule 2, with the last mode *not* reduced modulo its size.
///
/// Example: `idx_to_crd(16, (3,(2,3))) = (1,(1,2))`. A tuple `idx` is mapped mode by mode.
pub fn idx_to_crd<T: IndexValue>(idx: &Tuple<T>, shape: &Tuple<T>) -> Result<Tuple<T>> {
    match (idx, shape) {
        (Tuple::Int(_), Tuple::Int(_)) => Ok(idx.clone()),
        (Tuple::Tuple(c), Tuple::Tuple(s)) => {
            if c.len() != s.len() {
                return Err(AlgebraError::Incompatible {
                    what: "idx_to_crd",
                    detail: format!("index {idx} has rank {} but shape {shape} has rank {}", c.len(), s.len()),
                });
            }
            Ok(Tuple::Tuple(c.iter().zip(s).map(|(ci, si)| idx_to_crd(ci, si)).collect::<Result<_>>()?))
        }
        (Tuple::Int(i), Tuple::Tuple(s)) => {
            let mut rest = i.clone();
            let mut out = Vec::with_capacity(s.len());
            for (k, si) in s.iter().enumerate() {
                if k + 1 == s.len() {
                    out.push(idx_to_crd(&Tuple::Int(rest.clone()), si)?);
                } else {
                    let n = si.size()?;
                    out.push(idx_to_crd(&Tuple::Int(rest.floor_mod(&n)?), si)?);
                    rest = rest.floor_div(&n)?;
                }
            }
            Ok(Tuple::Tuple(out))
        }
        (Tuple::Tuple(_), Tuple::Int(_)) => Err(AlgebraError::Incompatible {
            what: "idx_to_crd",
            detail: format!("tuple index {idx} for integer shape {shape}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::int_tuple::IntTuple;
    use crate::parse::{parse_int_tuple, parse_layout};

    fn t(s: &str) -> IntTuple {
        parse_int_tuple(s).unwrap()
    }

    #[test]
    fn tla_doc_example() {
        let l = parse_layout("((4,2),(4,3)):((4,16),(1,32)) origin (8,12)").unwrap();
        assert_eq!(l.crd_to_offset(&t("(1,5)")).unwrap(), 37);
        assert_eq!(l.crd_to_offset(&t("((1,0),(1,1))")).unwrap(), 37);
        // index 13 -> natural coordinate ((1,1),(1,0)) = logical (5,1) -> offset 21
        assert_eq!(l.crd_to_offset(&t("13")).unwrap(), 21);
        assert_eq!(idx_to_crd(&t("13"), l.shape()).unwrap(), t("((1,1),(1,0))"));
    }

    #[test]
    fn cute_doc_example() {
        let l = parse_layout("(3,(2,3)):(3,(12,1))").unwrap();
        for c in ["16", "(1,5)", "(1,(1,2))"] {
            assert_eq!(l.crd_to_offset(&t(c)).unwrap(), 17, "{c}");
        }
        assert_eq!(idx_to_crd(&t("16"), &t("(3,(2,3))")).unwrap(), t("(1,(1,2))"));
    }

    #[test]
    fn last_mode_takes_the_remaining_quotient() {
        // (4,3):(1,4) at index 13 (past the end): (1, 3) -> 1 + 12 = 13, no wrap.
        let l = parse_layout("(4,3):(1,4)").unwrap();
        assert_eq!(l.crd_to_offset(&t("13")).unwrap(), 13);
        // zN fp16 100x100 at row 100 (past the last fractal row) keeps extending.
        let z = parse_layout("((16,7),(16,7)):((16,256),(1,1792))").unwrap();
        assert_eq!(z.crd_to_offset(&t("(112,0)")).unwrap(), 7 * 256);
    }

    #[test]
    fn errors_are_typed() {
        let l = parse_layout("(4,3):(1,4)").unwrap();
        assert!(l.crd_to_offset(&t("(1,2,3)")).is_err());
        assert!(crd_to_offset(&t("(1,2)"), &t("4"), &t("1")).is_err());
        let big = parse_layout("(2,4611686018427387904):(1,4611686018427387904)").unwrap();
        assert!(matches!(big.crd_to_offset(&t("(1,2)")), Err(AlgebraError::Overflow { .. })));
    }

    #[test]
    fn idx_to_crd_inverts_crd_to_offset_for_compact_layouts() {
        for shape in ["(3,4)", "((2,3),(4,2))", "(2,(3,(2,2)))", "7"] {
            let s = t(shape);
            let l = crate::Layout::column_major(s.clone()).unwrap();
            for i in 0..l.size().unwrap() {
                let c = idx_to_crd(&Tuple::Int(i), &s).unwrap();
                assert!(c.congruent(&s) || s.is_int());
                assert_eq!(l.crd_to_offset(&c).unwrap(), i, "{shape} at {i}");
            }
        }
    }
}
