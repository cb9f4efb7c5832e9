//! Element types and their C0 (elements per 32-byte C0 block), docs/layout-spec.md §A.1.
//!
//! Spellings follow the MLIR builtin types where MLIR has one (`f16`, `bf16`, `i8`, `ui8`,
//! `f8E4M3FN`, `f4E2M1FN`, ...). Ascend types MLIR lacks get a documented spelling:
//!
//! | spelling   | type                                   | bits |
//! |------------|----------------------------------------|------|
//! | `hif8`     | HiFloat8 (`hifloat8_t`)                | 8    |
//! | `f4E1M2`   | fp4 e1m2 (`float4_e1m2x2_t`, `fp4x2_e1m2_t`) | 4 |
//! | `i4`       | int4 (`int4b_t`; also the MLIR `i4`)   | 4    |
//!
//! `f64` is accepted (C0 = 4 by the formula) so that ND/DN tensors of 64-bit types can be
//! described; fractal patterns reject 64-bit types (see [`crate::ascend::frame_c0`]).
//! `i1` is accepted and stored as one byte (`bool`), so its C0 is 32 like every 8-bit type.
//! MLIR's explicitly signed `si8`..`si64` are not accepted (write `i8`..`i64`).
//!
//! Parsing is exact first, then case-insensitive (no two names collide ignoring case), and
//! also accepts the AscendC/C++ names `half`, `float`, `double`, `bfloat16_t`, `int8_t`,
//! `uint8_t`, `int16_t`, `uint16_t`, `int32_t`, `uint32_t`, `int64_t`, `uint64_t`, `bool`,
//! `int4b_t`, `hifloat8_t`, `fp8_e4m3fn_t`, `fp8_e5m2_t`, `fp8_e8m0_t`, `fp4x2_e2m1_t`,
//! `fp4x2_e1m2_t`. [`fmt::Display`] always prints the canonical (first-column) spelling.

use std::fmt;
use std::str::FromStr;

use crate::error::{AlgebraError, Result};

/// An element type of an Ascend tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    /// `i1`, stored as one byte.
    I1,
    /// `i4` (AscendC `int4b_t`).
    I4,
    I8,
    I16,
    I32,
    I64,
    UI8,
    UI16,
    UI32,
    UI64,
    F16,
    BF16,
    F32,
    F64,
    /// `f8E4M3FN` (`fp8_e4m3fn_t`).
    F8E4M3FN,
    /// `f8E5M2` (`fp8_e5m2_t`).
    F8E5M2,
    /// `f8E8M0FNU` (`fp8_e8m0_t`): the MX scale type.
    F8E8M0FNU,
    /// `hif8` (HiFloat8, `hifloat8_t`; not an MLIR builtin).
    HiF8,
    /// `f4E2M1FN` (`fp4x2_e2m1_t`).
    F4E2M1FN,
    /// `f4E1M2` (`fp4x2_e1m2_t`; not an MLIR builtin).
    F4E1M2,
}

/// Every element type, in the order the parse hint lists them.
pub const ALL_ELEMENT_TYPES: [ElementType; 20] = [
    ElementType::F16,
    ElementType::BF16,
    ElementType::F32,
    ElementType::F64,
    ElementType::I1,
    ElementType::I4,
    ElementType::I8,
    ElementType::I16,
    ElementType::I32,
    ElementType::I64,
    ElementType::UI8,
    ElementType::UI16,
    ElementType::UI32,
    ElementType::UI64,
    ElementType::F8E4M3FN,
    ElementType::F8E5M2,
    ElementType::F8E8M0FNU,
    ElementType::HiF8,
    ElementType::F4E2M1FN,
    ElementType::F4E1M2,
];

impl ElementType {
    /// The canonical spelling (MLIR builtin where one exists).
    pub fn name(self) -> &'static str {
        use ElementType::*;
        match self {
            I1 => "i1",
            I4 => "i4",
            I8 => "i8",
            I16 => "i16",
            I32 => "i32",
            I64 => "i64",
            UI8 => "ui8",
            UI16 => "ui16",
            UI32 => "ui32",
            UI64 => "ui64",
            F16 => "f16",
            BF16 => "bf16",
            F32 => "f32",
            F64 => "f64",
            F8E4M3FN => "f8E4M3FN",
            F8E5M2 => "f8E5M2",
            F8E8M0FNU => "f8E8M0FNU",
            HiF8 => "hif8",
            F4E2M1FN => "f4E2M1FN",
            F4E1M2 => "f4E1M2",
        }
    }

    /// The AscendC / C++ name accepted as an alias.
    pub fn ascendc_name(self) -> &'static str {
        use ElementType::*;
        match self {
            I1 => "bool",
            I4 => "int4b_t",
            I8 => "int8_t",
            I16 => "int16_t",
            I32 => "int32_t",
            I64 => "int64_t",
            UI8 => "uint8_t",
            UI16 => "uint16_t",
            UI32 => "uint32_t",
            UI64 => "uint64_t",
            F16 => "half",
            BF16 => "bfloat16_t",
            F32 => "float",
            F64 => "double",
            F8E4M3FN => "fp8_e4m3fn_t",
            F8E5M2 => "fp8_e5m2_t",
            F8E8M0FNU => "fp8_e8m0_t",
            HiF8 => "hifloat8_t",
            F4E2M1FN => "fp4x2_e2m1_t",
            F4E1M2 => "fp4x2_e1m2_t",
        }
    }

    /// Storage size in bits as catlass `SizeOfBits` counts it: 4 for the 4-bit types, 8 for
    /// `i1` (one byte per `bool`).
    ///
    /// Example: `bits(f16) = 16`, `bits(f4E2M1FN) = 4`, `bits(i1) = 8`.
    pub fn bits(self) -> u32 {
        use ElementType::*;
        match self {
            I4 | F4E2M1FN | F4E1M2 => 4,
            I1 | I8 | UI8 | F8E4M3FN | F8E5M2 | F8E8M0FNU | HiF8 => 8,
            I16 | UI16 | F16 | BF16 => 16,
            I32 | UI32 | F32 => 32,
            I64 | UI64 | F64 => 64,
        }
    }

    /// Elements per 32-byte C0 block: `C0 = 256 / bits` (catlass `ELE_NUM_PER_C0`, AscendC
    /// `C0_ELEMENT`, where the B4 types use a 64-byte `C0_SIZE` over two-element bytes).
    ///
    /// Example: 4-bit → 64, 8-bit → 32, 16-bit → 16, 32-bit → 8, 64-bit → 4.
    /// This is the *dtype* C0; the C0 a frame pattern uses is [`crate::ascend::frame_c0`]
    /// (2 for the MX scale patterns, 16 for L0C).
    pub fn c0(self) -> i64 {
        256 / i64::from(self.bits())
    }

    /// The bytes `elements` elements occupy: `elements · bits / 8`, rounded up for the 4-bit
    /// types (two per byte). Checked: a count whose bytes leave `i64` is an
    /// [`AlgebraError::Overflow`], never a wrapped size (buffer placement compares it with a
    /// capacity).
    ///
    /// Example: `F16.storage_bytes(100) = 200`, `F4E2M1FN.storage_bytes(3) = 2`,
    /// `F16.storage_bytes(i64::MAX / 2 + 1)` is an overflow.
    pub fn storage_bytes(self, elements: i64) -> Result<i64> {
        use crate::IndexValue;
        let bits = i64::from(self.bits());
        if bits % 8 == 0 {
            elements.mul(&(bits / 8))
        } else {
            elements.ceil_div(&(8 / bits))
        }
    }

    /// Parses a spelling (see the module documentation for the accepted names).
    ///
    /// Example: `ElementType::parse("bf16") == Ok(ElementType::BF16)`,
    /// `ElementType::parse("half") == Ok(ElementType::F16)`; `"f17"` is
    /// `AlgebraError::Unknown` with a hint listing the valid names.
    pub fn parse(text: &str) -> Result<Self> {
        let text = text.trim();
        if let Some(t) = ALL_ELEMENT_TYPES.iter().find(|t| t.name() == text || t.ascendc_name() == text) {
            return Ok(*t);
        }
        if let Some(t) = ALL_ELEMENT_TYPES
            .iter()
            .find(|t| t.name().eq_ignore_ascii_case(text) || t.ascendc_name().eq_ignore_ascii_case(text))
        {
            return Ok(*t);
        }
        let names: Vec<&str> = ALL_ELEMENT_TYPES.iter().map(|t| t.name()).collect();
        Err(AlgebraError::Unknown {
            what: "element type",
            name: text.to_string(),
            hint: format!(
                "; valid names: {} (AscendC names such as `half`, `int8_t`, `fp8_e8m0_t` are accepted too)",
                names.join(", ")
            ),
        })
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ElementType {
    type Err = AlgebraError;
    fn from_str(s: &str) -> Result<Self> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_bytes_are_checked() {
        use ElementType::*;
        assert_eq!(F16.storage_bytes(100), Ok(200));
        assert_eq!(F32.storage_bytes(7), Ok(28));
        assert_eq!(I8.storage_bytes(5), Ok(5));
        assert_eq!(F4E2M1FN.storage_bytes(3), Ok(2));
        assert_eq!(F16.storage_bytes(i64::MAX / 2), Ok(i64::MAX - 1));
        // The L1 NZ f16 (2147483648, 2147483648) buffer: 2^62 elements, 2^63 bytes.
        assert!(matches!(F16.storage_bytes(1 << 62), Err(AlgebraError::Overflow { .. })));
        assert!(matches!(F64.storage_bytes(i64::MAX / 4), Err(AlgebraError::Overflow { .. })));
    }

    #[test]
    fn c0_per_bit_class() {
        // docs/layout-spec.md §A.1 table
        for (name, bits, c0) in [
            ("f4E2M1FN", 4, 64),
            ("f4E1M2", 4, 64),
            ("i4", 4, 64),
            ("i8", 8, 32),
            ("ui8", 8, 32),
            ("f8E4M3FN", 8, 32),
            ("f8E5M2", 8, 32),
            ("hif8", 8, 32),
            ("i1", 8, 32),
            ("f8E8M0FNU", 8, 32),
            ("f16", 16, 16),
            ("bf16", 16, 16),
            ("i16", 16, 16),
            ("ui16", 16, 16),
            ("f32", 32, 8),
            ("i32", 32, 8),
            ("ui32", 32, 8),
            ("i64", 64, 4),
            ("ui64", 64, 4),
            ("f64", 64, 4),
        ] {
            let t = ElementType::parse(name).unwrap();
            assert_eq!(t.bits(), bits, "{name}");
            assert_eq!(t.c0(), c0, "{name}");
            assert_eq!(t.to_string(), name, "canonical spelling");
        }
    }

    #[test]
    fn every_type_round_trips_through_both_spellings() {
        for t in ALL_ELEMENT_TYPES {
            assert_eq!(ElementType::parse(t.name()).unwrap(), t);
            assert_eq!(ElementType::parse(t.ascendc_name()).unwrap(), t);
            assert_eq!(t.name().parse::<ElementType>().unwrap(), t);
        }
        assert_eq!(ElementType::parse("F16").unwrap(), ElementType::F16);
        assert_eq!(ElementType::parse("f8e4m3fn").unwrap(), ElementType::F8E4M3FN);
        assert_eq!(ElementType::parse(" bf16 ").unwrap(), ElementType::BF16);
    }

    #[test]
    fn unknown_names_list_the_valid_ones() {
        for bad in ["f17", "si8", "", "fp16x"] {
            match ElementType::parse(bad) {
                Err(AlgebraError::Unknown { what, hint, .. }) => {
                    assert_eq!(what, "element type");
                    assert!(hint.contains("f8E8M0FNU") && hint.contains("hif8"), "{hint}");
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
