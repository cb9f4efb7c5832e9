//! IEEE binary16 (`f16`) and bfloat16 (`bf16`) as bit patterns, converted to and from `f32` by
//! the `half` crate. `f32 → f16/bf16` rounds to nearest, ties to even; NaNs stay NaNs (quiet,
//! sign kept); overflow gives ±infinity. `f16/bf16 → f32` is exact. The tests check all 65536
//! patterns of each against definitions written here independently (f64 arithmetic).

/// An IEEE 754 binary16 value, stored as its bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct F16(pub u16);

/// A bfloat16 value (the upper half of an `f32`), stored as its bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Bf16(pub u16);

impl F16 {
    pub const fn from_bits(bits: u16) -> F16 {
        F16(bits)
    }
    pub const fn to_bits(self) -> u16 {
        self.0
    }
    pub fn from_f32(value: f32) -> F16 {
        F16(f32_to_f16_bits(value))
    }
    pub fn to_f32(self) -> f32 {
        f16_bits_to_f32(self.0)
    }
    pub fn is_nan(self) -> bool {
        ::half::f16::from_bits(self.0).is_nan()
    }
}

impl Bf16 {
    pub const fn from_bits(bits: u16) -> Bf16 {
        Bf16(bits)
    }
    pub const fn to_bits(self) -> u16 {
        self.0
    }
    pub fn from_f32(value: f32) -> Bf16 {
        Bf16(f32_to_bf16_bits(value))
    }
    pub fn to_f32(self) -> f32 {
        ::half::bf16::from_bits(self.0).to_f32()
    }
    pub fn is_nan(self) -> bool {
        ::half::bf16::from_bits(self.0).is_nan()
    }
}

impl std::fmt::Display for F16 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.to_f32().fmt(f)
    }
}

impl std::fmt::Display for Bf16 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.to_f32().fmt(f)
    }
}

/// Exact widening of binary16 bits to `f32`.
pub fn f16_bits_to_f32(bits: u16) -> f32 {
    ::half::f16::from_bits(bits).to_f32()
}

/// `f32` to binary16 bits, round to nearest even.
pub fn f32_to_f16_bits(value: f32) -> u16 {
    ::half::f16::from_f32(value).to_bits()
}

/// `f32` to bfloat16 bits, round to nearest even.
pub fn f32_to_bf16_bits(value: f32) -> u16 {
    ::half::bf16::from_f32(value).to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference: the exact value of an f16 bit pattern, computed in f64 from the definition.
    fn f16_reference(bits: u16) -> f64 {
        let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
        let exponent = ((bits >> 10) & 0x1f) as i32;
        let mantissa = (bits & 0x3ff) as f64;
        match exponent {
            0 => sign * mantissa * 2f64.powi(-24),
            0x1f if mantissa == 0.0 => sign * f64::INFINITY,
            0x1f => f64::NAN,
            _ => sign * (1.0 + mantissa / 1024.0) * 2f64.powi(exponent - 15),
        }
    }

    #[test]
    fn every_f16_widens_exactly_and_round_trips() {
        for bits in 0..=u16::MAX {
            let value = f16_bits_to_f32(bits);
            let reference = f16_reference(bits);
            assert_eq!(F16(bits).is_nan(), reference.is_nan(), "{bits:#06x}");
            if reference.is_nan() {
                assert!(value.is_nan(), "{bits:#06x}");
                let back = f32_to_f16_bits(value);
                assert!(f16_reference(back).is_nan(), "{bits:#06x} -> {back:#06x}");
                assert_eq!(back & 0x8000, bits & 0x8000);
            } else {
                assert_eq!(value as f64, reference, "{bits:#06x}");
                assert_eq!(f32_to_f16_bits(value), bits, "{bits:#06x}");
            }
        }
    }

    /// Reference rounding: pick the nearest of the two neighbouring f16 values (by exact f64
    /// distance), ties to the even bit pattern.
    fn f16_round_reference(x: f32) -> u16 {
        let x = x as f64;
        let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
        let a = x.abs();
        // Largest finite is 65504; halfway to the next (65536 would be 2^16) is 65520.
        if a >= 65520.0 {
            return sign | 0x7c00;
        }
        let mut lo = 0u16;
        // Binary search for the largest non-negative pattern with value <= a.
        let mut hi = 0x7bffu16;
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if f16_reference(mid) <= a {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let below = lo;
        if f16_reference(below) == a || below == 0x7bff {
            return sign | below;
        }
        let above = below + 1;
        let d_below = a - f16_reference(below);
        let d_above = f16_reference(above) - a;
        let pick = if d_below < d_above {
            below
        } else if d_above < d_below {
            above
        } else if below & 1 == 0 {
            below
        } else {
            above
        };
        sign | pick
    }

    #[test]
    fn f32_to_f16_rounds_to_nearest_even() {
        // Midpoints and their neighbours between every pair of consecutive f16 values, plus
        // a deterministic sweep over f32 bit patterns.
        for bits in 0..0x7bffu16 {
            let a = f16_bits_to_f32(bits);
            let b = f16_bits_to_f32(bits + 1);
            let mid = ((a as f64 + b as f64) / 2.0) as f32; // exact in f32
            for x in [mid, f32::from_bits(mid.to_bits() - 1), f32::from_bits(mid.to_bits() + 1)] {
                for s in [x, -x] {
                    assert_eq!(f32_to_f16_bits(s), f16_round_reference(s), "{s:e}");
                }
            }
        }
        let mut state = 0x1234_5678u32;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let x = f32::from_bits(state);
            if x.is_nan() {
                continue;
            }
            assert_eq!(f32_to_f16_bits(x), f16_round_reference(x), "{x:e}");
        }
        assert_eq!(f32_to_f16_bits(65519.0), 0x7bff);
        assert_eq!(f32_to_f16_bits(65520.0), 0x7c00);
        assert_eq!(f32_to_f16_bits(2f32.powi(-25)), 0); // tie with zero → even (zero)
        assert_eq!(f32_to_f16_bits(2f32.powi(-25) * 1.5), 1);
        assert_eq!(f32_to_f16_bits(-0.0), 0x8000);
    }

    #[test]
    fn every_bf16_widens_exactly_and_rounds_to_nearest_even() {
        for bits in 0..=u16::MAX {
            // The definition: bf16 is the upper half of an f32.
            let defined = f32::from_bits((bits as u32) << 16);
            let value = Bf16(bits).to_f32();
            if defined.is_nan() {
                assert!(value.is_nan() && Bf16(bits).is_nan(), "{bits:#06x}");
                let back = f32_to_bf16_bits(value);
                assert!(f32::from_bits((back as u32) << 16).is_nan(), "{bits:#06x} -> {back:#06x}");
                continue;
            }
            assert!(!Bf16(bits).is_nan(), "{bits:#06x}");
            assert_eq!(value.to_bits(), defined.to_bits(), "{bits:#06x}");
            assert_eq!(f32_to_bf16_bits(value), bits, "{bits:#06x}");
            // The midpoint to the next pattern (same sign) rounds to the even one of the two.
            let next = bits.wrapping_add(1);
            if bits & 0x7fff < 0x7f80 && next & 0x7fff <= 0x7f80 {
                let mid = f32::from_bits(((bits as u32) << 16) | 0x8000);
                let expected = if bits & 1 == 0 { bits } else { next };
                assert_eq!(f32_to_bf16_bits(mid), expected, "mid {bits:#06x}");
                let above = f32::from_bits(((bits as u32) << 16) | 0x8001);
                assert_eq!(f32_to_bf16_bits(above), next);
                let below = f32::from_bits(((bits as u32) << 16) | 0x7fff);
                assert_eq!(f32_to_bf16_bits(below), bits);
            }
        }
        assert_eq!(f32_to_bf16_bits(f32::MAX), 0x7f80);
    }
}
