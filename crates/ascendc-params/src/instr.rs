//! The derived instruction sequence.

use crate::field::Assumption;
use crate::target::Buffer;

/// The call with its parameter struct and its kind, generated from [`crate::decl`].
pub use crate::decl::{Intrinsic, IntrinsicKind};

/// Where an operand of one call starts: `tensor[offset + i·step]` for loop iteration `i`
/// (elements of the operand's type, relative to the operand layout's offset 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access<V> {
    pub buffer: Buffer,
    pub offset: V,
    pub step: V,
}

/// `for i in 0..repeat { intrinsic(dst[..], srcs[..]..., params) }` — the catlass loops
/// (e.g. one `LoadData` per row of fractals) stay loops, so dynamic counts stay symbolic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr<V> {
    pub intrinsic: Intrinsic<V>,
    pub dst: Access<V>,
    /// Sources in the intrinsic's argument order (Mmad: A then B).
    pub srcs: Vec<Access<V>>,
    /// Loop trip count (1 = a single call).
    pub repeat: V,
}

/// The result of a derivation: the calls, plus the conditions on symbolic values that could
/// not be decided at compile time (empty for static shapes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Derived<V> {
    pub instrs: Vec<Instr<V>>,
    pub assumptions: Vec<Assumption<V>>,
}
