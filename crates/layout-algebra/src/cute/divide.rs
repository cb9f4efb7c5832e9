//! Logical division and its zipped / tiled / flat arrangements (docs/layout-spec.md §C.5, §C.6).

use crate::domain::Decide;
use crate::error::Result;
use crate::layout::Layout;

use super::algebra::Algebra;
use super::tiler::Tiler;
use super::util::{arrange, by_mode, concat, plain, trivial, unzip_by_mode, Arrangement};

/// `A ⊘ B = A ∘ (B, B*)` with `B* = complement(B, size(A))`: mode 0 is the tile `A ∘ B` (the
/// elements of `A` that `B` selects), mode 1 the rest `A ∘ B*` (which tile).
///
/// With a by-mode tiler `<B0, B1, …>` each mode `i` of `A` is divided by `Bi`
/// (`((TileM,RestM),(TileN,RestN),L,…)`); `Keep` (`_`) leaves a mode undivided. Admissibility is
/// that of [`complement`] and [`composition`]. Post: for a layout tiler, rank 2,
/// `compatible(B, R[0])` and `R(i) == A((B,B*)(i))`.
///
/// Example: `(4,2,3):(2,1,8) ⊘ 4:2`: `B* = complement(4:2, 24) = (2,3):(1,8)`;
/// `A ∘ 4:2 = (2,2):(4,1)` and `A ∘ (2,3):(1,8) = (2,3):(2,8)`, so the result is
/// `((2,2),(2,3)):((4,1),(2,8))`. By mode: `(9,(4,8)):(59,(13,1)) ⊘ <3:3, (2,4):(1,8)> =
/// ((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))`.
pub fn logical_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Algebra::exact().logical_divide(a, tiler)
}

/// The tile and rest parts of `A ⊘ tiler`, gathered across modes (CuTe `tile_unzip`): for a
/// layout tiler the two modes of the logical divide; for `<T0,…>` the tiles of the divided modes
/// and the rests followed by the undivided modes; `Keep` counts the whole mode as its tile with
/// a trivial rest `1:0` (the tile then equals `composition_by`, which keeps the mode).
fn divide_parts<T: Decide>(alg: Algebra<'_, T>, a: &Layout<T>, tiler: &Tiler<T>) -> Result<(Layout<T>, Layout<T>)> {
    match tiler {
        Tiler::Keep => Ok((plain(a)?, trivial()?)),
        Tiler::Layout(_) => {
            let d = alg.logical_divide(a, tiler)?;
            Ok((d.mode(0)?, d.mode(1)?))
        }
        Tiler::ByMode(parts) => unzip_by_mode(a, parts, "divide", |m, t| divide_parts(alg, m, t)),
    }
}

/// `((TileM,TileN,…),(RestM,RestN,…,L,…))`: the logical divide with the tiles gathered in
/// mode 0 and the rests (then the untiled modes) in mode 1. Invariant:
/// `layout<0>(zipped_divide(A, T)) == composition_by(A, T)` when `T` is a layout or covers every
/// mode of `A` (otherwise `composition_by` also keeps the untiled modes, which go to mode 1 here).
///
/// Example: `zipped_divide((4,4):(4,1), <2:1,2:1>)`: mode 0 `4:4 ⊘ 2:1 = (2,2):(4,8)`, mode 1
/// `4:1 ⊘ 2:1 = (2,2):(1,2)`, gathered: `((2,2),(2,2)):((4,1),(8,2))`.
/// `zipped_divide((4,4):(4,1), 2:1) = (2,(2,4)):(4,(8,1))` (= the logical divide).
pub fn zipped_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Algebra::exact().zipped_divide(a, tiler)
}

/// `((TileM,TileN,…),RestM,RestN,…,L,…)`: [`zipped_divide`] with mode 1 unpacked.
///
/// Example: `tiled_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>) =
/// ((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))`.
pub fn tiled_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Algebra::exact().tiled_divide(a, tiler)
}

/// `(TileM,TileN,…,RestM,RestN,…,L,…)`: [`zipped_divide`] with both modes unpacked.
///
/// Example: `flat_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>) =
/// (3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))`.
pub fn flat_divide(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Algebra::exact().flat_divide(a, tiler)
}

/// In a symbolic domain the divides are exactly the composition and complement above, so a
/// dynamic extent divided by a static tile gives CuTe's `((16, ceil_div(M, 16)), …)` rest
/// modes; the conditions are those of [`Algebra::complement`] and [`Algebra::composition`].
///
/// Example: `(M,N):(1,M) ⊘ <16:1,32:1> = ((16,(M + 15) floordiv 16),(32,(N + 31) floordiv 32)):
/// ((1,16),(M,32 * M))`, and with the fact `M % 16 == 0` the rest is `M floordiv 16`.
impl<T: Decide> Algebra<'_, T> {
    /// [`logical_divide`] in this domain.
    pub fn logical_divide(&self, a: &Layout<T>, tiler: &Tiler<T>) -> Result<Layout<T>> {
        match tiler {
            Tiler::Keep => plain(a),
            Tiler::Layout(b) => {
                let rest = self.complement(b, &a.size()?)?;
                self.composition(a, &concat(&[plain(b)?, rest])?)
            }
            Tiler::ByMode(parts) => by_mode(a, parts, "logical_divide", |m, t| self.logical_divide(m, t)),
        }
    }

    /// [`zipped_divide`] in this domain.
    pub fn zipped_divide(&self, a: &Layout<T>, tiler: &Tiler<T>) -> Result<Layout<T>> {
        arrange(divide_parts(*self, a, tiler)?, Arrangement::Zipped)
    }

    /// [`tiled_divide`] in this domain.
    pub fn tiled_divide(&self, a: &Layout<T>, tiler: &Tiler<T>) -> Result<Layout<T>> {
        arrange(divide_parts(*self, a, tiler)?, Arrangement::Tiled)
    }

    /// [`flat_divide`] in this domain.
    pub fn flat_divide(&self, a: &Layout<T>, tiler: &Tiler<T>) -> Result<Layout<T>> {
        arrange(divide_parts(*self, a, tiler)?, Arrangement::Flat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cute::composition_by;
    use crate::error::AlgebraError;
    use crate::int_tuple::Tuple;
    use crate::parse::parse_layout;

    fn l(s: &str) -> Layout {
        parse_layout(s).unwrap()
    }
    fn t(s: &str) -> Tiler {
        Tiler::parse(s).unwrap()
    }

    #[test]
    fn spec_c5_logical_divide() {
        let a = l("(4,2,3):(2,1,8)");
        let r = logical_divide(&a, &t("4:2")).unwrap();
        assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
        // R(i) == A((B, B*)(i))
        let bb = l("(4,(2,3)):(2,(1,8))");
        for i in 0..24 {
            let j = bb.crd_to_offset(&Tuple::Int(i)).unwrap();
            assert_eq!(r.crd_to_offset(&Tuple::Int(i)).unwrap(), a.crd_to_offset(&Tuple::Int(j)).unwrap());
        }
        let a = l("(9,(4,8)):(59,(13,1))");
        assert_eq!(
            logical_divide(&a, &t("<3:3,(2,4):(1,8)>")).unwrap().to_string(),
            "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))"
        );
        assert_eq!(logical_divide(&l("16:1"), &t("4:1")).unwrap().to_string(), "(4,4):(1,4)");
    }

    #[test]
    fn spec_c6_zipped_tiled_flat() {
        let a = l("(9,(4,8)):(59,(13,1))");
        let b = t("<3:3,(2,4):(1,8)>");
        assert_eq!(zipped_divide(&a, &b).unwrap().to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
        assert_eq!(tiled_divide(&a, &b).unwrap().to_string(), "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
        assert_eq!(flat_divide(&a, &b).unwrap().to_string(), "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))");
        assert_eq!(zipped_divide(&l("(4,4):(4,1)"), &t("2:1")).unwrap().to_string(), "(2,(2,4)):(4,(8,1))");
        assert_eq!(
            zipped_divide(&l("(4,4):(4,1)"), &t("<2:1,2:1>")).unwrap().to_string(),
            "((2,2),(2,2)):((4,1),(8,2))"
        );
        assert_eq!(tiled_divide(&l("(4,4):(4,1)"), &t("2:1")).unwrap().to_string(), "(2,2,4):(4,8,1)");
        assert_eq!(flat_divide(&l("(4,4):(4,1)"), &t("<2:1,2:1>")).unwrap().to_string(), "(2,2,2,2):(4,1,8,2)");
        assert_eq!(zipped_divide(&a, &b).unwrap().mode(0).unwrap(), composition_by(&a, &b).unwrap());
    }

    #[test]
    fn untiled_modes_and_keep() {
        // (M,N,L) by <TileM,TileN>: ((TileM,TileN),(RestM,RestN,L))
        let a = l("(8,6,2):(1,8,48)");
        assert_eq!(zipped_divide(&a, &t("(4,3)")).unwrap().to_string(), "((4,3),(2,2,2)):((1,8),(4,24,48))");
        assert_eq!(tiled_divide(&a, &t("(4,3)")).unwrap().to_string(), "((4,3),2,2,2):((1,8),4,24,48)");
        assert_eq!(flat_divide(&a, &t("(4,3)")).unwrap().to_string(), "(4,3,2,2,2):(1,8,4,24,48)");
        assert_eq!(logical_divide(&a, &t("<_,3:1>")).unwrap().to_string(), "(8,(3,2),2):(1,(8,24),48)");
        assert_eq!(zipped_divide(&a, &t("<_,3:1>")).unwrap().to_string(), "((8,3),(1,2,2)):((1,8),(0,24,48))");
        assert_eq!(logical_divide(&a, &Tiler::Keep).unwrap(), a);
        assert!(matches!(zipped_divide(&a, &t("<2:1,2:1,2:1,2:1>")), Err(AlgebraError::Incompatible { .. })));
    }

    #[test]
    fn inadmissible_divides_are_errors() {
        // complement of the tiler is not admissible
        assert!(matches!(
            logical_divide(&l("24:1"), &t("(2,2):(1,1)")),
            Err(AlgebraError::Inadmissible { op: "complement", .. })
        ));
        // composition is not admissible: 3:1 splits the 2-mode of (2,3):(1,10)... (3 vs 2)
        assert!(matches!(
            logical_divide(&l("(2,3):(1,10)"), &t("3:1")),
            Err(AlgebraError::Inadmissible { op: "composition", .. })
        ));
    }
}
