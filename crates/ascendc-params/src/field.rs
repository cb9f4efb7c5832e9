//! Field widths and ranges, and the checker every derivation runs its values through.
//!
//! A static value outside its field is a [`ParamError::FieldOverflow`]; a symbolic one becomes
//! an [`Assumption`] the caller must discharge (range analysis in the simplifier, or a runtime
//! check in the emitted code).

use layout_algebra::IndexValue;

use crate::error::{ParamError, Result};
use crate::target::Buffer;

/// The C++ type of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CType {
    U8,
    U16,
    U32,
    U64,
    I32,
}

impl CType {
    pub fn name(self) -> &'static str {
        match self {
            CType::U8 => "uint8_t",
            CType::U16 => "uint16_t",
            CType::U32 => "uint32_t",
            CType::U64 => "uint64_t",
            CType::I32 => "int32_t",
        }
    }

    /// Representable range (u64 is capped at i64::MAX, the algebra's domain).
    pub fn range(self) -> (i64, i64) {
        match self {
            CType::U8 => (0, u8::MAX as i64),
            CType::U16 => (0, u16::MAX as i64),
            CType::U32 => (0, u32::MAX as i64),
            CType::U64 => (0, i64::MAX),
            CType::I32 => (i32::MIN as i64, i32::MAX as i64),
        }
    }
}

/// One integer field of a parameter struct: AscendC name, C++ type, documented range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FieldSpec {
    pub name: &'static str,
    pub ctype: CType,
    pub min: i64,
    pub max: i64,
}

impl FieldSpec {
    /// The whole range of the C++ type.
    pub const fn full(name: &'static str, ctype: CType) -> Self {
        let (min, max) = match ctype {
            CType::U8 => (0, u8::MAX as i64),
            CType::U16 => (0, u16::MAX as i64),
            CType::U32 => (0, u32::MAX as i64),
            CType::U64 => (0, i64::MAX),
            CType::I32 => (i32::MIN as i64, i32::MAX as i64),
        };
        FieldSpec { name, ctype, min, max }
    }

    /// A documented sub-range of the C++ type.
    pub const fn ranged(name: &'static str, ctype: CType, min: i64, max: i64) -> Self {
        FieldSpec { name, ctype, min, max }
    }
}

/// What must hold for a symbolic value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requirement<V> {
    /// `min <= value <= max` (a field range).
    InRange { min: i64, max: i64 },
    /// `value mod unit == 0` (a stride divided by a hardware unit).
    MultipleOf(i64),
    /// `value == other` (a layout the hardware implies equals the one given).
    Equals(V),
}

/// A condition on a symbolic parameter the derivation could not decide statically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assumption<V> {
    pub instr: &'static str,
    pub field: &'static str,
    pub value: V,
    pub requirement: Requirement<V>,
}

/// Collects assumptions and turns static violations into errors.
pub(crate) struct Checker<V> {
    pub instr: &'static str,
    pub assumptions: Vec<Assumption<V>>,
}

impl<V: IndexValue> Checker<V> {
    pub fn new(instr: &'static str) -> Self {
        Checker { instr, assumptions: Vec::new() }
    }

    /// Checks `value` against `spec`; returns it unchanged.
    pub fn field(&mut self, spec: FieldSpec, value: V) -> Result<V> {
        match value.as_constant() {
            Some(v) if v < spec.min || v > spec.max => Err(ParamError::FieldOverflow {
                instr: self.instr,
                field: spec.name,
                value: v,
                ctype: spec.ctype.name(),
                min: spec.min,
                max: spec.max,
            }),
            Some(_) => Ok(value),
            None => {
                self.assumptions.push(Assumption {
                    instr: self.instr,
                    field: spec.name,
                    value: value.clone(),
                    requirement: Requirement::InRange { min: spec.min, max: spec.max },
                });
                Ok(value)
            }
        }
    }

    /// `value / unit`, which must be exact (`what` says which hardware unit).
    pub fn exact_div(&mut self, field: &'static str, value: &V, unit: i64, what: &'static str) -> Result<V> {
        match value.as_constant() {
            Some(v) if v % unit != 0 => Err(ParamError::NotMultiple { instr: self.instr, field, value: v, unit, what }),
            Some(_) => Ok(value.floor_div(&V::constant(unit))?),
            None => {
                self.assumptions.push(Assumption {
                    instr: self.instr,
                    field,
                    value: value.clone(),
                    requirement: Requirement::MultipleOf(unit),
                });
                Ok(value.floor_div(&V::constant(unit))?)
            }
        }
    }

    /// `a == b`, statically or as an assumption; `detail` explains a static mismatch.
    pub fn equal(&mut self, field: &'static str, a: &V, b: &V, detail: impl FnOnce() -> String) -> Result<()> {
        if a == b {
            return Ok(());
        }
        match (a.as_constant(), b.as_constant()) {
            (Some(_), Some(_)) => Err(ParamError::Layout { instr: self.instr, detail: detail() }),
            _ => {
                self.assumptions.push(Assumption {
                    instr: self.instr,
                    field,
                    value: a.clone(),
                    requirement: Requirement::Equals(b.clone()),
                });
                Ok(())
            }
        }
    }

    /// The byte address `base + offset·elem_bytes` (and every loop step) is aligned for `buffer`.
    pub fn aligned(
        &mut self,
        operand: &'static str,
        buffer: Buffer,
        base_bytes: &V,
        offset: &V,
        step: &V,
        elem_bytes: i64,
    ) -> Result<()> {
        let align = buffer.alignment();
        if align == 1 {
            return Ok(());
        }
        let eb = V::constant(elem_bytes);
        let address = base_bytes.add(&offset.mul(&eb)?)?;
        let step_bytes = step.mul(&eb)?;
        for (what, v) in [("address", address), ("loop step", step_bytes)] {
            match v.as_constant() {
                Some(x) if x % align != 0 => {
                    return Err(ParamError::Misaligned {
                        instr: self.instr,
                        operand,
                        buffer: buffer.name(),
                        address: x,
                        align,
                    });
                }
                Some(_) => {}
                None => self.assumptions.push(Assumption {
                    instr: self.instr,
                    field: if what == "address" { operand } else { "loop step" },
                    value: v,
                    requirement: Requirement::MultipleOf(align),
                }),
            }
        }
        Ok(())
    }
}
