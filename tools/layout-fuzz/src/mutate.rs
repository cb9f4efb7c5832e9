//! The mutator: a few stacked edits of a seed input, drawn from a seeded [`Rng`].
//!
//! Edits are byte-level (flips, deletions, duplications, splices of another corpus entry) and
//! token-level (insert or overwrite with a token of the target's syntax, swap an integer for an
//! extreme one), so most mutants stay close to valid syntax and reach past the first error.

use layout_npy::random::Rng;

/// Integers at the edges of `i64`, `i32`, `u32`, and the sizes the hardware uses.
pub const INTEGERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "16",
    "32",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967296",
    "4611686018427387904",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "99999999999999999999",
];

/// Multi-byte and odd characters: parsers slice text by bytes.
pub const ODD_TEXT: &[&str] = &["é", "€", "\u{3000}", "\u{feff}", "\u{1F600}", "\t", "\0", "\\", "\""];

pub struct Mutator {
    pub rng: Rng,
    /// Tokens of the target's syntax.
    pub tokens: Vec<Vec<u8>>,
    /// Inputs are cut to this many bytes.
    pub max_len: usize,
}

impl Mutator {
    pub fn new(seed: u64, tokens: Vec<Vec<u8>>, max_len: usize) -> Self {
        Mutator { rng: Rng::new(seed), tokens, max_len }
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.rng.below(n as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.rng.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A token; a quarter of the time only its first bytes (`orig`), which parsers that
    /// look ahead for a keyword must also handle.
    fn token(&mut self) -> Vec<u8> {
        let mut token = self.whole_token();
        if token.len() > 1 && self.chance(25) {
            let keep = 1 + self.below(token.len() - 1);
            token.truncate(keep);
        }
        token
    }

    fn whole_token(&mut self) -> Vec<u8> {
        match self.below(10) {
            0..=1 => self.pick(INTEGERS).as_bytes().to_vec(),
            2 => self.pick(ODD_TEXT).as_bytes().to_vec(),
            _ if !self.tokens.is_empty() => {
                let i = self.below(self.tokens.len());
                self.tokens[i].clone()
            }
            _ => self.pick(INTEGERS).as_bytes().to_vec(),
        }
    }

    /// A random span `[start, end)` of `len` bytes, at most `max` long.
    fn span(&mut self, len: usize, max: usize) -> (usize, usize) {
        let start = self.below(len + 1);
        let end = start + self.below((len - start).min(max) + 1);
        (start, end)
    }

    /// One edit of `input`; `others` are the corpus entries a splice may draw from.
    pub fn edit(&mut self, input: &mut Vec<u8>, others: &[Vec<u8>]) {
        let len = input.len();
        match self.below(9) {
            0 if len > 0 => {
                let at = self.below(len);
                input[at] ^= 1 << self.below(8);
            }
            1 if len > 0 => {
                let at = self.below(len);
                input[at] = *self.pick(b"()[]{}<>,:?-0123456789 \"'\n\x00\xff");
            }
            2 | 3 => {
                let at = self.below(len + 1);
                let token = self.token();
                input.splice(at..at, token);
            }
            4 => {
                let (start, end) = self.span(len, 16);
                let token = self.token();
                input.splice(start..end, token);
            }
            5 => {
                let (start, end) = self.span(len, 32);
                input.drain(start..end);
            }
            6 => {
                let (start, end) = self.span(len, 64);
                let copy = input[start..end].to_vec();
                let at = self.below(len + 1);
                input.splice(at..at, copy);
            }
            7 if !others.is_empty() => {
                let other = self.pick(others).clone();
                let (from, to) = self.span(other.len(), 256);
                let (start, end) = self.span(len, 256);
                input.splice(start..end, other[from..to].iter().copied());
            }
            _ => self.replace_integer(input),
        }
    }

    /// Replaces one run of decimal digits with an extreme integer or a near one (n ± 1, 2n,
    /// n / 2, n + 16: sizes that stop being aligned or fitting).
    pub fn replace_integer(&mut self, input: &mut Vec<u8>) {
        let runs = digit_runs(input);
        if runs.is_empty() {
            return;
        }
        let (start, end) = *self.pick(&runs);
        let old: u128 = std::str::from_utf8(&input[start..end]).ok().and_then(|d| d.parse().ok()).unwrap_or(0);
        let value = match self.below(6) {
            0 => (old + 1).to_string(),
            1 => old.saturating_sub(1).to_string(),
            2 => (old.saturating_mul(2)).to_string(),
            3 => (old / 2).to_string(),
            4 => (old + 16).to_string(),
            _ => self.pick(INTEGERS).to_string(),
        };
        input.splice(start..end, value.into_bytes());
    }

    /// A mutant of `seed`: one to four stacked edits, cut to `max_len`.
    pub fn mutant(&mut self, seed: &[u8], others: &[Vec<u8>]) -> Vec<u8> {
        let mut input = seed.to_vec();
        for _ in 0..1 + self.below(4) {
            self.edit(&mut input, others);
        }
        input.truncate(self.max_len);
        input
    }
}

/// The `[start, end)` byte ranges of the maximal runs of ASCII digits.
pub fn digit_runs(input: &[u8]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < input.len() {
        if input[i].is_ascii_digit() {
            let start = i;
            while i < input.len() && input[i].is_ascii_digit() {
                i += 1;
            }
            runs.push((start, i));
        } else {
            i += 1;
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_mutants() {
        let seeds = vec![b"((16,7),(16,7)):((16,256),(1,1792))".to_vec(), b"frame(NZ,f16,100,100)".to_vec()];
        let run = |seed| {
            let mut m = Mutator::new(seed, vec![b"origin".to_vec()], 64);
            (0..200).map(|i| m.mutant(&seeds[i % 2], &seeds)).collect::<Vec<_>>()
        };
        let (a, b, c) = (run(1), run(1), run(2));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.iter().all(|m| m.len() <= 64));
        // Mutants differ from their seeds most of the time.
        assert!(a.iter().enumerate().filter(|(i, m)| **m != seeds[i % 2]).count() > 150);
    }

    #[test]
    fn digit_runs_and_integer_replacement() {
        assert_eq!(digit_runs(b"(16,7):x123"), vec![(1, 3), (4, 5), (8, 11)]);
        let mut m = Mutator::new(5, vec![], 4096);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let mut input = b"a8b".to_vec();
            m.replace_integer(&mut input);
            let text = String::from_utf8(input).unwrap();
            assert!(text.starts_with('a') && text.ends_with('b'), "{text}");
            seen.insert(text[1..text.len() - 1].to_string());
        }
        for near in ["9", "7", "16", "4", "24"] {
            assert!(seen.contains(near), "{near} in {seen:?}");
        }
        assert!(seen.iter().any(|v| v.len() > 9 && INTEGERS.contains(&v.as_str())), "extremes drawn too: {seen:?}");
    }
}
