//! Reading the values of a z3 model: `Int` symbols are unbounded, so a counterexample may hold
//! values outside `i64` (an address proof's overflowing address is above 2^63). Every value is
//! kept as an exact decimal integer; `i64` is one view of it.

use std::fmt;

/// One symbol's value in a model: an integer of any size, in canonical decimal (`-` sign, no
/// leading zeros), exactly as the solver gave it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ModelValue(String);

impl ModelValue {
    /// The value when it fits `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    /// The canonical decimal text.
    pub fn decimal(&self) -> &str {
        &self.0
    }

    /// From decimal digits and a sign (`None` when `digits` is empty or not all digits).
    fn from_digits(negative: bool, digits: &str) -> Option<ModelValue> {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = digits.trim_start_matches('0');
        Some(match (digits.is_empty(), negative) {
            (true, _) => ModelValue("0".to_string()),
            (false, true) => ModelValue(format!("-{digits}")),
            (false, false) => ModelValue(digits.to_string()),
        })
    }
}

impl From<i64> for ModelValue {
    fn from(v: i64) -> Self {
        ModelValue(v.to_string())
    }
}

impl fmt::Display for ModelValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads one `get-value` answer for `name`: `((|x| #x00000000000000ff))` (a 64-bit vector,
/// read as two's complement), `((|x| 18446744073709551616))` or `((|x| (- 4)))` (an integer of
/// any size).
pub fn parse_value(line: &str, name: &str) -> Option<ModelValue> {
    let rest = line.strip_prefix("((")?.strip_prefix(name)?.trim();
    let rest = rest.strip_suffix("))")?.trim();
    if let Some(hex) = rest.strip_prefix("#x") {
        return (hex.len() == 16).then(|| u64::from_str_radix(hex, 16).ok()).flatten().map(|u| (u as i64).into());
    }
    if let Some(neg) = rest.strip_prefix("(-").and_then(|r| r.strip_suffix(')')) {
        return ModelValue::from_digits(true, neg.trim());
    }
    ModelValue::from_digits(false, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_any_size_are_read_exactly() {
        let read = |text: &str| parse_value(&format!("((|x| {text}))"), "|x|").map(|v| v.to_string());
        assert_eq!(read("#xffffffffffffffff").as_deref(), Some("-1"));
        assert_eq!(read("#x8000000000000000").as_deref(), Some("-9223372036854775808"));
        assert_eq!(read("9223372036854775808").as_deref(), Some("9223372036854775808"));
        assert_eq!(
            read("(- 170141183460469231731687303715884105729)").as_deref(),
            Some("-170141183460469231731687303715884105729")
        );
        assert_eq!(read("(- 0)").as_deref(), Some("0"));
        assert_eq!(read("007").as_deref(), Some("7"));
        assert_eq!(read("#xff"), None, "a bit-vector that is not 64 bits wide");
        assert_eq!(read("1.5"), None);
        assert_eq!(read("(- )"), None);
        assert_eq!(parse_value("((|y| 3))", "|x|"), None);
    }

    #[test]
    fn the_i64_view_is_exact_at_the_edges() {
        let v = |s: &str| parse_value(&format!("((|x| {s}))"), "|x|").unwrap();
        assert_eq!(v("9223372036854775807").as_i64(), Some(i64::MAX));
        assert_eq!(v("9223372036854775808").as_i64(), None);
        assert_eq!(v("(- 9223372036854775808)").as_i64(), Some(i64::MIN));
        assert_eq!(v("(- 9223372036854775809)").as_i64(), None);
    }
}
