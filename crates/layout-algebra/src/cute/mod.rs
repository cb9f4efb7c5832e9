//! CuTe layout algebra (docs/layout-spec.md §C: admissibility, conventions, examples), one
//! implementation for every integer domain.
//!
//! The free functions below work on concrete layouts ([`Layout`](crate::Layout) =
//! `Layout<i64>`); each is [`Algebra::exact()`] applied to them. The same functions on
//! `Layout<SymExpr>` are the methods of `Algebra::<SymExpr>::new(&facts)` with [`SymFacts`]
//! ([`symbolic`]); what cannot be proved from the facts is the same
//! [`AlgebraError::Inadmissible`](crate::AlgebraError::Inadmissible) as a failed condition.
//!
//! | module | functions | docs/layout-spec.md |
//! |---|---|---|
//! | [`coalesce`](mod@coalesce) | [`coalesce()`], [`coalesce_by`], [`filter`] | §C.1 |
//! | [`tiler`] | [`Tiler`] (`<B0,B1,…>`, `_`, shapes) | §C.2 |
//! | [`composition`](mod@composition) | [`composition()`], [`composition_by`], [`compatible`] | §C.2 |
//! | [`complement`](mod@complement) | [`complement()`], [`complement_default`] | §C.3 |
//! | [`inverse`] | [`right_inverse`], [`left_inverse`] | §C.4 |
//! | [`divide`] | [`logical_divide`], [`zipped_divide`], [`tiled_divide`], [`flat_divide`] | §C.5, §C.6 |
//! | [`product`] | [`logical_product`], [`zipped_product`], [`tiled_product`], [`flat_product`], [`blocked_product`], [`raked_product`] | §C.7, §C.8 |

mod algebra;
pub mod coalesce;
pub mod complement;
pub mod composition;
pub mod divide;
pub mod inverse;
pub mod product;
pub mod symbolic;
pub mod tiler;
mod util;

pub use algebra::Algebra;
pub use coalesce::{coalesce, coalesce_by, filter};
pub use complement::{complement, complement_default};
pub use composition::{compatible, composition, composition_by};
pub use divide::{flat_divide, logical_divide, tiled_divide, zipped_divide};
pub use inverse::{left_inverse, right_inverse};
pub use product::{blocked_product, flat_product, logical_product, raked_product, tiled_product, zipped_product};
pub use symbolic::{SymFact, SymFacts};
pub use tiler::Tiler;
