//! The pipe simulator: one queue per pipe, each run in program order; the pipes run in
//! parallel except where a `WaitFlag` waits for its `SetFlag` or a `PipeBarrier<PIPE_ALL>`
//! waits for everything. Any flag pattern: the k-th `WaitFlag` of an (event, id) consumes
//! the k-th `SetFlag` of it (double buffering sets flags ahead); a wait nothing ever
//! satisfies is a deadlock, an error. Durations: [`duration`].

use super::interp::Instr;
use super::params::HardwareParams;
use super::work::Work;
use super::Pipe;
use crate::error::{EmitError, Located};
use crate::kernel::Kind;
use ascendc_params::decl::UnitFlag;
use ascendc_params::Buffer;
use std::collections::HashMap;

/// The pipes, in report order.
pub const PIPES: [Pipe; 5] = [Pipe::Mte2, Pipe::Mte1, Pipe::M, Pipe::Fix, Pipe::Mte3];

pub fn slot(p: Pipe) -> usize {
    PIPES.iter().position(|q| *q == p).unwrap_or(0)
}

/// One executed intrinsic call.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub pipe: Pipe,
    pub kind: Kind,
    pub start: f64,
    pub end: f64,
    /// Cycles the call works (its duration): `end - start` less the time an `Mmad` or
    /// `Fixpipe` with unitFlag stalls on L0C blocks between `start` and `end`.
    pub busy: f64,
    /// What it waited for last: the previous call on its pipe, or the call before the
    /// `SetFlag` (or the barrier) that released it. The chain from the last call is the
    /// critical path.
    pub pred: Option<usize>,
}

/// One block, simulated alone from time 0.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BlockRun {
    pub records: Vec<Record>,
    /// When its last instruction finishes (cycles).
    pub end: f64,
}

/// Cycles of one call on `pipe` while `active` cores share GM; `l2_hit`: a GM read served by
/// the L2 (`cost::l2`), at the L2 rate instead of the GM share.
/// `dst`: the memory an MTE1 call writes.
pub fn duration(
    params: &HardwareParams,
    (pipe, dst): (Pipe, Option<Buffer>),
    work: &Work,
    active: i64,
    l2_hit: bool,
) -> Result<f64, EmitError> {
    let issue = params.issue(pipe);
    Ok(issue
        + match (pipe, work) {
            (Pipe::Mte2, Work::Bytes(b)) if l2_hit => *b as f64 / params.l2_hit_bytes_per_cycle(active),
            (Pipe::Mte2 | Pipe::Mte3, Work::Bytes(b)) => *b as f64 / params.gm_bytes_per_cycle(active),
            (Pipe::Mte1, Work::Bytes(b)) => *b as f64 / params.mte1_bytes_per_cycle(dst),
            (Pipe::Fix, Work::Bytes(b)) => {
                *b as f64 / params.fix_bytes_per_cycle.min(params.gm_bytes_per_cycle(active))
            }
            (Pipe::M, Work::Macs { m, n, k, elem }) => {
                let macs = params
                    .macs_per_cycle(elem)
                    .ok_or_else(|| EmitError::CostEval(format!("the cube model has no rate for {elem}")))?;
                // One cube step: a 16 x k0 by k0 x 16 fractal pair.
                let k0 = macs / 256;
                let steps = |x: i64, unit: i64| ((x.max(0) + unit - 1) / unit) as f64;
                steps(*m, 16) * steps(*n, 16) * steps(*k, k0)
            }
            (pipe, work) => {
                return Err(EmitError::CostEval(format!("no duration for {work:?} on pipe {}", pipe.name())))
            }
        })
}

type Key = (String, i64);

/// The unit flag of one 512 B L0C block over time (docs/cost-model.md §7.3): when each `Mmad`
/// with unitFlag 3 finished writing it (`sets`, with its record) and each `Fixpipe` with
/// unitFlag 3 finished reading it (`clears`). In a program synccheck accepts they alternate:
/// the k-th Fixpipe with 3 reads the k-th release, and an Mmad writes the block once the
/// Fixpipe has cleared the last release before it.
#[derive(Default)]
struct UnitBlock {
    sets: Vec<(f64, Option<usize>)>,
    clears: Vec<(f64, Option<usize>)>,
}

/// When block `b` may be written (`Mmad`) or read (`Fixpipe`) under unitFlag: `None` while the
/// other side has not got there yet in the simulation (the pipe waits, like a `WaitFlag`).
fn unit_gate(units: &HashMap<i64, UnitBlock>, pipe: Pipe, b: i64) -> Option<(f64, Option<usize>)> {
    let Some(u) = units.get(&b) else {
        // Nothing released it: an Mmad writes at once, a Fixpipe waits for a release.
        return (pipe == Pipe::M).then_some((0.0, None));
    };
    if pipe == Pipe::M {
        match u.sets.len() {
            0 => Some((0.0, None)),
            n => u.clears.get(n - 1).copied(),
        }
    } else {
        u.sets.get(u.clears.len()).copied()
    }
}

/// Runs one block's program; `l2_hits[n]`: whether its n-th GM read (program order) hits L2
/// (missing entries: misses).
pub fn simulate(instrs: &[Instr], params: &HardwareParams, active: i64, l2_hits: &[bool]) -> Result<BlockRun, Located> {
    let at = |e: EmitError| e.at(None);
    let mut queues: Vec<Vec<usize>> = vec![Vec::new(); PIPES.len()];
    let mut hit = vec![false; instrs.len()];
    let mut reads = 0usize;
    for (i, instr) in instrs.iter().enumerate() {
        if let Instr::Op { read: Some(_), .. } = instr {
            hit[i] = l2_hits.get(reads).copied().unwrap_or(false);
            reads += 1;
        }
    }
    for (i, instr) in instrs.iter().enumerate() {
        match instr {
            Instr::Op { pipe, .. } => queues[slot(*pipe)].push(i),
            Instr::Set { src, .. } => queues[slot(*src)].push(i),
            Instr::Wait { dst, .. } => queues[slot(*dst)].push(i),
            Instr::BarrierAll => queues.iter_mut().for_each(|q| q.push(i)),
        }
    }
    let n = PIPES.len();
    let mut head = vec![0usize; n];
    let mut ready = vec![0.0f64; n];
    let mut why: Vec<Option<usize>> = vec![None; n];
    let mut sets: HashMap<Key, Vec<(f64, Option<usize>)>> = HashMap::new();
    let mut consumed: HashMap<Key, usize> = HashMap::new();
    // Barrier (instruction index) -> pipes arrived, and its release once all have.
    let mut arrived: HashMap<usize, Vec<bool>> = HashMap::new();
    let mut released: HashMap<usize, (f64, Option<usize>)> = HashMap::new();
    let mut units: HashMap<i64, UnitBlock> = HashMap::new();
    let mut run = BlockRun::default();
    loop {
        let mut progress = false;
        for p in 0..n {
            while let Some(&i) = queues[p].get(head[p]) {
                match &instrs[i] {
                    Instr::Op { pipe, kind, work, dst, unit: Some(unit), .. } => {
                        // Block by block (asc-devkit UnitFlag): after its fixed cycles the call
                        // moves its blocks in ascending order, each an equal share of the rest
                        // of its duration, each once the other side released it.
                        let gates: Option<Vec<_>> = unit.blocks.iter().map(|b| unit_gate(&units, *pipe, *b)).collect();
                        let Some(gates) = gates else { break };
                        let d = duration(params, (*pipe, *dst), work, active, hit[i]).map_err(at)?;
                        let issue = params.issue(*pipe).min(d);
                        let share = (d - issue) / unit.blocks.len().max(1) as f64;
                        // It starts at once, or so late that its fixed cycles end when its
                        // first block is released.
                        let first = gates.first().map_or((0.0, None), |g| *g);
                        let (start, mut pred) =
                            if first.0 - issue > ready[p] { (first.0 - issue, first.1) } else { (ready[p], why[p]) };
                        let me = Some(run.records.len());
                        let mut t = start + issue;
                        for (b, (gate, by)) in unit.blocks.iter().zip(gates) {
                            if gate > t {
                                (t, pred) = (gate, by);
                            }
                            t += share;
                            if unit.flag == UnitFlag::Release {
                                let u = units.entry(*b).or_default();
                                if *pipe == Pipe::M {
                                    u.sets.push((t, me))
                                } else {
                                    u.clears.push((t, me))
                                }
                            }
                        }
                        let end = if unit.blocks.is_empty() { start + d } else { t };
                        run.records.push(Record { pipe: *pipe, kind: *kind, start, end, busy: d, pred });
                        ready[p] = end;
                        why[p] = me;
                    }
                    Instr::Op { pipe, kind, work, dst, .. } => {
                        let d = duration(params, (*pipe, *dst), work, active, hit[i]).map_err(at)?;
                        let start = ready[p];
                        run.records.push(Record {
                            pipe: *pipe,
                            kind: *kind,
                            start,
                            end: start + d,
                            busy: d,
                            pred: why[p],
                        });
                        ready[p] = start + d;
                        why[p] = Some(run.records.len() - 1);
                    }
                    Instr::Set { event, id, .. } => {
                        sets.entry((event.clone(), *id)).or_default().push((ready[p] + params.flag_cycles, why[p]));
                    }
                    Instr::Wait { event, id, .. } => {
                        let key = (event.clone(), *id);
                        let k = consumed.get(&key).copied().unwrap_or(0);
                        let Some(&(t, w)) = sets.get(&key).and_then(|s| s.get(k)) else { break };
                        consumed.insert(key, k + 1);
                        if t > ready[p] {
                            ready[p] = t;
                            why[p] = w;
                        }
                    }
                    Instr::BarrierAll => {
                        let flags = arrived.entry(i).or_insert_with(|| vec![false; n]);
                        flags[p] = true;
                        let all_arrived = flags.iter().all(|a| *a);
                        let (t, w) = match released.entry(i) {
                            std::collections::hash_map::Entry::Occupied(e) => *e.get(),
                            std::collections::hash_map::Entry::Vacant(_) if !all_arrived => break,
                            std::collections::hash_map::Entry::Vacant(e) => {
                                // Every pipe is at the barrier: it opens when the last finishes.
                                let last = (0..n).max_by(|a, b| ready[*a].total_cmp(&ready[*b])).unwrap_or(0);
                                *e.insert((ready[last], why[last]))
                            }
                        };
                        ready[p] = t;
                        why[p] = w;
                    }
                }
                head[p] += 1;
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    if let Some(p) = (0..n).find(|p| head[*p] < queues[*p].len()) {
        let what = match &instrs[queues[p][head[p]]] {
            Instr::Wait { event, id, .. } => {
                format!("WaitFlag<{event}>(EVENT_ID{id}) waits for a SetFlag that never comes")
            }
            Instr::Op { kind, .. } => {
                format!("{kind:?} with unitFlag waits for an L0C block the other side never releases")
            }
            _ => "PipeBarrier<PIPE_ALL> is never reached by every pipe".to_string(),
        };
        return Err(at(EmitError::CostDeadlock(format!("PIPE_{}: {what}", PIPES[p].name()))));
    }
    run.end = run.records.iter().map(|r| r.end).fold(0.0, f64::max);
    Ok(run)
}
