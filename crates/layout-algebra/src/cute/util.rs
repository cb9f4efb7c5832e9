//! Small helpers shared by the algebra modules.

use crate::error::{AlgebraError, Result};
use crate::layout::Layout;

pub(crate) fn inadmissible(op: &'static str, condition: String) -> AlgebraError {
    AlgebraError::Inadmissible { op, condition }
}

/// The same shape and stride with the default origin.
pub(crate) fn plain(a: &Layout) -> Result<Layout> {
    Layout::new(a.shape().clone(), a.stride().clone())
}

/// The top-level modes as layouts (an integral layout is its own single mode), default origins.
pub(crate) fn modes(a: &Layout) -> Result<Vec<Layout>> {
    (0..a.rank()).map(|i| Layout::new(a.shape().get(i)?.clone(), a.stride().get(i)?.clone())).collect()
}

/// The trivial layout `1:0`.
pub(crate) fn trivial() -> Result<Layout> {
    Layout::from_leaves(&[])
}

/// Applies `f` mode by mode: mode `i < parts.len()` becomes `f(A_i, parts[i])`, the remaining
/// modes of `A` are kept. Errors if there are more parts than modes.
pub(crate) fn by_mode<P>(
    a: &Layout,
    parts: &[P],
    what: &'static str,
    f: impl Fn(&Layout, &P) -> Result<Layout>,
) -> Result<Layout> {
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
    Layout::concat(&out)
}

/// The by-mode case of a two-part split (CuTe `tile_unzip`): mode `i < parts.len()` of `A` gives
/// `part(A_i, parts[i]) = (first_i, second_i)`; the firsts are gathered in one layout, the
/// seconds then the remaining modes of `A` in the other. Errors (as `what`) if there are more
/// parts than modes.
pub(crate) fn unzip_by_mode<P>(
    a: &Layout,
    parts: &[P],
    what: &'static str,
    part: impl Fn(&Layout, &P) -> Result<(Layout, Layout)>,
) -> Result<(Layout, Layout)> {
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
    Ok((Layout::concat(&firsts)?, Layout::concat(&seconds)?))
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
pub(crate) fn arrange((first, second): (Layout, Layout), how: Arrangement) -> Result<Layout> {
    let mut out = match how {
        Arrangement::Zipped => return Layout::concat(&[first, second]),
        Arrangement::Tiled => vec![first],
        Arrangement::Flat => modes(&first)?,
    };
    out.extend(modes(&second)?);
    Layout::concat(&out)
}
