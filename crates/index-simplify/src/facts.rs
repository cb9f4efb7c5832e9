//! Declared facts about symbols: an inclusive range and a known divisor.
//!
//! Facts come from the IR: loop bounds (`0 ≤ i < 16` → `range(i, 0, 15)`), layout shapes
//! (a tile-local row of a 16-row fractal is in `[0, 15]`), tile origins and dynamic sizes known
//! to be multiples (`n` divisible by 16). A symbol without facts is **unknown**: its range is
//! `(−∞, +∞)` and no range-conditional rule can fire on it.

use std::collections::BTreeMap;

/// What is known about one symbol. `None` bounds are infinite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SymFact {
    pub lo: Option<i64>,
    pub hi: Option<i64>,
    /// The symbol is a multiple of this positive number (plus [`SymFact::residue`]).
    pub divisor: Option<i64>,
    /// With a divisor `d`: the symbol is `≡ residue (mod d)` (0 = a multiple of `d`). Ignored
    /// without a divisor. Set by [`Facts::congruent`]; a loop `for i = 3 to n step 4` gives
    /// `i ≡ 3 (mod 4)`.
    pub residue: i64,
}

/// Facts for a set of symbols.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    syms: BTreeMap<String, SymFact>,
}

/// Why a set of facts cannot describe any point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InconsistentFact {
    pub symbol: String,
    pub detail: String,
}

impl Facts {
    pub fn new() -> Self {
        Facts::default()
    }

    /// `lo ≤ name ≤ hi` (inclusive). Builder style: `Facts::new().range("i", 0, 15)`.
    pub fn range(mut self, name: &str, lo: i64, hi: i64) -> Self {
        let f = self.syms.entry(name.to_string()).or_default();
        f.lo = Some(lo);
        f.hi = Some(hi);
        self
    }

    /// `name ≥ lo` (for example a non-negative dynamic size).
    pub fn at_least(mut self, name: &str, lo: i64) -> Self {
        self.syms.entry(name.to_string()).or_default().lo = Some(lo);
        self
    }

    /// `name ≤ hi`.
    pub fn at_most(mut self, name: &str, hi: i64) -> Self {
        self.syms.entry(name.to_string()).or_default().hi = Some(hi);
        self
    }

    /// `name` is a multiple of `d` (`d > 0`; other values are reported by [`Facts::check`]).
    pub fn divisible(mut self, name: &str, d: i64) -> Self {
        self.syms.entry(name.to_string()).or_default().divisor = Some(d);
        self
    }

    /// `name ≡ residue (mod modulus)` (`modulus > 0`; other values are reported by
    /// [`Facts::check`]). `congruent(n, 0, d)` is [`Facts::divisible`]`(n, d)`.
    pub fn congruent(mut self, name: &str, residue: i64, modulus: i64) -> Self {
        let f = self.syms.entry(name.to_string()).or_default();
        f.divisor = Some(modulus);
        f.residue = if modulus > 0 { residue.rem_euclid(modulus) } else { residue };
        self
    }

    /// Sets the whole fact of one symbol.
    pub fn set(&mut self, name: &str, fact: SymFact) {
        self.syms.insert(name.to_string(), fact);
    }

    pub fn get(&self, name: &str) -> Option<&SymFact> {
        self.syms.get(name)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &SymFact)> {
        self.syms.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Checks that every symbol has at least one admissible value: `lo ≤ hi`, a positive
    /// divisor, and a multiple of the divisor inside the range.
    pub fn check(&self) -> Result<(), InconsistentFact> {
        for (name, f) in &self.syms {
            let err = |detail: String| Err(InconsistentFact { symbol: name.clone(), detail });
            if let Some(d) = f.divisor {
                if d <= 0 {
                    return err(format!("divisor {d} is not positive"));
                }
            }
            if let (Some(lo), Some(hi)) = (f.lo, f.hi) {
                if lo > hi {
                    return err(format!("empty range [{lo}, {hi}]"));
                }
                if let Some(d) = f.divisor {
                    // Smallest value ≡ residue (mod d) that is ≥ lo, in i128 so it cannot overflow.
                    let (lo, hi, d, r) = (lo as i128, hi as i128, d as i128, f.residue as i128);
                    let first = lo + (r - lo).rem_euclid(d);
                    if first > hi {
                        return err(format!("no value ≡ {r} (mod {d}) in [{lo}, {hi}]"));
                    }
                }
            }
        }
        Ok(())
    }
}
