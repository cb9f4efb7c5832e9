//! Small helpers shared by the algebra modules, generic over the integer domain.

use crate::domain::IndexValue;
use crate::error::{AlgebraError, Result};
use crate::int_tuple::Tuple;
use crate::layout::Layout;

pub(crate) fn inadmissible(op: &'static str, condition: String) -> AlgebraError {
    AlgebraError::Inadmissible { op, condition }
}

/// The same shape and stride with the default origin.
pub(crate) fn plain<T: IndexValue>(a: &Layout<T>) -> Result<Layout<T>> {
    Layout::new(a.shape().clone(), a.stride().clone())
}

/// The top-level modes as layouts (an integral layout is its own single mode), default origins.
pub(crate) fn modes<T: IndexValue>(a: &Layout<T>) -> Result<Vec<Layout<T>>> {
    (0..a.rank()).map(|i| Layout::new(a.shape().get(i)?.clone(), a.stride().get(i)?.clone())).collect()
}

/// The layout of a flat list of leaves: none is `1:0`, one is integral, more are a flat tuple
/// (what `Layout::from_leaves` does for `i64`, in any domain).
pub(crate) fn from_leaves<T: IndexValue>(leaves: &[(T, T)]) -> Result<Layout<T>> {
    match leaves {
        [] => Layout::new(Tuple::Int(T::constant(1)), Tuple::Int(T::constant(0))),
        [(s, d)] => Layout::new(Tuple::Int(s.clone()), Tuple::Int(d.clone())),
        _ => Layout::new(
            Tuple::Tuple(leaves.iter().map(|(s, _)| Tuple::Int(s.clone())).collect()),
            Tuple::Tuple(leaves.iter().map(|(_, d)| Tuple::Int(d.clone())).collect()),
        ),
    }
}

/// Layouts as the top-level modes of one layout (CuTe `make_layout(L0, L1, ...)`).
pub(crate) fn concat<T: IndexValue>(modes: &[Layout<T>]) -> Result<Layout<T>> {
    Layout::new(
        Tuple::Tuple(modes.iter().map(|l| l.shape().clone()).collect()),
        Tuple::Tuple(modes.iter().map(|l| l.stride().clone()).collect()),
    )
}

/// The trivial layout `1:0`.
pub(crate) fn trivial<T: IndexValue>() -> Result<Layout<T>> {
    from_leaves(&[])
}

/// Applies `f` mode by mode: mode `i < parts.len()` becomes `f(A_i, parts[i])`, the remaining
/// modes of `A` are kept. Errors if there are more parts than modes.
pub(crate) fn by_mode<T: IndexValue, P>(
    a: &Layout<T>,
    parts: &[P],
    what: &'static str,
    f: impl Fn(&Layout<T>, &P) -> Result<Layout<T>>,
) -> Result<Layout<T>> {
    let ms = modes(a)?;
    if parts.len() > ms.len() {
        return Err(AlgebraError::Incompatible {
            what,
            detail: format!("tiler of rank {} for layout {a} of rank {}", parts.len(), ms.len()),
        });
    }
    let mut out = Vec::with_capacity(ms.len());
    for (i, m) in ms.iter().enumerate() {
        out.push(if i < parts.len() { f(m, &parts[i])? } else { m.clone() });
    }
    concat(&out)
}

/// The by-mode case of a two-part split (CuTe `tile_unzip`): mode `i < parts.len()` of `A` gives
/// `part(A_i, parts[i]) = (first_i, second_i)`; the firsts are gathered in one layout, the
/// seconds then the remaining modes of `A` in the other. Errors (as `what`) if there are more
/// parts than modes.
pub(crate) fn unzip_by_mode<T: IndexValue, P>(
    a: &Layout<T>,
    parts: &[P],
    what: &'static str,
    part: impl Fn(&Layout<T>, &P) -> Result<(Layout<T>, Layout<T>)>,
) -> Result<(Layout<T>, Layout<T>)> {
    let ms = modes(a)?;
    if parts.len() > ms.len() {
        return Err(AlgebraError::Incompatible {
            what,
            detail: format!("tiler of rank {} for layout {a} of rank {}", parts.len(), ms.len()),
        });
    }
    let mut firsts = Vec::with_capacity(parts.len());
    let mut seconds = Vec::with_capacity(ms.len());
    for (m, p) in ms.iter().zip(parts) {
        let (first, second) = part(m, p)?;
        firsts.push(first);
        seconds.push(second);
    }
    seconds.extend(ms[parts.len()..].iter().cloned());
    Ok((concat(&firsts)?, concat(&seconds)?))
}

/// How the two parts of a divide or product are arranged.
#[derive(Clone, Copy)]
pub(crate) enum Arrangement {
    /// `(First, Second)`.
    Zipped,
    /// `(First, Second_0, Second_1, …)`: mode 1 unpacked.
    Tiled,
    /// `(First_0, First_1, …, Second_0, Second_1, …)`: both modes unpacked.
    Flat,
}

/// The layout of `(first, second)` arranged as `how`.
pub(crate) fn arrange<T: IndexValue>((first, second): (Layout<T>, Layout<T>), how: Arrangement) -> Result<Layout<T>> {
    let mut out = match how {
        Arrangement::Zipped => return concat(&[first, second]),
        Arrangement::Tiled => vec![first],
        Arrangement::Flat => modes(&first)?,
    };
    out.extend(modes(&second)?);
    concat(&out)
}
