//! The CuTe algebra on symbolic layouts (`Algebra<SymExpr>`): every result, evaluated at many
//! points allowed by the facts, is the `i64` result at that point; what cannot be proved is an
//! `Inadmissible` error naming the condition.

mod examples;
mod random;
#[path = "../common/rng.rs"]
mod rng;
mod support;
