//! A pipe-level cost model of an emitted AscendC kernel — a model, not a measurement.
//!
//! [`estimate`] runs the [`Kernel`] description the printers use for concrete index
//! arguments and a block count ([`interp`]: loops, branches, arithmetic), gives every
//! intrinsic call a duration on the pipe its declaration names (`ascendc_params::decl`;
//! [`sim::duration`] from the [`params`] table: GM bandwidth shared by the active cores,
//! L1 → L0 bandwidth, cube MACs per cycle, Fixpipe bandwidth, fixed issue cycles), and
//! simulates the pipes ([`sim`]: in order within a pipe, in parallel across pipes,
//! `SetFlag`/`WaitFlag` and `PipeBarrier<PIPE_ALL>` honoured). Blocks go to cores round-robin
//! (block b on core b mod cores, a core's blocks one after another); GM bandwidth is divided
//! evenly by the active cores, min(blocks, cores); a GM read whose footprint is still in the
//! on-chip L2 ([`l2`]: an LRU visited in schedule order) is charged at the L2 rate. [`report`] gives per-pipe busy time, the
//! critical path, the predicted time and the cube utilization against the cube-bound lower
//! bound; [`trace`] a Chrome-trace (Perfetto) timeline. Parameters and their public sources:
//! docs/cost-model.md.

pub mod interp;
pub mod l2;
pub mod params;
pub mod report;
pub mod sim;
pub mod trace;
pub mod work;

#[cfg(test)]
mod tests;

pub use layout_passes::lower_to_ascendc::sync::Pipe;
pub use params::HardwareParams;
pub use report::Report;

use crate::error::{EmitError, Located};
use crate::kernel::Kernel;
use ascendc_params::Target;
use interp::{Block, Instr, Interp};
use sim::BlockRun;
use std::collections::HashMap;
use work::Work;

/// What the model is run for.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Value of the kernel's index argument `k` (argument number, as `--arg k=V`).
    pub args: HashMap<usize, i64>,
    /// Blocks launched (`blockDim`), at least 1.
    pub block_dim: i64,
    /// The GEMM's M, N, K for the cube bound (2·M·N·K FLOPs); `None`: the MACs the kernel's
    /// `Mmad`s issue (valid k, padded m and n), over all blocks.
    pub mnk: Option<[i64; 3]>,
}

/// The most blocks the model runs (each block is interpreted when its program depends on
/// its index).
pub const MAX_BLOCK_DIM: i64 = 65_535;

/// One model run: the per-block simulations and the report.
#[derive(Clone, Debug)]
pub struct Estimate {
    pub params: HardwareParams,
    /// Distinct block simulations (one when no block reads its index).
    pub runs: Vec<BlockRun>,
    /// Block b was simulated as `runs[block_run[b]]`.
    pub block_run: Vec<usize>,
    /// Core of each block.
    pub cores: i64,
    pub report: Report,
}

/// MACs the `Mmad`s of a program issue, and their A/B element type.
fn issued_macs(instrs: &[Instr]) -> (u128, Option<String>) {
    let mut total = 0u128;
    let mut elem = None;
    for i in instrs {
        if let Instr::Op { work: Work::Macs { m, n, k, elem: e }, .. } = i {
            total += (*m).max(0) as u128 * (*n).max(0) as u128 * (*k).max(0) as u128;
            elem.get_or_insert_with(|| e.clone());
        }
    }
    (total, elem)
}

/// Runs the model of `kernel` on `target`.
pub fn estimate(kernel: &Kernel, target: Target, inputs: &Inputs) -> Result<Estimate, Located> {
    let params = HardwareParams::of(target);
    if !(1..=MAX_BLOCK_DIM).contains(&inputs.block_dim) {
        let message = format!("block dim {} is not a block count in [1, {MAX_BLOCK_DIM}]", inputs.block_dim);
        return Err(EmitError::CostArgument(message).at(None));
    }
    let cores = inputs.block_dim.min(params.cube_cores);
    // Interpret: one program per block, or one for all when no block reads its index.
    let mut programs = Vec::new();
    let mut block_program = Vec::new();
    let mut macs = 0u128;
    let mut elem = None;
    let mut first: Option<(bool, u128)> = None;
    for idx in 0..inputs.block_dim {
        if let Some((false, m)) = first {
            block_program.push(0);
            macs += m;
            continue;
        }
        let program = Interp::new(kernel, &inputs.args, Block { idx, num: inputs.block_dim }).run()?;
        let (m, e) = issued_macs(&program.instrs);
        first.get_or_insert((program.reads_block_idx, m));
        macs += m;
        elem = elem.or(e);
        programs.push(program.instrs);
        block_program.push(programs.len() - 1);
    }
    // Which GM reads hit L2, in schedule order over all blocks (l2.rs).
    let reads: Vec<Vec<(l2::Footprint, i64)>> = programs.iter().map(|p| gm_reads(p)).collect();
    let per_block: Vec<&[(l2::Footprint, i64)]> = block_program.iter().map(|p| reads[*p].as_slice()).collect();
    let hits = l2::hits(&per_block, cores as usize, params.l2_bytes);
    let mut l2_bytes = [0i64; 2];
    // Simulate each distinct (program, hit pattern) once.
    let mut runs = Vec::new();
    let mut block_run = Vec::new();
    let mut seen: HashMap<(usize, &[bool]), usize> = HashMap::new();
    for (b, p) in block_program.iter().enumerate() {
        for (hit, (_, bytes)) in hits[b].iter().zip(per_block[b]) {
            l2_bytes[usize::from(!*hit)] = l2_bytes[usize::from(!*hit)].saturating_add(*bytes);
        }
        let r = match seen.get(&(*p, hits[b].as_slice())) {
            Some(r) => *r,
            None => {
                runs.push(sim::simulate(&programs[*p], &params, cores, &hits[b])?);
                seen.insert((*p, hits[b].as_slice()), runs.len() - 1);
                runs.len() - 1
            }
        };
        block_run.push(r);
    }
    let mut report = report::report(kernel, &params, inputs, &runs, &block_run, cores, macs, elem);
    [report.l2_hit_bytes, report.l2_miss_bytes] = l2_bytes;
    Ok(Estimate { params, runs, block_run, cores, report })
}

/// The GM reads of a program, in program order: footprint and bytes.
fn gm_reads(instrs: &[Instr]) -> Vec<(l2::Footprint, i64)> {
    instrs
        .iter()
        .filter_map(|i| match i {
            Instr::Op { read: Some(f), work: Work::Bytes(b), .. } => Some((f.clone(), *b)),
            _ => None,
        })
        .collect()
}
