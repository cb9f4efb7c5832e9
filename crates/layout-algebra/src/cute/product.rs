//! Logical product and its zipped / tiled / flat / blocked / raked arrangements
//! (docs/layout-spec.md §C.7, §C.8).

use crate::domain::{Decide, IndexValue};
use crate::error::Result;
use crate::layout::Layout;

use super::algebra::Algebra;
use super::tiler::Tiler;
use super::util::{arrange, by_mode, concat, modes, plain, trivial, unzip_by_mode, Arrangement};

/// `A ⊗ B = (A, A* ∘ B)` with `A* = complement(A, size(A)·cosize(B))`: mode 0 is `A` itself
/// (one block), mode 1 says where the copies of the block go (`B` laid out over the holes of
/// `A`).
///
/// By-mode tilers `<B0, B1, …>` multiply mode `i` of `A` by `Bi`; `Keep` (`_`) leaves a mode
/// as it is. Admissibility is that of [`complement`] and [`composition`]. Post: for a layout
/// tiler, rank 2, `R[0] == A`, `compatible(B, R[1])`, and the images of `R[0]` and `R[1]` meet
/// only in 0.
///
/// Example: `(2,2):(4,1) ⊗ 6:1`: `A* = complement((2,2):(4,1), 4·6) = (2,3):(2,8)` (holes 2
/// then blocks of 8), `A* ∘ 6:1 = (2,3):(2,8)`, so `R = ((2,2),(2,3)):((4,1),(2,8))`. Also
/// `(2,2):(4,1) ⊗ (4,2):(2,1) = ((2,2),(4,2)):((4,1),(8,2))` and, by mode,
/// `(2,5):(5,1) ⊗ <3:5,4:6> = ((2,3),(5,4)):((5,10),(1,30))`.
pub fn logical_product(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Algebra::exact().logical_product(a, tiler)
}

/// `((M,N,…),(TileM,TileN,…,L,…))`: the logical product with the blocks gathered in mode 0 and
/// the repeats (then the modes the tiler does not reach) in mode 1.
///
/// Example: `zipped_product((2,5):(5,1), <3:5,4:6>) = ((2,5),(3,4)):((5,1),(10,30))`.
pub fn zipped_product(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Algebra::exact().zipped_product(a, tiler)
}

/// `((M,N,…),TileM,TileN,…,L,…)`: [`zipped_product`] with mode 1 unpacked.
///
/// Example: `tiled_product((2,5):(5,1), <3:5,4:6>) = ((2,5),3,4):((5,1),10,30)`.
pub fn tiled_product(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Algebra::exact().tiled_product(a, tiler)
}

/// `(M,N,…,TileM,TileN,…,L,…)`: [`zipped_product`] with both modes unpacked.
///
/// Example: `flat_product((2,5):(5,1), <3:5,4:6>) = (2,5,3,4):(5,1,10,30)`.
pub fn flat_product(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Algebra::exact().flat_product(a, tiler)
}

/// Blocked product: `P = logical_product(append<R>(A), append<R>(B))` as a rank-1 product of
/// rank-`R` layouts (`R = max(rank A, rank B)`, padding with `1:0`), then `zip(P[0], P[1])`:
/// mode `i` is `(A_i, (A*∘B)_i)` — each block `A` is kept whole and the blocks are arranged by
/// `B`. For `R = 1` the result is the single mode `(A, A*∘B)`.
///
/// Example: `blocked_product((2,5):(5,1), (3,4):(1,3))`: `A* = complement(A, 10·12) = 12:10`,
/// `A* ∘ B = (3,4):(10,30)`, zipped: `((2,3),(5,4)):((5,10),(1,30))`.
/// `blocked_product(row_major(8,8), col_major(2,3)) = ((8,2),(8,3)):((8,64),(1,128))`.
pub fn blocked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    Algebra::exact().blocked_product(a, b)
}

/// Raked product: `zip(P[1], P[0])` (see [`blocked_product`]): mode `i` is
/// `((A*∘B)_i, A_i)` — the copies of `A` are interleaved ("raked") element by element.
///
/// Example: `raked_product((2,5):(5,1), (3,4):(1,3)) = ((3,2),(4,5)):((10,5),(30,1))`.
pub fn raked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    Algebra::exact().raked_product(a, b)
}

/// In a symbolic domain the products are the composition and complement above; the complement
/// of a dynamic block needs its strides in a provable order (see [`Algebra::complement`]).
impl<T: Decide> Algebra<'_, T> {
    /// [`logical_product`] in this domain.
    pub fn logical_product(&self, a: &Layout<T>, tiler: &Tiler<T>) -> Result<Layout<T>> {
        match tiler {
            Tiler::Keep => plain(a),
            Tiler::Layout(b) => concat(&[plain(a)?, self.repeat_layout(a, b)?]),
            Tiler::ByMode(parts) => by_mode(a, parts, "logical_product", |m, t| self.logical_product(m, t)),
        }
    }

    /// [`zipped_product`] in this domain.
    pub fn zipped_product(&self, a: &Layout<T>, tiler: &Tiler<T>) -> Result<Layout<T>> {
        arrange(self.product_parts(a, tiler)?, Arrangement::Zipped)
    }

    /// [`tiled_product`] in this domain.
    pub fn tiled_product(&self, a: &Layout<T>, tiler: &Tiler<T>) -> Result<Layout<T>> {
        arrange(self.product_parts(a, tiler)?, Arrangement::Tiled)
    }

    /// [`flat_product`] in this domain.
    pub fn flat_product(&self, a: &Layout<T>, tiler: &Tiler<T>) -> Result<Layout<T>> {
        arrange(self.product_parts(a, tiler)?, Arrangement::Flat)
    }

    /// [`blocked_product`] in this domain.
    pub fn blocked_product(&self, a: &Layout<T>, b: &Layout<T>) -> Result<Layout<T>> {
        let (am, reps) = self.rank_r_parts(a, b)?;
        zip_modes(&am, &reps)
    }

    /// [`raked_product`] in this domain.
    pub fn raked_product(&self, a: &Layout<T>, b: &Layout<T>) -> Result<Layout<T>> {
        let (am, reps) = self.rank_r_parts(a, b)?;
        zip_modes(&reps, &am)
    }

    /// `A* ∘ B` with `A* = complement(A, size(A)·cosize(B))`.
    fn repeat_layout(&self, a: &Layout<T>, b: &Layout<T>) -> Result<Layout<T>> {
        let cotarget = a.size()?.mul(&self.cosize(b)?)?;
        self.composition(&self.complement(a, &cotarget)?, b)
    }

    /// Block and repeat parts of `A ⊗ tiler`, gathered across modes (CuTe `tile_unzip`); `Keep`
    /// gives the whole mode as block with a trivial repeat `1:0`.
    fn product_parts(&self, a: &Layout<T>, tiler: &Tiler<T>) -> Result<(Layout<T>, Layout<T>)> {
        match tiler {
            Tiler::Keep => Ok((plain(a)?, trivial()?)),
            Tiler::Layout(b) => Ok((plain(a)?, self.repeat_layout(a, b)?)),
            Tiler::ByMode(parts) => unzip_by_mode(a, parts, "product", |m, t| self.product_parts(m, t)),
        }
    }

    /// Per-mode parts of the rank-R product used by blocked/raked: `A_i` and `(A* ∘ B)_i`, both
    /// padded with `1:0` to `R = max(rank A, rank B)` modes.
    fn rank_r_parts(&self, a: &Layout<T>, b: &Layout<T>) -> Result<(Modes<T>, Modes<T>)> {
        let r = a.rank().max(b.rank());
        let pad = |l: &Layout<T>| -> Result<Vec<Layout<T>>> {
            let mut ms = modes(l)?;
            while ms.len() < r {
                ms.push(trivial()?);
            }
            Ok(ms)
        };
        let (am, bm) = (pad(a)?, pad(b)?);
        // Padding adds only 1:0 modes: size(A) and cosize(B) and the complement are unchanged.
        let a_star = self.complement(a, &a.size()?.mul(&self.cosize(b)?)?)?;
        let reps = bm.iter().map(|bi| self.composition(&a_star, bi)).collect::<Result<Vec<_>>>()?;
        Ok((am, reps))
    }
}

/// The top-level modes of a layout.
type Modes<T> = Vec<Layout<T>>;

fn zip_modes<T: IndexValue>(first: &[Layout<T>], second: &[Layout<T>]) -> Result<Layout<T>> {
    let pairs = first.iter().zip(second).map(|(x, y)| concat(&[x.clone(), y.clone()])).collect::<Result<Vec<_>>>()?;
    match pairs.as_slice() {
        [only] => Ok(only.clone()),
        _ => concat(&pairs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::AlgebraError;
    use crate::parse::parse_layout;

    fn l(s: &str) -> Layout {
        parse_layout(s).unwrap()
    }
    fn t(s: &str) -> Tiler {
        Tiler::parse(s).unwrap()
    }

    #[test]
    fn spec_c7_logical_product() {
        assert_eq!(logical_product(&l("(2,2):(4,1)"), &t("6:1")).unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
        assert_eq!(
            logical_product(&l("(2,2):(4,1)"), &t("(4,2):(2,1)")).unwrap().to_string(),
            "((2,2),(4,2)):((4,1),(8,2))"
        );
        assert_eq!(
            logical_product(&l("(2,5):(5,1)"), &t("<3:5,4:6>")).unwrap().to_string(),
            "((2,3),(5,4)):((5,10),(1,30))"
        );
        assert_eq!(
            zipped_product(&l("(2,5):(5,1)"), &t("<3:5,4:6>")).unwrap().to_string(),
            "((2,5),(3,4)):((5,1),(10,30))"
        );
        assert_eq!(tiled_product(&l("(2,5):(5,1)"), &t("<3:5,4:6>")).unwrap().to_string(), "((2,5),3,4):((5,1),10,30)");
        assert_eq!(flat_product(&l("(2,5):(5,1)"), &t("<3:5,4:6>")).unwrap().to_string(), "(2,5,3,4):(5,1,10,30)");
        assert_eq!(zipped_product(&l("(2,2):(4,1)"), &t("6:1")).unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
        assert_eq!(tiled_product(&l("(2,2):(4,1)"), &t("6:1")).unwrap().to_string(), "((2,2),2,3):((4,1),2,8)");
    }

    #[test]
    fn spec_c8_blocked_raked() {
        let (a, b) = (l("(2,5):(5,1)"), l("(3,4):(1,3)"));
        assert_eq!(blocked_product(&a, &b).unwrap().to_string(), "((2,3),(5,4)):((5,10),(1,30))");
        assert_eq!(raked_product(&a, &b).unwrap().to_string(), "((3,2),(4,5)):((10,5),(30,1))");
        assert_eq!(
            blocked_product(&l("(8,8):(8,1)"), &l("(2,3):(1,2)")).unwrap().to_string(),
            "((8,2),(8,3)):((8,64),(1,128))"
        );
        // Mojo prints ((128,1),(8,4)):((8,0),(1,1024)); the size-1 mode's stride is free.
        let r = blocked_product(&l("(128,8):(8,1)"), &l("(1,4):(4,1)")).unwrap();
        assert_eq!(r.to_string(), "((128,1),(8,4)):((8,4096),(1,1024))");
        assert_eq!(r.offsets().unwrap(), l("((128,1),(8,4)):((8,0),(1,1024))").offsets().unwrap());
    }

    #[test]
    fn rank_padding_and_rank_one() {
        // rank(A) = 2 > rank(B) = 1: B is padded with 1:0.
        let r = blocked_product(&l("(2,2):(1,2)"), &l("3:1")).unwrap();
        assert_eq!(r.to_string(), "((2,3),(2,1)):((1,4),(2,0))");
        // rank 1: the single mode (A, A*∘B)
        assert_eq!(blocked_product(&l("4:1"), &l("3:1")).unwrap().to_string(), "(4,3):(1,4)");
        assert_eq!(raked_product(&l("4:1"), &l("3:1")).unwrap().to_string(), "(3,4):(4,1)");
        assert_eq!(logical_product(&l("(4,6):(1,4)"), &Tiler::Keep).unwrap().to_string(), "(4,6):(1,4)");
        assert_eq!(
            zipped_product(&l("(4,6):(1,4)"), &t("<_,2:1>")).unwrap().to_string(),
            "((4,6),(1,2)):((1,4),(0,1))"
        );
    }

    #[test]
    fn inadmissible_products_are_errors() {
        // A not injective (overlapping strides): no complement
        assert!(matches!(logical_product(&l("(2,2):(1,1)"), &t("2:1")), Err(AlgebraError::Inadmissible { .. })));
        assert!(matches!(blocked_product(&l("(2,3):(3,2)"), &l("2:1")), Err(AlgebraError::Inadmissible { .. })));
        assert!(matches!(
            logical_product(&l("(2,2):(1,2)"), &t("<2:1,2:1,2:1>")),
            Err(AlgebraError::Incompatible { .. })
        ));
    }
}
