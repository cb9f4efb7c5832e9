//! Choosing the tiles: every shape of the tuning menu that fits the buffers
//! (`gemm_gen::tiles::tuning_menu`) is generated, lowered to AscendC and run through the cost
//! model (`ascendc_emit::cost`, docs/cost-model.md) for the sizes and core count asked for; the
//! fastest modelled kernel wins (ties: the earlier, larger tile). Split-K counts S (powers of
//! two) are candidates too where the C tiles alone leave cores idle ([`split_k_menu`]), and so
//! are the swizzled tile orders of [`ORDER_MENU`] for the best tiles: the model's L2 makes
//! the order matter (which tiles run side by side, which A/B panels are still in L2).

use crate::error::GemmError;
use ascendc_emit::cost::{HardwareParams, Inputs};
use gemm_gen::{Dim, GemmSpec, SwizzleDirection, TileOrder, Tiles};
use melior::ir::Module;
use std::collections::HashMap;

/// One candidate and its modelled time in seconds.
pub struct Ranked {
    pub tiles: Tiles,
    pub split_k: i64,
    pub order: TileOrder,
    pub seconds: f64,
    pub utilization: Option<f64>,
}

/// The split-K counts worth modelling for `tiles`: 1, and (when the spec can add into C, see
/// `GemmSpec::check`) the powers of two S while the C tiles times S/2 leave cores idle and K
/// has at least S slices of `k1`. `fixed`: only that count.
pub fn split_k_menu(spec: &GemmSpec, tiles: &Tiles, [m, n, k]: [i64; 3], cores: i64, fixed: Option<i64>) -> Vec<i64> {
    if let Some(s) = fixed {
        return vec![s];
    }
    let c_tiles = ((m + tiles.m1 - 1) / tiles.m1).saturating_mul((n + tiles.n1 - 1) / tiles.n1);
    let slices = (k + tiles.k1 - 1) / tiles.k1;
    let mut out = vec![1];
    let mut s = 2;
    while s <= slices && c_tiles.saturating_mul(s / 2) < cores {
        if (GemmSpec { split_k: s, ..spec.clone() }).check().is_ok() {
            out.push(s);
        }
        s *= 2;
    }
    out
}

/// The swizzles (catlass `GemmIdentityBlockSwizzle` offsets and directions) the tuner models
/// for the best tiles besides the spec's order.
pub const ORDER_MENU: [TileOrder; 4] = [
    TileOrder::Swizzle { offset: 2, direction: SwizzleDirection::Zn },
    TileOrder::Swizzle { offset: 2, direction: SwizzleDirection::Nz },
    TileOrder::Swizzle { offset: 4, direction: SwizzleDirection::Zn },
    TileOrder::Swizzle { offset: 4, direction: SwizzleDirection::Nz },
];

/// The order as `--order` spells it (`linear`, `swizzle:2:zn`).
pub fn order_flag(order: TileOrder) -> String {
    match order {
        TileOrder::Linear => "linear".into(),
        TileOrder::Swizzle { offset, direction: SwizzleDirection::Zn } => format!("swizzle:{offset}:zn"),
        TileOrder::Swizzle { offset, direction: SwizzleDirection::Nz } => format!("swizzle:{offset}:nz"),
    }
}

/// `spec` with its best tiles (and split-K count, and tile order) for `sizes` (M, N, K) on
/// `cores` blocks, double-buffered or not (`stages`: both when `None`), split or not
/// (`split_k`: the counts of [`split_k_menu`] when `None`), in the spec's order or (unless
/// `fixed_order`) a swizzle of [`ORDER_MENU`]; every candidate ranked, fastest first.
pub fn choose(
    spec: &GemmSpec,
    sizes: [i64; 3],
    cores: Option<i64>,
    (stages, split_k, fixed_order): (Option<i64>, Option<i64>, bool),
) -> Result<(GemmSpec, Vec<Ranked>), GemmError> {
    let acc = spec.accumulator()?;
    let cores = cores.unwrap_or(HardwareParams::of(spec.target).cube_cores);
    // The index arguments are the dynamic sizes, after A, B and C.
    let mut args = HashMap::new();
    for (d, v) in [spec.m, spec.n, spec.k].into_iter().zip(sizes) {
        if d == Dim::Dynamic {
            args.insert(3 + args.len(), v);
        }
    }
    let inputs = Inputs { args, block_dim: cores, mnk: Some(sizes) };
    let context = layout_runtime::create_context()
        .map_err(|e| GemmError::Kernel { stage: "load the dialects", diags: e.to_string() })?;
    let mut ranked = Vec::new();
    let stages = stages.map_or(vec![2, 1], |s| vec![s]);
    let mut menu: Vec<Tiles> =
        stages.iter().flat_map(|&s| gemm_gen::tiles::tuning_menu(spec.input, acc, spec.target, sizes, s)).collect();
    // The untuned default is always a candidate, so tuning is never worse than not tuning.
    if !menu.contains(&spec.tiles) {
        menu.push(spec.tiles);
    }
    // So are the fixed tiles, in each stage count that fits (f32: single-buffered only),
    // so tuning is never worse than them either.
    let fits = gemm_gen::tiles::candidates(spec.input, acc, spec.target);
    for fixed in stages.iter().map(|&s| gemm_gen::tiles::fixed(s)) {
        if fits.contains(&fixed) && !menu.contains(&fixed) {
            menu.push(fixed);
        }
    }
    let candidates: Vec<(Tiles, i64)> = menu
        .into_iter()
        .flat_map(|tiles| split_k_menu(spec, &tiles, sizes, cores, split_k).into_iter().map(move |s| (tiles, s)))
        .collect();
    let model = |tiles: Tiles, split_k: i64, order: TileOrder| -> Result<Ranked, GemmError> {
        let candidate = GemmSpec { tiles, split_k, order, ..spec.clone() };
        let text = gemm_gen::generate(&candidate)?;
        let kernel_error = |stage, e: String| GemmError::Kernel {
            stage,
            diags: format!("tiles {tiles}, split-K {split_k}, order {}: {e}", order_flag(order)),
        };
        let mut module = Module::parse(&context, &text).ok_or_else(|| kernel_error("parse", String::new()))?;
        if gemm_gen::needs_multi_buffer(&candidate) {
            let pm = melior::pass::PassManager::new(&context);
            pm.add_pass(layout_passes::multi_buffer::create());
            pm.run(&mut module).map_err(|_| kernel_error("double-buffer", String::new()))?;
        }
        ascendc_emit::run::lower_to_ascendc(&mut module)
            .map_err(|e| kernel_error("lower to AscendC", e.to_string()))?;
        let estimate = ascendc_emit::cost_of(&module, &spec.name, &inputs)
            .map_err(|d| kernel_error("run through the cost model", d.message))?;
        let report = &estimate.report;
        Ok(Ranked {
            tiles,
            split_k,
            order,
            seconds: report.seconds,
            utilization: report.bound.as_ref().map(|b| b.utilization),
        })
    };
    for (tiles, split_k) in candidates {
        ranked.push(model(tiles, split_k, spec.order)?);
    }
    // Stable: equal times keep the menu's order (larger C tiles first).
    ranked.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    // The best tiles in the other orders; on a single tile there is nothing to order.
    if let Some(best) = ranked.first().filter(|_| !fixed_order) {
        let (tiles, split_k) = (best.tiles, best.split_k);
        let grid = ((sizes[0] + tiles.m1 - 1) / tiles.m1).saturating_mul((sizes[1] + tiles.n1 - 1) / tiles.n1);
        if grid > 1 {
            for order in ORDER_MENU.into_iter().filter(|o| *o != spec.order) {
                ranked.push(model(tiles, split_k, order)?);
            }
            ranked.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
        }
    }
    let best = ranked.first().ok_or_else(|| GemmError::Flag { flag: "tiles", reason: "no tile shape fits".into() })?;
    Ok((GemmSpec { tiles: best.tiles, split_k: best.split_k, order: best.order, ..spec.clone() }, ranked))
}

/// The ranking as a table (`--explain`), the model's caveat first.
pub fn table(ranked: &[Ranked], sizes: [i64; 3], cores: i64, limit: usize) -> String {
    let mut out = format!(
        "// tiles ranked by the cost model (a model, not a measurement) for M, N, K = {}, {}, {} on {cores} core(s)\n",
        sizes[0], sizes[1], sizes[2]
    );
    for r in ranked.iter().take(limit) {
        let u = r.utilization.map(|u| format!("{:5.1}%", 100.0 * u)).unwrap_or_else(|| "   - ".into());
        let split = if r.split_k > 1 { format!(", split-K {}", r.split_k) } else { String::new() };
        let order =
            if r.order == TileOrder::Linear { String::new() } else { format!(", order {}", order_flag(r.order)) };
        let name = format!("{}{split}{order}", r.tiles);
        out.push_str(&format!("//   {:<52} {:>12.3} us  cube {u}\n", name, r.seconds * 1e6));
    }
    out
}
