//! The cost model (`ascendc_emit::cost`, docs/cost-model.md) on examples/gemm_dynamic_k.mlir
//! lowered by `layout-lower-to-ascendc`: the work it counts follows from the tile loops and
//! tails, the pipes' busy times from the a2 table, and the time grows with K.

use super::{example, lower};
use ascendc_emit::cost::{Estimate, Inputs, Pipe};
use std::collections::HashMap;

fn model(m: i64, n: i64, k: i64, block_dim: i64) -> Estimate {
    let context = layout_runtime::create_context().unwrap();
    let module = lower(&context, &example("gemm_dynamic_k.mlir"));
    let inputs = Inputs { args: HashMap::from([(3, m), (4, n), (5, k)]), block_dim, mnk: Some([m, n, k]) };
    ascendc_emit::cost_of(&module, "gemm_dynamic_k", &inputs).unwrap_or_else(|d| panic!("{d:?}"))
}

fn busy(e: &Estimate, pipe: Pipe) -> f64 {
    e.report.busy.iter().find(|(p, _)| *p == pipe).map_or(0.0, |b| b.1)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6 * b.abs().max(1.0)
}

#[test]
fn gemm_dynamic_k_report_from_the_parameter_table() {
    // 256^3: 2 x 1 tiles of 128 x 256, 4 K slices of 64 each.
    let e = model(256, 256, 256, 1);
    let r = &e.report;
    assert_eq!(r.macs_issued, 256 * 256 * 256);
    // M: 8 Mmads of (128/16) * (256/16) * (64/16) = 512 cube steps + 20 issue cycles.
    assert!(close(busy(&e, Pipe::M), 8.0 * 532.0), "{r:?}");
    // MTE2: per slice A 128x64 f16 = 16384 B and B 64x256 f16 = 32768 B at 160 B/cycle, +200,
    // except that the second row tile reads the first one's four B slices again: L2 hits at
    // 110 B/cycle (docs/cost-model.md §7), 200 + 32768 / 110 cycles each.
    let b_hit = 200.0 + 32768.0 / 110.0;
    assert!(close(busy(&e, Pipe::Mte2), 8.0 * 302.4 + 4.0 * 404.8 + 4.0 * b_hit), "{r:?}");
    assert_eq!((r.l2_hit_bytes, r.l2_miss_bytes), (4 * 32768, 8 * 16384 + 4 * 32768));
    // FIX: 2 tiles of 128x256 f32 = 131072 B at 128 B/cycle, +100.
    assert!(close(busy(&e, Pipe::Fix), 2.0 * 1124.0), "{r:?}");
    // The pipes overlap only where flags allow: the time is at least the busiest pipe and at
    // most their sum.
    let total: f64 = r.busy.iter().map(|b| b.1).sum();
    let most = r.busy.iter().map(|b| b.1).fold(0.0, f64::max);
    assert!(r.cycles >= most && r.cycles <= total + 1e3, "{r:?}");
    let bound = r.bound.as_ref().unwrap();
    assert!(bound.utilization > 0.0 && bound.utilization < 1.0);
    assert!(close(bound.seconds * 1.6e9, 256.0 * 256.0 * 256.0 / 4096.0));
    assert!(r.to_string().contains("a model, not a measurement"));
}

#[test]
fn gemm_dynamic_k_tail_tiles_cost_whole_tiles_on_the_cube() {
    // M = 200: two row tiles, N = 136: one column tile; K = 200: slices 64, 64, 64, 8. The
    // kernel's Mmad multiplies the whole 128 x 256 fractal grid of its L0 buffers (m, n are
    // static) and the valid k: the cube work of a tail tile is that of a full one.
    let e = model(200, 136, 200, 1);
    assert_eq!(e.report.macs_issued, 2 * 128 * 256 * 200);
    // Cube steps: k in whole fractals of 16, 4 + 4 + 4 + 1 per output fractal.
    let steps = 2.0 * (8.0 * 16.0) * 13.0;
    assert!(close(busy(&e, Pipe::M), steps + 8.0 * 20.0), "{:?}", e.report);
    // Against 2*M*N*K the padding shows as lost utilization: issued / useful = 13107200 / 5440000.
    let bound = e.report.bound.as_ref().unwrap();
    assert_eq!(bound.macs, 200 * 136 * 200);
}

#[test]
fn gemm_dynamic_k_more_k_more_time_and_cores_share_gm() {
    let times: Vec<f64> = [64, 256, 1000, 2048].iter().map(|k| model(256, 256, *k, 1).report.cycles).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    // Today every block computes every tile: 24 blocks take longer than one (GM shared by 24),
    // and the bound (2*M*N*K over 24 cores) makes the utilization fall.
    let one = model(256, 256, 256, 1).report;
    let all = model(256, 256, 256, 24).report;
    assert_eq!(all.cores, 24);
    assert!(all.cycles > one.cycles);
    assert!(all.bound.unwrap().utilization < one.bound.unwrap().utilization / 24.0);
}
