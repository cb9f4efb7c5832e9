//! The deterministic generator of the algebra's property tests (xorshift64*, no dependency),
//! shared by the test crates through `#[path]`: every brute-force test draws from the same
//! sequence for the same seed.
#![allow(dead_code)] // each test crate uses part of it

/// xorshift64* over a non-zero state.
pub struct Rng(pub u64);

impl Rng {
    /// A generator whose state is `seed` spread over the word (never zero).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`), in the integer type of `n`.
    pub fn below<T: TryFrom<u64> + TryInto<u64>>(&mut self, n: T) -> T {
        let n: u64 = n.try_into().ok().filter(|&n| n > 0).expect("below(n) needs n > 0");
        T::try_from(self.next() % n).ok().expect("a value below n fits n's type")
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    /// True with probability `p` percent.
    pub fn percent(&mut self, p: u64) -> bool {
        self.below(100u64) < p
    }

    /// One of `xs`.
    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
}
