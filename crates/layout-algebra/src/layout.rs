//! `Layout` = shape : stride, plus the *origin shape* of catlass TLA.
//!
//! The shape holds the padded structure (e.g. whole 16×16 fractals); the origin holds the valid
//! logical extent per top-level mode, for tails. `100×100` fp16 in NZ:
//! `((16,7),(16,7)):((16,256),(1,1792)) origin (100,100)` — 112×112 elements are laid out,
//! 100×100 are data. The default origin is the per-mode product of the shape and is not printed.

use std::fmt;

use crate::coord::crd_to_offset;
use crate::domain::IndexValue;
use crate::error::{AlgebraError, Result};
use crate::int_tuple::{IntTuple, Tuple};

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Layout<T = i64> {
    shape: Tuple<T>,
    stride: Tuple<T>,
    origin: Tuple<T>,
}

impl<T: IndexValue> Layout<T> {
    /// `shape:stride` with the default origin. Shape and stride must be congruent and static
    /// shape leaves positive.
    pub fn new(shape: Tuple<T>, stride: Tuple<T>) -> Result<Self> {
        let origin = default_origin(&shape)?;
        Self::with_origin(shape, stride, origin)
    }

    /// `shape:stride origin O`. The origin has one extent per top-level mode (see `origin_fits`).
    pub fn with_origin(shape: Tuple<T>, stride: Tuple<T>, origin: Tuple<T>) -> Result<Self> {
        if !shape.congruent(&stride) {
            return Err(AlgebraError::NotCongruent {
                what: "layout shape and stride",
                lhs: shape.to_string(),
                rhs: stride.to_string(),
            });
        }
        for leaf in shape.leaves() {
            if let Some(v) = leaf.as_constant() {
                if v <= 0 {
                    return Err(AlgebraError::NotPositive { what: "shape leaf", value: v.to_string() });
                }
            }
        }
        if !origin_fits(&shape, &origin) {
            return Err(AlgebraError::NotCongruent {
                what: "origin (one extent per top-level mode, or per sub-mode)",
                lhs: origin.to_string(),
                rhs: shape.to_string(),
            });
        }
        for leaf in origin.leaves() {
            if let Some(v) = leaf.as_constant() {
                if v < 0 {
                    return Err(AlgebraError::Invalid(format!("origin extent must be non-negative, got {v}")));
                }
            }
        }
        Ok(Layout { shape, stride, origin })
    }

    /// CuTe `make_layout(shape)`: column-major (LayoutLeft) strides = `prefix_product(shape)`.
    pub fn column_major(shape: Tuple<T>) -> Result<Self> {
        let stride = shape.prefix_product()?;
        Self::new(shape, stride)
    }

    pub fn shape(&self) -> &Tuple<T> {
        &self.shape
    }
    pub fn stride(&self) -> &Tuple<T> {
        &self.stride
    }
    pub fn origin(&self) -> &Tuple<T> {
        &self.origin
    }

    pub fn has_default_origin(&self) -> bool {
        default_origin(&self.shape).map(|o| o == self.origin).unwrap_or(false)
    }

    pub fn rank(&self) -> usize {
        self.shape.rank()
    }
    pub fn depth(&self) -> usize {
        self.shape.depth()
    }
    /// Number of coordinates: the product of the shape (padded extent for fractal layouts).
    pub fn size(&self) -> Result<T> {
        self.shape.size()
    }

    /// Mode `i` as a layout of its own; its origin is the matching origin entry.
    pub fn mode(&self, i: usize) -> Result<Layout<T>> {
        let shape = self.shape.get(i)?.clone();
        let stride = self.stride.get(i)?.clone();
        let origin = self.origin.get(i)?.clone();
        // A mode of a nested layout keeps its own (nested) shape; its origin is one integer,
        // valid only if that mode is a rank-1 layout: otherwise fall back to the default.
        match &shape {
            Tuple::Int(_) => Self::with_origin(shape, stride, origin),
            Tuple::Tuple(_) => Self::new(shape, stride),
        }
    }

    /// Recursive `layout<I0, I1, ...>`.
    pub fn get_path(&self, path: &[usize]) -> Result<Layout<T>> {
        let shape = self.shape.get_path(path)?.clone();
        let stride = self.stride.get_path(path)?.clone();
        if path.len() == 1 {
            return self.mode(path[0]);
        }
        Self::new(shape, stride)
    }

    /// The layout function on a coordinate (integer, flat or nested).
    pub fn crd_to_offset(&self, crd: &Tuple<T>) -> Result<T> {
        crd_to_offset(crd, &self.shape, &self.stride)
    }

    /// Same shape and stride, new origin.
    pub fn with_new_origin(&self, origin: Tuple<T>) -> Result<Self> {
        Self::with_origin(self.shape.clone(), self.stride.clone(), origin)
    }

    /// The same layout with its origin clipped leaf by leaf to `extents` (one per origin leaf,
    /// flat): `origin_i = min(origin_i, extent_i)`. This is what a copy of an `extents`-sized
    /// source into this buffer writes, the `written` view of `layout.load` (docs/dialect.md).
    /// Example: `((16,2),(16,1)):((16,256),(1,512))` origin `(32,16)` clipped to `(24,16)` has
    /// origin `(24,16)`, shape and stride unchanged.
    pub fn clip_origin(&self, extents: &[T]) -> Result<Self> {
        let origin = self.origin.leaves();
        if origin.len() != extents.len() {
            return Err(AlgebraError::Incompatible {
                what: "clip_origin",
                detail: format!("{} extents for an origin of {} leaves", extents.len(), origin.len()),
            });
        }
        let clipped = origin.iter().zip(extents).map(|(o, e)| o.min(e)).collect::<Result<Vec<_>>>()?;
        self.with_new_origin(self.origin.unflatten(&clipped)?)
    }

    /// The leaf pairs that must be equal for `self` and `other` to be the same function of
    /// coordinates ([`Self::same_function`]): every shape leaf pair, and the stride pair of each
    /// leaf whose extent is not the constant 1 (a mode of extent 1 only takes coordinate 0, so
    /// its stride is never multiplied by anything but 0). `None` when the shapes are not
    /// congruent: `(16,1)` and `16` take different coordinates (a nested one and an integer),
    /// so they are different functions even though they reach the same offsets. The origin is
    /// not part of the function (it is the valid region, compared separately where it matters).
    /// For symbolic layouts the caller decides each pair (e.g. as an assumption).
    pub fn function_pairs(&self, other: &Layout<T>) -> Option<Vec<(T, T)>> {
        if !self.shape.congruent(&other.shape) {
            return None;
        }
        let one = |v: &T| v.as_constant() == Some(1);
        let shapes = self.shape.leaves().into_iter().zip(other.shape.leaves());
        let strides = self.leaf_modes().into_iter().zip(other.leaf_modes());
        let mut pairs: Vec<(T, T)> = shapes.collect();
        pairs.extend(strides.filter(|((s, _), (t, _))| !one(s) && !one(t)).map(|((_, d), (_, e))| (d, e)));
        Some(pairs)
    }

    /// Whether the two layouts are the same function: congruent shapes with equal leaves, and
    /// equal strides on every leaf of extent other than 1, at any depth of nesting (example:
    /// `((16,2),(16,1)):((16,256),(1,512))` and `((16,2),(16,1)):((16,256),(1,1024))`).
    /// Symbolic leaves compare structurally, so a dynamic extent that may be 1 keeps its stride.
    /// Origins are ignored (see [`Self::function_pairs`]).
    pub fn same_function(&self, other: &Layout<T>) -> bool {
        self.function_pairs(other).is_some_and(|pairs| pairs.iter().all(|(x, y)| x == y))
    }

    /// Flattened shape and stride (depth ≤ 1), default origin.
    pub fn flatten(&self) -> Result<Self> {
        Self::new(self.shape.flatten(), self.stride.flatten())
    }

    /// `(shape_i, stride_i)` pairs of all leaves, left to right.
    pub fn leaf_modes(&self) -> Vec<(T, T)> {
        self.shape.leaves().into_iter().zip(self.stride.leaves()).collect()
    }

    /// The offsets the layout reaches over its whole shape domain, as `(first, end)`: every
    /// `crd_to_offset` of a coordinate inside the shape lies in `[first, end)`. `first =
    /// Σ min((s_i - 1)·d_i, 0)` (negative strides reach below 0) and `end = 1 + Σ max((s_i -
    /// 1)·d_i, 0)` (CuTe `cosize` for non-negative strides); an empty shape (a leaf of 0)
    /// reaches nothing, `(0, 0)`. Sizes are taken as `max(s, 0)`, so for symbolic sizes the
    /// formula holds for any value. A buffer is safe for a layout iff `first ≥ 0` and
    /// `end ≤` its element count: the bounds check of a view (`layout-lower-to-loops`).
    ///
    /// Example: `(?M,256):(256,1)` → `(0, min(M,1)·(1 + (M-1)·256 + 255))`, `M·256` for `M ≥ 1`.
    pub fn offset_span(&self) -> Result<(T, T)> {
        let (zero, one) = (T::constant(0), T::constant(1));
        let (mut first, mut last, mut nonempty) = (zero.clone(), zero.clone(), one.clone());
        for (s, d) in self.leaf_modes() {
            let s = s.max(&zero)?;
            nonempty = nonempty.mul(&s.min(&one)?)?;
            let reach = s.sub(&one)?.max(&zero)?.mul(&d)?;
            // `max(s - 1, 0) >= 0`, so a static stride decides the sign of the reach.
            match d.as_constant() {
                Some(d) if d >= 0 => last = last.add(&reach)?,
                Some(_) => first = first.add(&reach)?,
                None => {
                    first = first.add(&reach.min(&zero)?)?;
                    last = last.add(&reach.max(&zero)?)?;
                }
            }
        }
        Ok((nonempty.mul(&first)?, nonempty.mul(&last.add(&one)?)?))
    }
}

impl Layout<i64> {
    /// `1 + Σ (s_i - 1)·|d_i|` (CuTe `cosize`): the extent of the codomain.
    pub fn cosize(&self) -> Result<i64> {
        let mut acc: i64 = 1;
        for (s, d) in self.leaf_modes() {
            acc = acc
                .add(&(s - 1).mul(&d.checked_abs().ok_or_else(|| AlgebraError::Invalid("stride overflow".into()))?)?)?;
        }
        Ok(acc)
    }

    /// Build a concrete layout from two flat lists (a convenience for the algebra).
    pub fn from_leaves(leaves: &[(i64, i64)]) -> Result<Self> {
        match leaves {
            [] => Self::new(Tuple::Int(1), Tuple::Int(0)),
            [(s, d)] => Self::new(Tuple::Int(*s), Tuple::Int(*d)),
            _ => Self::new(
                Tuple::Tuple(leaves.iter().map(|(s, _)| Tuple::Int(*s)).collect()),
                Tuple::Tuple(leaves.iter().map(|(_, d)| Tuple::Int(*d)).collect()),
            ),
        }
    }

    /// Concatenation of layouts as top-level modes (CuTe `make_layout(L0, L1, ...)`).
    pub fn concat(modes: &[Layout]) -> Result<Self> {
        Self::new(
            Tuple::Tuple(modes.iter().map(|l| l.shape.clone()).collect()),
            Tuple::Tuple(modes.iter().map(|l| l.stride.clone()).collect()),
        )
    }

    /// Evaluate the layout on every index `0..size` (small layouts, tests and tables).
    pub fn offsets(&self) -> Result<Vec<i64>> {
        let n = self.size()?;
        (0..n).map(|i| self.crd_to_offset(&IntTuple::Int(i))).collect()
    }
}

/// An origin gives one extent per mode of the shape it covers: an integer covers a whole
/// sub-tree (`(100,100)` for `((16,7),(16,7))`), a tuple descends one level
/// (`(2,(100,100))` for the batched `(2,((16,7),(16,7)))`).
fn origin_fits<T: Clone>(shape: &Tuple<T>, origin: &Tuple<T>) -> bool {
    match (shape, origin) {
        (_, Tuple::Int(_)) => true,
        (Tuple::Tuple(s), Tuple::Tuple(o)) => s.len() == o.len() && s.iter().zip(o).all(|(a, b)| origin_fits(a, b)),
        (Tuple::Int(_), Tuple::Tuple(_)) => false,
    }
}

/// Per-top-level-mode product of the shape (catlass default originShape).
pub fn default_origin<T: IndexValue>(shape: &Tuple<T>) -> Result<Tuple<T>> {
    match shape {
        Tuple::Int(v) => Ok(Tuple::Int(v.clone())),
        Tuple::Tuple(c) => Ok(Tuple::Tuple(c.iter().map(|m| m.size().map(Tuple::Int)).collect::<Result<_>>()?)),
    }
}

impl<T: IndexValue> fmt::Display for Layout<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)?;
        if !self.has_default_origin() {
            write!(f, " origin {}", self.origin)?;
        }
        Ok(())
    }
}
