//! Tile shapes and the on-chip buffer budget they need: one formula per buffer, checked against
//! the capacities of `layout_algebra::ascend::MemorySpace::capacity` (the one table of them).
//!
//! Example (f16 → f32 on a2, L1 (128,256,256), L0 K 64, 2 stages): L1 holds two A panels
//! 128 × 256 and two B panels 256 × 256, 2 · (32768 + 65536) · 2 B = 384 KiB of 512; L0A two
//! 128 × 64 slices (32 KiB of 64), L0B two 64 × 256 (64 KiB of 64), L0C one 128 × 256 f32 tile
//! (128 KiB of 128).

use crate::error::{GenError, Result};
use crate::spec::Tiles;
use layout_algebra::ascend::{ElementType, MemorySpace, Target};

/// Bytes of each on-chip buffer the kernel allocates, in `(memory, name, bytes)` order.
pub fn footprint(tiles: &Tiles, input: ElementType, acc: ElementType) -> Result<Vec<(MemorySpace, &'static str, i64)>> {
    let Tiles { m1, n1, k1, k0, stages } = *tiles;
    let bytes = |t: ElementType, elems: i64| t.storage_bytes(elems).map_err(GenError::from);
    Ok(vec![
        (MemorySpace::L1, "L1 (A and B panels)", stages * (bytes(input, m1 * k1)? + bytes(input, k1 * n1)?)),
        (MemorySpace::L0a, "L0A", stages * bytes(input, m1 * k0)?),
        (MemorySpace::L0b, "L0B", stages * bytes(input, k0 * n1)?),
        (MemorySpace::L0c, "L0C", bytes(acc, m1 * n1)?),
    ])
}

/// The issue's fixed tiles: L1 (128, 256, 256), L0 K 64, with `stages` (the untuned default
/// where they fit, and always a tuning candidate where they fit).
pub fn fixed(stages: i64) -> Tiles {
    Tiles { m1: 128, n1: 256, k1: 256, k0: 64, stages }
}

/// The K granule: a K slice must cover whole fractals on both operands (16 rows, C0 columns).
pub fn k_granule(input: ElementType) -> i64 {
    let c0 = input.c0();
    // lcm(16, C0); C0 is a power of two.
    c0.max(16)
}

/// Checks alignment (m1, n1 multiples of 16, k0 of the K granule, k1 of k0) and the budget.
pub fn check(tiles: &Tiles, input: ElementType, acc: ElementType, target: Target) -> Result<()> {
    let g = k_granule(input);
    let bad = |reason: String| Err(GenError::Spec { what: "tiles", reason });
    if tiles.m1 <= 0 || tiles.n1 <= 0 || tiles.m1 % 16 != 0 || tiles.n1 % 16 != 0 {
        return bad(format!("{tiles}: m1 and n1 must be positive multiples of 16"));
    }
    if tiles.k0 <= 0 || tiles.k0 % g != 0 || tiles.k1 % tiles.k0 != 0 || tiles.k1 <= 0 {
        return bad(format!("{tiles}: k0 must be a positive multiple of {g} and k1 a multiple of k0"));
    }
    if !(1..=2).contains(&tiles.stages) {
        return bad(format!("{tiles}: 1 or 2 stages"));
    }
    for (memory, buffer, need) in footprint(tiles, input, acc)? {
        let capacity = memory.capacity(target).unwrap_or(i64::MAX);
        if need > capacity {
            let (tiles, target) = (tiles.to_string(), target.name());
            return Err(GenError::Budget { tiles, target, buffer, need, capacity });
        }
    }
    Ok(())
}

/// Every tile shape from the usual menu (powers of two, as catlass's tile shapes are) that fits
/// the buffers of `target`, largest C tile first.
pub fn candidates(input: ElementType, acc: ElementType, target: Target) -> Vec<Tiles> {
    let mut out = Vec::new();
    for m1 in [16, 32, 64, 128, 256] {
        for n1 in [16, 32, 64, 128, 256, 512] {
            for k0 in [16, 32, 64, 128, 256] {
                for k1_factor in [1, 2, 4, 8] {
                    for stages in [2, 1] {
                        let t = Tiles { m1, n1, k1: k0 * k1_factor, k0, stages };
                        if check(&t, input, acc, target).is_ok() {
                            out.push(t);
                        }
                    }
                }
            }
        }
    }
    out.sort_by_key(|t| (-(t.m1 * t.n1), -t.k1, -t.k0, -t.stages));
    out
}

/// The shapes worth modelling for an `M × N × K` problem (the tuner's menu, a subset of
/// [`candidates`], small because each costs a lowering and a simulation): the C tiles of the
/// largest area that fits (no larger than the problem rounded up to a power of two, no
/// smaller than 64 unless the problem is), L0 K slices of 64 and 128, L1
/// slices of one, two or four L0 slices, `stages` fixed. Largest C tile first.
pub fn tuning_menu(input: ElementType, acc: ElementType, target: Target, sizes: [i64; 3], stages: i64) -> Vec<Tiles> {
    let up = |v: i64| (v.max(1) as u64).next_power_of_two() as i64;
    let (m, n, k) = (up(sizes[0]).max(16), up(sizes[1]).max(16), up(sizes[2]));
    let g = k_granule(input);
    let fits: Vec<Tiles> = candidates(input, acc, target)
        .into_iter()
        .filter(|t| t.stages == stages)
        .filter(|t| t.m1 <= m && t.m1 >= m.min(64) && t.n1 <= n && t.n1 >= n.min(64))
        .filter(|t| [64, 128].contains(&t.k0) && t.k0 % g == 0 && t.k1 / t.k0 <= 4 && t.k1 <= k.max(t.k0))
        .collect();
    let mut areas: Vec<i64> = fits.iter().map(|t| t.m1 * t.n1).collect();
    areas.sort_unstable_by(|a, b| b.cmp(a));
    areas.dedup();
    areas.truncate(1);
    fits.into_iter().filter(|t| areas.contains(&(t.m1 * t.n1))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ElementType as E;

    #[test]
    fn the_issue_tiles_fit_a2_exactly_at_l0b_and_l0c() {
        let t = Tiles { m1: 128, n1: 256, k1: 256, k0: 64, stages: 2 };
        let f = footprint(&t, E::F16, E::F32).unwrap();
        let bytes: Vec<i64> = f.iter().map(|x| x.2).collect();
        assert_eq!(bytes, vec![2 * (128 * 256 + 256 * 256) * 2, 2 * 128 * 64 * 2, 2 * 64 * 256 * 2, 128 * 256 * 4]);
        check(&t, E::F16, E::F32, Target::A2).unwrap();
        // One more K column of L0B does not fit.
        let wide = Tiles { k0: 128, k1: 256, ..t };
        let e = check(&wide, E::F16, E::F32, Target::A2).unwrap_err();
        assert!(
            matches!(e, GenError::Budget { buffer: "L0A", need: 65536, .. } | GenError::Budget { buffer: "L0B", .. }),
            "{e}"
        );
    }

    /// f32 holds the fixed tiles single-buffered only: two 128 x 256 + 256 x 256 f32 panel
    /// pairs are 768 KiB of L1's 512, two 64 x 256 f32 L0B slices 128 KiB of 64.
    #[test]
    fn the_fixed_tiles_fit_f16_double_and_f32_single() {
        for target in Target::ALL {
            check(&fixed(2), E::F16, E::F32, target).unwrap();
            check(&fixed(1), E::F32, E::F32, target).unwrap();
            assert!(matches!(check(&fixed(2), E::F32, E::F32, target), Err(GenError::Budget { .. })));
        }
    }

    #[test]
    fn l0c_is_larger_on_a5() {
        let t = Tiles { m1: 256, n1: 256, k1: 64, k0: 32, stages: 1 };
        assert!(check(&t, E::F16, E::F32, Target::A2).is_err());
        check(&t, E::F16, E::F32, Target::A5).unwrap();
    }

    #[test]
    fn the_tuning_menu_is_small_and_fits_the_problem() {
        let big = tuning_menu(E::F16, E::F32, Target::A2, [4096, 4096, 4096], 1);
        assert!((4..=24).contains(&big.len()), "{big:?}");
        assert!(big.contains(&Tiles { m1: 128, n1: 256, k1: 256, k0: 64, stages: 1 }));
        let skinny = tuning_menu(E::F16, E::F32, Target::A2, [16, 2048, 2048], 1);
        assert!(skinny.iter().all(|t| t.m1 == 16), "{skinny:?}");
        assert!(!skinny.is_empty());
    }

    #[test]
    fn alignment_is_checked() {
        for t in [
            Tiles { m1: 24, n1: 64, k1: 64, k0: 64, stages: 1 },
            Tiles { m1: 64, n1: 64, k1: 96, k0: 64, stages: 1 },
            Tiles { m1: 64, n1: 64, k1: 16, k0: 16, stages: 3 },
        ] {
            assert!(check(&t, E::F16, E::F32, Target::A2).is_err(), "{t}");
        }
        // i8's C0 is 32: a K slice of 16 would split a fractal.
        assert!(check(&Tiles { m1: 64, n1: 64, k1: 16, k0: 16, stages: 1 }, E::I8, E::I32, Target::A2).is_err());
    }

    #[test]
    fn every_candidate_fits_and_they_are_all_distinct() {
        for target in Target::ALL {
            for (input, acc) in [(E::F16, E::F32), (E::F32, E::F32), (E::I8, E::I32)] {
                let c = candidates(input, acc, target);
                assert!(!c.is_empty());
                for t in &c {
                    for (memory, _, need) in footprint(t, input, acc).unwrap() {
                        assert!(need <= memory.capacity(target).unwrap());
                    }
                }
                let mut d = c.clone();
                d.dedup();
                assert_eq!(d.len(), c.len());
            }
        }
    }
}
