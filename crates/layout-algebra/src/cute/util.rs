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
pub(crate) fn by_mode<P>(a: &Layout, parts: &[P], what: &'static str, f: impl Fn(&Layout, &P) -> Result<Layout>) -> Result<Layout> {
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
