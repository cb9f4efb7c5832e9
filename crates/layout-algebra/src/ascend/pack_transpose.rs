//! The register transpose of the packer's transposing copies (DN, ZN, NN): a square of `B × B`
//! elements with lines of 16 bytes (`B` = 16, 8, 4, 2 for 1-, 2-, 4-, 8-byte elements), read
//! as `B` lines, transposed in SSE2 registers, written as `B` lines.
//!
//! A transpose of `2^k × 2^k` elements is `k` rounds of one interleave (unpack lo/hi of lines
//! `x` and `x + B/2` into lines `2x`, `2x + 1`): each round rotates the bits of the element
//! index `(row, column)` by one, so `k` rounds swap row and column. SSE2 is part of x86-64, so
//! no feature detection is needed; other targets move the elements one by one.

use super::pack::PackWord;

/// Transposes one square: element `c` of source line `k` (at `src_at[k]`) goes to element `k`
/// of destination line `c` (at `dst_at[c]`).
///
/// # Panics
/// If a line leaves its slice (the callers' plans keep them inside), or `B · size_of::<T>()`
/// is not 16.
#[inline(always)]
pub(super) fn square<T: PackWord, const B: usize>(src: &[T], src_at: &[usize; B], dst: &mut [T], dst_at: &[usize; B]) {
    assert_eq!(B * std::mem::size_of::<T>(), 16, "a square line is 16 bytes");
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // One interleave round over all lines (`$lo`/`$hi`: unpack of one element width).
        macro_rules! round {
            ($r:ident, $lo:ident, $hi:ident) => {{
                let old = $r;
                for x in 0..B / 2 {
                    // Safety: SSE2 is in the x86-64 baseline.
                    unsafe {
                        $r[2 * x] = $lo(old[x], old[x + B / 2]);
                        $r[2 * x + 1] = $hi(old[x], old[x + B / 2]);
                    }
                }
            }};
        }
        // Safety: SSE2 is in the x86-64 baseline.
        let mut r = [unsafe { _mm_setzero_si128() }; B];
        for (line, &at) in r.iter_mut().zip(src_at) {
            let s = &src[at..at + B];
            // Safety: `s` is 16 readable bytes (checked slice); unaligned load; `T: PackWord`
            // has no padding bytes.
            *line = unsafe { _mm_loadu_si128(s.as_ptr() as *const __m128i) };
        }
        match std::mem::size_of::<T>() {
            1 => {
                round!(r, _mm_unpacklo_epi8, _mm_unpackhi_epi8);
                round!(r, _mm_unpacklo_epi8, _mm_unpackhi_epi8);
                round!(r, _mm_unpacklo_epi8, _mm_unpackhi_epi8);
                round!(r, _mm_unpacklo_epi8, _mm_unpackhi_epi8);
            }
            2 => {
                round!(r, _mm_unpacklo_epi16, _mm_unpackhi_epi16);
                round!(r, _mm_unpacklo_epi16, _mm_unpackhi_epi16);
                round!(r, _mm_unpacklo_epi16, _mm_unpackhi_epi16);
            }
            4 => {
                round!(r, _mm_unpacklo_epi32, _mm_unpackhi_epi32);
                round!(r, _mm_unpacklo_epi32, _mm_unpackhi_epi32);
            }
            _ => round!(r, _mm_unpacklo_epi64, _mm_unpackhi_epi64),
        }
        for (line, &at) in r.iter().zip(dst_at) {
            let d = &mut dst[at..at + B];
            // Safety: `d` is 16 writable bytes (checked slice); every bit pattern is a valid
            // `T: PackWord`.
            unsafe { _mm_storeu_si128(d.as_mut_ptr() as *mut __m128i, *line) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    square_by_elements(src, src_at, dst, dst_at);
}

/// [`square`] one element at a time (other targets; the tests' reference).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(super) fn square_by_elements<T: Copy, const B: usize>(
    src: &[T],
    src_at: &[usize; B],
    dst: &mut [T],
    dst_at: &[usize; B],
) {
    for (k, &s) in src_at.iter().enumerate() {
        for (c, &d) in dst_at.iter().enumerate() {
            dst[d + k] = src[s + c];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every width: the register transpose equals the element-by-element one, on lines at
    /// scattered, unaligned offsets, and leaves the rest of the destination alone.
    #[test]
    fn register_transpose_matches_elements() {
        fn check<T: PackWord + PartialEq + std::fmt::Debug, const B: usize>(value: impl Fn(usize) -> T) {
            let src: Vec<T> = (0..40 * B).map(&value).collect();
            let src_at: [usize; B] = std::array::from_fn(|k| 3 + k * (2 * B + 1));
            let dst_at: [usize; B] = std::array::from_fn(|c| 5 + (B - 1 - c) * (B + 3));
            let len = 8 + B * (B + 3) + B;
            let mut want = vec![value(999_999); len];
            let mut got = want.clone();
            square_by_elements(&src, &src_at, &mut want, &dst_at);
            square(&src, &src_at, &mut got, &dst_at);
            assert_eq!(got, want, "B = {B}");
            // A transpose: element c of line k is element k of line c.
            assert_eq!(got[dst_at[1]], src[src_at[0] + 1]);
            assert_eq!(got[dst_at[0] + 1], src[src_at[1]]);
        }
        check::<u8, 16>(|k| (k * 7 % 251) as u8);
        check::<u16, 8>(|k| (k * 7919 % 65521) as u16);
        check::<u32, 4>(|k| (k as u32).wrapping_mul(2_654_435_761));
        check::<u64, 2>(|k| (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
}
