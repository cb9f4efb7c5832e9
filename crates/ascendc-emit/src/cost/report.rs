//! The report of one model run: predicted time, per-pipe busy time and the critical path of
//! the slowest core, and the cube utilization against the cube-bound lower bound
//! (FLOPs / peak of the active cores). Its text says it is a model.

use super::params::HardwareParams;
use super::sim::{slot, BlockRun, PIPES};
use super::{Inputs, Pipe};
use crate::kernel::{Kernel, Kind};
use std::fmt;

/// The cube-bound lower bound and the utilization it gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    /// MACs the bound counts: M·N·K when given, else the MACs the `Mmad`s issue.
    pub macs: u128,
    pub from_mnk: bool,
    /// A/B element type of the `Mmad`s.
    pub elem: String,
    pub seconds: f64,
    /// Bound / predicted time.
    pub utilization: f64,
    /// Peak cube FLOP/s of one core on `elem`, and the cube cores of the target.
    pub core_peak_flops: f64,
    pub target_cores: i64,
}

/// One pipe's share of the critical path: cycles, and calls per intrinsic.
#[derive(Clone, Debug, PartialEq)]
pub struct PathShare {
    pub pipe: Pipe,
    pub cycles: f64,
    pub calls: Vec<(Kind, usize)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub kernel: String,
    pub part: &'static str,
    pub target: ascendc_params::Target,
    pub clock_hz: f64,
    pub block_dim: i64,
    pub cores: i64,
    /// Blocks of the slowest core.
    pub blocks_per_core: usize,
    /// Intrinsic calls per block (block 0).
    pub calls_per_block: usize,
    /// Predicted kernel time: the slowest core's.
    pub cycles: f64,
    pub seconds: f64,
    /// Busy cycles of each pipe of the slowest core (pipes with work only).
    pub busy: Vec<(Pipe, f64)>,
    /// The critical path of the slowest core, by pipe (largest first), and the cycles on it
    /// spent in flag latency.
    pub path: Vec<PathShare>,
    pub path_flag_cycles: f64,
    pub macs_issued: u128,
    pub bound: Option<Bound>,
    /// Bytes of MTE2 GM reads, over all blocks, that hit and missed the L2 (`cost::l2`).
    pub l2_hit_bytes: i64,
    pub l2_miss_bytes: i64,
}

/// The name of an intrinsic in the report (`DataCopy(Nd2NzParams)`): its parameter struct is
/// the target's (`FixpipeParamsArch3510` on a5).
pub fn call_name(kind: Kind, target: ascendc_params::Target) -> String {
    let decl = kind.decl();
    format!("{}({})", decl.function, decl.struct_name(target))
}

#[allow(clippy::too_many_arguments)]
pub fn report(
    kernel: &Kernel,
    params: &HardwareParams,
    inputs: &Inputs,
    runs: &[BlockRun],
    block_run: &[usize],
    cores: i64,
    macs_issued: u128,
    elem: Option<String>,
) -> Report {
    let mut core_cycles = vec![0.0f64; cores as usize];
    for (b, r) in block_run.iter().enumerate() {
        core_cycles[b % cores as usize] += runs[*r].end;
    }
    let slowest = (0..cores as usize).max_by(|a, b| core_cycles[*a].total_cmp(&core_cycles[*b])).unwrap_or(0);
    let blocks: Vec<&BlockRun> =
        block_run.iter().enumerate().filter(|(b, _)| b % cores as usize == slowest).map(|(_, r)| &runs[*r]).collect();
    let mut busy = vec![0.0f64; PIPES.len()];
    let mut path_cycles = vec![0.0f64; PIPES.len()];
    let mut path_calls: Vec<Vec<(Kind, usize)>> = vec![Vec::new(); PIPES.len()];
    let mut on_path = 0.0;
    for run in &blocks {
        for r in &run.records {
            busy[slot(r.pipe)] += r.busy;
        }
        let last = (0..run.records.len()).max_by(|a, b| run.records[*a].end.total_cmp(&run.records[*b].end));
        let mut at = last;
        // The start of the later call on the path: a call with unitFlag may start before the
        // call it waited for ends (its fixed cycles run while the other side finishes the
        // block), and that overlap is counted once.
        let mut until = f64::INFINITY;
        while let Some(i) = at {
            let r = &run.records[i];
            let part = if until < r.end { r.busy.min((until - r.start).max(0.0)) } else { r.busy };
            until = r.start;
            path_cycles[slot(r.pipe)] += part;
            on_path += part;
            let calls = &mut path_calls[slot(r.pipe)];
            match calls.iter_mut().find(|(k, _)| *k == r.kind) {
                Some((_, n)) => *n += 1,
                None => calls.push((r.kind, 1)),
            }
            at = r.pred;
        }
    }
    let cycles = core_cycles[slowest];
    let seconds = cycles / params.clock_hz;
    let mut path: Vec<PathShare> = PIPES
        .iter()
        .filter(|p| path_cycles[slot(**p)] > 0.0)
        .map(|p| PathShare { pipe: *p, cycles: path_cycles[slot(*p)], calls: path_calls[slot(*p)].clone() })
        .collect();
    path.sort_by(|a, b| b.cycles.total_cmp(&a.cycles));
    let bound = elem.and_then(|elem| {
        let (macs, from_mnk) = match inputs.mnk {
            Some([m, n, k]) => (m.max(0) as u128 * n.max(0) as u128 * k.max(0) as u128, true),
            None => (macs_issued, false),
        };
        let core_peak_flops = params.peak_flops(&elem, 1)?;
        let bound_s = 2.0 * macs as f64 / (core_peak_flops * cores as f64);
        let utilization = if seconds > 0.0 { bound_s / seconds } else { 0.0 };
        let target_cores = params.cube_cores;
        Some(Bound { macs, from_mnk, elem, seconds: bound_s, utilization, core_peak_flops, target_cores })
    });
    Report {
        kernel: kernel.name.clone(),
        part: params.part,
        target: params.target,
        clock_hz: params.clock_hz,
        block_dim: inputs.block_dim,
        cores,
        blocks_per_core: blocks.len(),
        calls_per_block: runs.first().map_or(0, |r| r.records.len()),
        cycles,
        seconds,
        busy: PIPES.iter().filter(|p| busy[slot(**p)] > 0.0).map(|p| (*p, busy[slot(*p)])).collect(),
        path,
        path_flag_cycles: (cycles - on_path).max(0.0),
        macs_issued,
        bound,
        l2_hit_bytes: 0,
        l2_miss_bytes: 0,
    }
}

/// Microseconds, 3 decimals.
fn us(seconds: f64) -> String {
    format!("{:.3} us", seconds * 1e6)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let pct = |cycles: f64| if self.cycles > 0.0 { 100.0 * cycles / self.cycles } else { 0.0 };
        let secs = |cycles: f64| cycles / self.clock_hz;
        writeln!(
            f,
            "cost model of @{} (a model, not a measurement; parameters and sources: docs/cost-model.md)",
            self.kernel
        )?;
        writeln!(f, "target: {} = {}, {:.2} GHz", self.target.name(), self.part, self.clock_hz / 1e9)?;
        writeln!(
            f,
            "blocks: {} on {} core(s), {} block(s) on the slowest core; {} intrinsic calls per block",
            self.block_dim, self.cores, self.blocks_per_core, self.calls_per_block
        )?;
        writeln!(f, "predicted time: {} ({:.0} cycles)", us(self.seconds), self.cycles)?;
        writeln!(f, "pipe busy (slowest core):")?;
        for (pipe, cycles) in &self.busy {
            writeln!(f, "  {:<5} {:>14}  {:5.1}%", pipe.name(), us(secs(*cycles)), pct(*cycles))?;
        }
        writeln!(f, "critical path (slowest core):")?;
        for share in &self.path {
            let calls: Vec<String> =
                share.calls.iter().map(|(k, n)| format!("{} x{n}", call_name(*k, self.target))).collect();
            writeln!(
                f,
                "  {:<5} {:>14}  {:5.1}%  {}",
                share.pipe.name(),
                us(secs(share.cycles)),
                pct(share.cycles),
                calls.join(", ")
            )?;
        }
        writeln!(f, "  flags {:>14}  {:5.1}%", us(secs(self.path_flag_cycles)), pct(self.path_flag_cycles))?;
        let reads = self.l2_hit_bytes.saturating_add(self.l2_miss_bytes);
        if reads > 0 {
            writeln!(
                f,
                "L2 (all blocks): {} of {} GM read bytes hit ({:.1}%), {} from HBM",
                self.l2_hit_bytes,
                reads,
                100.0 * self.l2_hit_bytes as f64 / reads as f64,
                self.l2_miss_bytes
            )?;
        }
        match &self.bound {
            Some(b) => {
                let what = if b.from_mnk { "2*M*N*K" } else { "2 * MACs issued" };
                writeln!(
                    f,
                    "cube bound: {what} = {} FLOP ({}) on {} core(s): {}",
                    2 * b.macs,
                    b.elem,
                    self.cores,
                    us(b.seconds)
                )?;
                writeln!(f, "cube utilization: {:.1}%", 100.0 * b.utilization)?;
                writeln!(
                    f,
                    "cube peak: {:.3} TFLOP/s per core ({}), {} cube cores on the target",
                    b.core_peak_flops / 1e12,
                    b.elem,
                    b.target_cores
                )
            }
            None => writeln!(f, "cube bound: none (no Mmad)"),
        }
    }
}
