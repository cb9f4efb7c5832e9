//! The software-pipelined K stream of a double-buffered kernel with a static K: the generator
//! itself alternates two L1 panel pairs (by L1 slice) and two L0A/L0B slice pairs (by L0
//! slice), and the K loop's body is two whole L1 slices with every L0 slice written out, so the
//! body holds no nested loop and no branch. Why: the sync insertion (docs/ascendc-derivation.md
//! §10.1) summarizes a nested loop or `scf.if` per pipe, so each exit of an inner L0 loop made
//! MTE1 wait for the cube's last `Mmad` before loading the next L1 slice's first L0 slice, and
//! the next C tile's first GM copy wait for that too (docs/cost-model.md §7.2). Straight-line,
//! the loads of slice j + 1 only wait for the `Mmad` that last read their buffer.
//!
//! Slice i (of K/k1, an even count) uses L1 pair i mod 2; L0 slice g (counted over the whole K)
//! uses L0 pair g mod 2. Slices 0 and 1 are peeled (slice 0's first `Mmad` overwrites L0C), the
//! loop takes the following pairs. `layout-multi-buffer` is not run on such a kernel
//! ([`needs_multi_buffer`]): its buffers are already doubled.
//!
//! The cube and the Fixpipe meet through the unitFlag handshake (asc-devkit
//! `mmad_compute_key_features/UnitFlag.md`, docs/cost-model.md §7.3): every `layout.matmul` of
//! a C tile has unit flag 2 but the last, which has 3, and the store has `unit_flag = true`, so
//! the sync insertion places no `M_FIX`/`FIX_M` events between them. The last matmul is the
//! loop's last L0 slice: its flag is `2 + k floordiv k_last` (k_last = K − 2·k1, the last
//! iteration's `%k`; on the loop's range 2·k1 ≤ k ≤ k_last it is 3 only there), or the constant
//! 3 in slice 1 when there is no loop. Only where every C tile is whole (M and N static
//! multiples of m1 and n1, [`unit_flag_handshake`]): a tail tile's Fixpipe reads fewer rows or
//! columns than the Mmad wrote, and the blocks it leaves unread keep their flag at 1, on which
//! the next tile's first Mmad would wait forever. Other kernels keep the events.

use crate::error::Result;
use crate::kernel::{l0_slice, load_l1_slice};
use crate::spec::{Dim, GemmSpec};
use crate::text::Body;
use ascendc_params::decl::UnitFlag;
use layout_algebra::{IndexValue, SymExpr};

/// The buffers of one stage: (A, B) in L1 and (A, B) in L0.
pub(crate) struct Stage<'a> {
    pub l1: (&'a str, &'a str),
    pub l0: (&'a str, &'a str),
}

/// K, when the kernel streams it software-pipelined: two stages, no split-K, K static and a
/// whole number of L1 slice pairs. With slices left after the loop (a K tail, an odd count) the
/// straight-line code after it needs more than the 8 event ids per HardEvent the sync may use
/// (`more than 8 simultaneous MTE1_MTE2 events`), so those kernels keep the multi-buffered loop.
pub fn pipelined_k(spec: &GemmSpec) -> Option<i64> {
    let pair = 2 * spec.tiles.k1;
    match spec.k {
        Dim::Static(k) if spec.tiles.stages == 2 && spec.split_k == 1 && k > 0 && k % pair == 0 => Some(k),
        _ => None,
    }
}

/// Whether the pipelined kernel orders its Mmads and Fixpipe by the unitFlag handshake (module
/// doc): pipelined, and every C tile whole.
pub fn unit_flag_handshake(spec: &GemmSpec) -> bool {
    let whole = |d: Dim, tile: i64| matches!(d, Dim::Static(v) if v > 0 && v % tile == 0);
    pipelined_k(spec).is_some() && whole(spec.m, spec.tiles.m1) && whole(spec.n, spec.tiles.n1)
}

/// Whether `layout-multi-buffer` must run on the generated kernel (two stages it did not
/// already double itself).
pub fn needs_multi_buffer(spec: &GemmSpec) -> bool {
    spec.tiles.stages == 2 && pipelined_k(spec).is_none()
}

/// The whole K stream of one C tile at (`m0`, `n0`) over the two stages (K a whole number of
/// slice pairs, [`pipelined_k`]).
pub(crate) fn k_stream(
    body: &mut Body,
    spec: &GemmSpec,
    k: i64,
    (m0, n0): (&str, &str),
    stages: [Stage; 2],
) -> Result<()> {
    let t = spec.tiles;
    let per = t.k1 / t.k0;
    let handshake = unit_flag_handshake(spec);
    let keep = body.constant(UnitFlag::Keep.value());
    let looped = k > 2 * t.k1;
    // Slices 0 and 1, peeled: L0 slices 0 .. 2·per, the very first overwriting.
    for i in 0..2 {
        let at = body.constant(i * t.k1);
        let last = if i == 1 && !looped { body.constant(UnitFlag::Release.value()) } else { keep.clone() };
        let flags = Flags { keep: &keep, last: &last };
        slice(body, spec, &at, (m0, n0), &stages[i as usize], &stages, i * per, per, i == 0, flags);
    }
    if looped {
        let (lo, hi, step) = (body.constant(2 * t.k1), body.constant(k), body.constant(2 * t.k1));
        body.open(format!("scf.for %k = {lo} to {hi} step {step}"));
        body.symbols.insert("k".into(), "%k".into());
        let second = body.expr(&SymExpr::sym("k").add(&SymExpr::Const(t.k1))?, "k_next");
        // 3 on the last iteration (k = K - 2·k1) only (module doc).
        let k_last = SymExpr::Const(k - 2 * t.k1);
        let release = SymExpr::Const(UnitFlag::Keep.value()).add(&SymExpr::sym("k").floor_div(&k_last)?)?;
        let last = if handshake { body.expr(&release, "unit_flag") } else { keep.clone() };
        // Every pair starts at an even L0 slice (2·per per pair).
        let only_keep = Flags { keep: &keep, last: &keep };
        slice(body, spec, "%k", (m0, n0), &stages[0], &stages, 0, per, false, only_keep);
        slice(body, spec, &second, (m0, n0), &stages[1], &stages, per, per, false, Flags { keep: &keep, last: &last });
        body.close();
    }
    Ok(())
}

/// The unit flags of a slice's matmuls (SSA values): `last` for its last L0 slice, `keep` for
/// the others.
#[derive(Clone, Copy)]
struct Flags<'a> {
    keep: &'a str,
    last: &'a str,
}

/// L1 slice at GM column `k` into `into`'s L1 pair, then its `count` L0 slices, the first on L0
/// pair `g` mod 2 (`first`: the very first overwrites L0C).
#[allow(clippy::too_many_arguments)]
fn slice(
    body: &mut Body,
    spec: &GemmSpec,
    k: &str,
    (m0, n0): (&str, &str),
    into: &Stage,
    stages: &[Stage; 2],
    g: i64,
    count: i64,
    first: bool,
    flags: Flags,
) {
    let t = spec.tiles;
    let (a1v, b1v) = load_l1_slice(body, spec, k, (m0, n0), into.l1);
    for j in 0..count {
        let at = (t.k0 != t.k1).then(|| body.constant(j * t.k0));
        let l0 = stages[((g + j) % 2) as usize].l0;
        let flag = if j + 1 == count { flags.last } else { flags.keep };
        let flag = unit_flag_handshake(spec).then_some(flag);
        l0_slice(body, spec, &a1v, &b1v, at.as_deref(), !(first && j == 0), l0, flag);
    }
}

#[cfg(test)]
mod tests {
    use crate::spec::{Dim, Epilogue, GemmSpec, GmLayout, Tiles};
    use layout_algebra::ascend::{ElementType, Target, TileOrder};

    fn spec(k: Dim, tiles: Tiles, split_k: i64) -> GemmSpec {
        GemmSpec {
            name: "g".into(),
            m: Dim::Dynamic,
            n: Dim::Dynamic,
            k,
            input: ElementType::F16,
            output: ElementType::F32,
            a: GmLayout::Nd,
            b: GmLayout::Nd,
            epilogue: Epilogue::default(),
            target: Target::A2,
            tiles,
            order: TileOrder::Linear,
            split_k,
        }
    }

    /// The `(source, buffer)` of every `layout.load` into `buffer_prefix…`, in text order.
    fn loads(text: &str, buffer_prefix: &str) -> Vec<(String, String)> {
        text.lines()
            .filter_map(|l| {
                let args = l.split("\"layout.load\"(").nth(1)?.split(')').next()?;
                let (src, dst) = args.split_once(", ")?;
                dst.starts_with(buffer_prefix).then(|| (src.to_string(), dst.to_string()))
            })
            .collect()
    }

    /// K = 768 in L1 slices of 128 and L0 slices of 64: slices 0, 1 peeled, pairs (2, 3) and
    /// (4, 5) in the loop (GM columns %k and %k + 128). L1 pairs alternate per L1 slice, L0 pairs
    /// per L0 slice over the whole K; only the first Mmad overwrites.
    #[test]
    fn slices_alternate_the_two_stages_over_the_whole_k() {
        let t = Tiles { m1: 64, n1: 64, k1: 128, k0: 64, stages: 2 };
        let text = crate::generate(&spec(Dim::Static(768), t, 1)).unwrap();
        let l1: Vec<String> = loads(&text, "%a1").into_iter().map(|(_, d)| d).collect();
        assert_eq!(l1, ["%a1", "%a1q", "%a1", "%a1q"]);
        let l0: Vec<String> = loads(&text, "%b0").into_iter().map(|(_, d)| d).collect();
        assert_eq!(l0, ["%b0", "%b0q", "%b0", "%b0q", "%b0", "%b0q", "%b0", "%b0q"]);
        // The GM tiles of A: columns 0, 128, %k, %k + 128.
        let cols: Vec<String> = text
            .lines()
            .filter(|l| l.contains("\"layout.tile\"(%ga"))
            .map(|l| l.split(", ").nth(2).unwrap().split(')').next().unwrap().to_string())
            .collect();
        assert_eq!(cols[..3], ["%c0", "%c128", "%k"]);
        assert!(cols[3].starts_with("%k_next") && cols.len() == 4, "{cols:?}");
        assert!(text.contains("scf.for %k = %c256 to %c768 step %c256"), "{text}");
        let overwrites = text.lines().filter(|l| l.contains("accumulate = false")).count();
        assert_eq!((overwrites, text.matches("accumulate = true").count()), (1, 7));
        assert!(!super::needs_multi_buffer(&spec(Dim::Static(768), t, 1)));
    }

    /// Dynamic K, split-K, one stage, a K tail, an odd number of L1 slices, or a single one:
    /// the loop of `layout-multi-buffer`.
    #[test]
    fn other_kernels_keep_the_multi_buffered_loop() {
        let t = Tiles { m1: 64, n1: 64, k1: 128, k0: 64, stages: 2 };
        for (k, tiles, split_k) in [
            (Dim::Dynamic, t, 1),
            (Dim::Static(768), t, 2),
            (Dim::Static(680), t, 1),
            (Dim::Static(640), t, 1),
            (Dim::Static(768), Tiles { stages: 1, ..t }, 1),
            (Dim::Static(128), t, 1),
        ] {
            let s = spec(k, tiles, split_k);
            assert_eq!(super::needs_multi_buffer(&s), tiles.stages == 2, "{k:?} {tiles} {split_k}");
            assert!(!crate::generate(&s).unwrap().contains("%a1q"));
        }
    }
}
