//! Typed errors: every message names the instruction, the field (AscendC spelling) and the value.

use layout_algebra::AlgebraError;
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParamError {
    /// A derived value does not fit its field (C++ width or documented range).
    #[error("{instr}.{field} = {value} does not fit: the field is {ctype} with documented range [{min}, {max}]")]
    FieldOverflow { instr: &'static str, field: &'static str, value: i64, ctype: &'static str, min: i64, max: i64 },

    /// An operand address breaks the buffer alignment.
    #[error("{instr}: {buffer} address of {operand} is {address} B, not a multiple of {align} B")]
    Misaligned { instr: &'static str, operand: &'static str, buffer: &'static str, address: i64, align: i64 },

    /// A layout quantity is not a whole number of hardware units (C0 blocks, fractals, ...).
    #[error("{instr}.{field}: {value} is not a multiple of the hardware unit {unit} ({what})")]
    NotMultiple { instr: &'static str, field: &'static str, value: i64, unit: i64, what: &'static str },

    /// The layouts are not the ones the instruction moves between, or disagree with each other.
    #[error("{instr}: {detail}")]
    Layout { instr: &'static str, detail: String },

    /// A valid request the back end (or the hardware path) does not implement.
    #[error("{instr}: unsupported: {detail}")]
    Unsupported { instr: &'static str, detail: String },

    #[error(transparent)]
    Algebra(#[from] AlgebraError),
}

pub type Result<T, E = ParamError> = std::result::Result<T, E>;
