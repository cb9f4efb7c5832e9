//! The interpreter: runs a [`Kernel`]'s statement tree for concrete index arguments and one
//! block, and writes down what each pipe is given, in program order: intrinsic calls with
//! their work (bytes moved, MACs), `SetFlag`/`WaitFlag` and `PipeBarrier<PIPE_ALL>`.
//!
//! Multi-core: the block index and count are inputs ([`Block`]). A statement that reads them
//! (AscendC `GetBlockIdx()` / `GetBlockNum()`) is one arm of [`Interp::stmt`] calling
//! [`Interp::block_value`], which also records that the block's program depends on its index.

use super::l2::Footprint;
use super::work::{work_of, Work};
use super::Pipe;
use crate::error::{EmitError, Located};
use crate::kernel::{memory_of, Call, Kernel, Kind, Param, Stmt, Val};
use ascendc_params::decl::{UnitFlag, UNIT_FLAG_BLOCK_BYTES};
use ascendc_params::Buffer;
use std::collections::HashMap;

/// One thing a pipe's queue holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Instr {
    /// An intrinsic call on `pipe`; `read`: the footprint of a GM read (MTE2 from a GM
    /// tensor), which the L2 model looks up (`cost::l2`); `dst`: the on-chip memory written
    /// (the MTE1 rate depends on it).
    /// `unit`: the unit-flag handshake of an `Mmad` or `Fixpipe` with unitFlag 2 or 3.
    Op { pipe: Pipe, kind: Kind, work: Work, read: Option<Footprint>, dst: Option<Buffer>, unit: Option<Unit> },
    /// `SetFlag<SRC_DST>(id)`: queued on `src`, seen by the `WaitFlag`s of `dst`.
    Set { src: Pipe, dst: Pipe, event: String, id: i64 },
    /// `WaitFlag<SRC_DST>(id)`: queued on `dst`.
    Wait { src: Pipe, dst: Pipe, event: String, id: i64 },
    /// `PipeBarrier<PIPE_ALL>`: every pipe waits for everything before it.
    BarrierAll,
}

/// The unit flag of an `Mmad` or `Fixpipe` call (`ascendc_params::decl::UnitFlag`, 2 or 3) and
/// the 512 B L0C blocks (L0C byte address / 512) it writes (Mmad) or reads (Fixpipe), ascending:
/// the simulator gates each block on the other side (docs/cost-model.md §7.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub flag: UnitFlag,
    pub blocks: Vec<i64>,
}

/// The block a program is run for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub idx: i64,
    pub num: i64,
}

/// Which block value a statement reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockValue {
    Idx,
    Num,
}

/// One block's program, and whether it read its block index (if not, every block's program
/// is the same and the simulator runs it once).
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub instrs: Vec<Instr>,
    pub reads_block_idx: bool,
}

/// Programs longer than this are refused (a model run should take seconds, not hours).
pub const MAX_INSTRS: usize = 50_000_000;

pub struct Interp<'k> {
    kernel: &'k Kernel,
    env: HashMap<String, i64>,
    block: Block,
    out: Program,
    /// Inside `SetAtomicAdd<T>()` … `SetAtomicNone()`.
    atomic_add: bool,
}

fn err(e: EmitError) -> Located {
    e.at(None)
}

/// The pipe named in an event or barrier (`MTE2`, `PIPE_MTE2`).
pub fn pipe_named(name: &str) -> Option<Pipe> {
    let name = name.strip_prefix("PIPE_").unwrap_or(name);
    [Pipe::Mte2, Pipe::Mte1, Pipe::M, Pipe::Fix, Pipe::Mte3].into_iter().find(|p| p.name() == name)
}

impl<'k> Interp<'k> {
    /// `args`: the value of index parameter `k` (the kernel's argument number).
    pub fn new(kernel: &'k Kernel, args: &HashMap<usize, i64>, block: Block) -> Self {
        let mut env = HashMap::new();
        for (k, p) in kernel.params.iter().enumerate() {
            if let (Param::Index { name }, Some(v)) = (p, args.get(&k)) {
                env.insert(name.clone(), *v);
            }
        }
        Interp { kernel, env, block, out: Program { instrs: Vec::new(), reads_block_idx: false }, atomic_add: false }
    }

    /// Runs the whole kernel body.
    pub fn run(mut self) -> Result<Program, Located> {
        let body = &self.kernel.body;
        self.stmts(body)?;
        Ok(self.out)
    }

    /// The block index or count (the arm of a block-value statement).
    pub fn block_value(&mut self, which: BlockValue) -> i64 {
        match which {
            BlockValue::Idx => {
                self.out.reads_block_idx = true;
                self.block.idx
            }
            BlockValue::Num => self.block.num,
        }
    }

    fn val(&self, v: &Val) -> Result<i64, Located> {
        match v {
            Val::Const(c) => Ok(*c),
            Val::Var(n) => self.env.get(n).copied().ok_or_else(|| {
                let arg = self.kernel.params.iter().position(|p| matches!(p, Param::Index { name } if name == n));
                err(match arg {
                    Some(k) => EmitError::CostArgument(format!(
                        "index argument #{k} of @{} has no value (give --arg {k}=VALUE)",
                        self.kernel.name
                    )),
                    None => EmitError::Malformed(format!("value {n} is used before it is defined")),
                })
            }),
        }
    }

    fn set(&mut self, name: &str, v: i64) {
        self.env.insert(name.to_string(), v);
    }

    fn push(&mut self, instr: Instr) -> Result<(), Located> {
        if self.out.instrs.len() >= MAX_INSTRS {
            return Err(err(EmitError::CostLimit(MAX_INSTRS)));
        }
        self.out.instrs.push(instr);
        Ok(())
    }

    /// The footprint of a GM read without its repeat's offset: the source tensor, the
    /// intrinsic, and the source-side fields in name order (not the destination's: the same
    /// GM tile copied into either buffer of a double-buffered pair is one footprint); with the
    /// source offset `off1` and its step per repeat `step1`.
    fn footprint(&self, c: &Call) -> Result<(Vec<i64>, i64, i64), Located> {
        let kind = Kind::ALL.iter().position(|k| *k == c.kind).unwrap_or(usize::MAX) as i64;
        let mut names: Vec<&String> = c
            .fields
            .keys()
            .filter(|n| !n.starts_with("dst") && !["repeat", "off0", "step0", "off1", "step1"].contains(&n.as_str()))
            .collect();
        names.sort();
        let mut key = vec![c.bufs[1] as i64, kind];
        for n in names {
            key.push(self.val(&c.field(n)).map_err(|e| e.error.at(c.at.clone()))?);
        }
        let value = |n: &str| self.val(&c.field(n)).map_err(|e| e.error.at(c.at.clone()));
        Ok((key, value("off1")?, value("step1")?))
    }

    /// The L0C blocks repeat `r` of an `Mmad` writes (its C grid: ceil(m/16) x ceil(n/16)
    /// fractals of 16 x 16 accumulators from `off0`) or of a `Fixpipe` reads (`mSize` rows of
    /// 16 accumulators in each of the ceil(nSize/16) column blocks, `srcStride` x 16 elements
    /// apart, from `off1 + r·step1`), ascending.
    fn unit_blocks(
        &self,
        c: &Call,
        r: i64,
        fields: &dyn Fn(&str) -> Result<i64, Located>,
    ) -> Result<Vec<i64>, Located> {
        let at = |e: EmitError| e.at(c.at.clone());
        let mmad = c.kind == Kind::Mmad;
        let l0c = c.bufs.get(if mmad { 0 } else { 1 }).and_then(|b| self.kernel.bufs.get(*b));
        let Some((base, eb)) = l0c.and_then(|b| Some((b.local.as_ref()?.1, crate::cpp::elem_bytes(&b.elem).ok()?)))
        else {
            return Err(at(EmitError::Malformed(format!("{:?} with unitFlag: no L0C operand", c.kind))));
        };
        let overflow =
            || at(EmitError::CostEval(format!("{:?}: the L0C bytes of its unit flags overflow i64", c.kind)));
        let mul = |a: i64, b: i64| a.checked_mul(b).ok_or_else(overflow);
        let add = |a: i64, b: i64| a.checked_add(b).ok_or_else(overflow);
        // (first byte, bytes) of each run it touches.
        let mut runs = Vec::new();
        if mmad {
            let fractals = mul((fields("m")? + 15).div_euclid(16), (fields("n")? + 15).div_euclid(16))?;
            runs.push((add(base, mul(fields("off0")?, eb)?)?, mul(mul(fractals, 256)?, eb)?));
        } else {
            let off = add(fields("off1")?, mul(r, fields("step1")?)?)?;
            let (rows, stride) = (fields("mSize")?, fields("srcStride")?);
            for cb in 0..(fields("nSize")? + 15).div_euclid(16) {
                let at = add(off, mul(mul(cb, stride)?, 16)?)?;
                runs.push((add(base, mul(at, eb)?)?, mul(mul(rows, 16)?, eb)?));
            }
        }
        let mut blocks: Vec<i64> = Vec::new();
        for (lo, n) in runs {
            let hi = add(lo, n.max(0))?;
            blocks.extend(
                lo.div_euclid(UNIT_FLAG_BLOCK_BYTES)
                    ..(hi + UNIT_FLAG_BLOCK_BYTES - 1).div_euclid(UNIT_FLAG_BLOCK_BYTES),
            );
        }
        blocks.sort_unstable();
        blocks.dedup();
        Ok(blocks)
    }

    fn stmts(&mut self, stmts: &[Stmt]) -> Result<(), Located> {
        stmts.iter().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), Located> {
        match s {
            Stmt::Const { name, value } => self.set(name, *value),
            Stmt::Block { name, num } => {
                let v = self.block_value(if *num { BlockValue::Num } else { BlockValue::Idx });
                self.set(name, v);
            }
            Stmt::Arith { name, op, a, b } => {
                let (x, y) = (self.val(a)?, self.val(b)?);
                let v = op.eval(x, y).ok_or_else(|| {
                    err(EmitError::CostEval(format!("{name} = {x} {op:?} {y} is undefined (division by zero?)")))
                })?;
                self.set(name, v);
            }
            Stmt::Cmp { name, pred, a, b } => {
                let v = pred.eval(self.val(a)?, self.val(b)?);
                self.set(name, i64::from(v));
            }
            Stmt::Select { name, cond, a, b } => {
                let v = if self.val(cond)? != 0 { self.val(a)? } else { self.val(b)? };
                self.set(name, v);
            }
            Stmt::For { var, lo, hi, step, iter, body, yields, results } => {
                let (lo, hi, step) = (self.val(lo)?, self.val(hi)?, self.val(step)?);
                if step <= 0 && lo < hi {
                    return Err(err(EmitError::CostEval(format!("loop {var} has step {step}: it never ends"))));
                }
                let mut carried = Vec::new();
                for (_, init) in iter {
                    carried.push(self.val(init)?);
                }
                let mut i = lo;
                while i < hi {
                    self.set(var, i);
                    for ((name, _), v) in iter.iter().zip(&carried) {
                        self.set(name, *v);
                    }
                    self.stmts(body)?;
                    carried = yields.iter().map(|y| self.val(y)).collect::<Result<_, _>>()?;
                    match i.checked_add(step) {
                        Some(next) => i = next,
                        None => break,
                    }
                }
                for (name, v) in results.iter().zip(carried) {
                    self.set(name, v);
                }
            }
            Stmt::If { cond, results, then_body, then_yields, else_body, else_yields } => {
                let taken = self.val(cond)? != 0;
                let (body, yields) = if taken { (then_body, then_yields) } else { (else_body, else_yields) };
                self.stmts(body)?;
                let values: Vec<i64> = yields.iter().map(|y| self.val(y)).collect::<Result<_, _>>()?;
                for (name, v) in results.iter().zip(values) {
                    self.set(name, v);
                }
            }
            Stmt::Call(c) => {
                // The pipe is the intrinsic's declaration's (ascendc_params::decl).
                let declared = c.kind.decl().pipe;
                let pipe =
                    pipe_named(declared).ok_or_else(|| EmitError::CostPipe(declared.to_string()).at(c.at.clone()))?;
                let repeat = self.val(&c.field("repeat")).map_err(|e| e.error.at(c.at.clone()))?;
                let fields = |name: &str| self.val(&c.field(name)).map_err(|e| e.error.at(c.at.clone()));
                let mut work = work_of(self.kernel, c, &fields)?;
                if let (true, Kind::FixpipeNz2Nd | Kind::FixpipeNz2Nz, Work::Bytes(b)) =
                    (self.atomic_add, c.kind, &work)
                {
                    // An atomic add reads each GM byte before writing it: twice the traffic
                    // (an assumption, docs/cost-model.md "Atomic-add stores").
                    work = Work::Bytes(b.saturating_mul(2));
                }
                let reads_gm = pipe == Pipe::Mte2
                    && c.bufs.get(1).and_then(|b| self.kernel.bufs.get(*b)).is_some_and(|b| b.param.is_some());
                let footprint = if reads_gm { Some(self.footprint(c)?) } else { None };
                let dst = c
                    .bufs
                    .first()
                    .and_then(|b| self.kernel.bufs.get(*b))
                    .and_then(|b| b.local.as_ref())
                    .and_then(|(position, _, _)| memory_of(position));
                let flag = match c.kind {
                    Kind::Mmad | Kind::FixpipeNz2Nd | Kind::FixpipeNz2Nz => {
                        let v = fields("unitFlag")?;
                        UnitFlag::of(v).ok_or_else(|| {
                            EmitError::CostEval(format!("{:?}: unitFlag {v} is not 0, 2 or 3", c.kind)).at(c.at.clone())
                        })?
                    }
                    _ => UnitFlag::Off,
                };
                let mut units = Vec::new();
                if flag != UnitFlag::Off {
                    for r in 0..repeat.max(0) {
                        units.push(Unit { flag, blocks: self.unit_blocks(c, r, &fields)? });
                    }
                }
                let mut units = units.into_iter();
                for r in 0..repeat.max(0) {
                    let unit = units.next();
                    let read = match &footprint {
                        Some((fields, off, step)) => {
                            let mut key = fields.clone();
                            key.push(off.saturating_add(step.saturating_mul(r)));
                            Some(key.into_boxed_slice())
                        }
                        None => None,
                    };
                    self.push(Instr::Op { pipe, kind: c.kind, work: work.clone(), read, dst, unit })?;
                }
            }
            Stmt::Flag { set, event, id } => {
                let pipes = event.split_once('_').and_then(|(s, d)| Some((pipe_named(s)?, pipe_named(d)?)));
                let (src, dst) = pipes.ok_or_else(|| err(EmitError::CostPipe(event.clone())))?;
                let (event, id) = (event.clone(), *id);
                self.push(if *set { Instr::Set { src, dst, event, id } } else { Instr::Wait { src, dst, event, id } })?;
            }
            Stmt::Atomic { add } => self.atomic_add = add.is_some(),
            Stmt::Barrier(pipe) => {
                if pipe == "PIPE_ALL" || pipe == "ALL" {
                    self.push(Instr::BarrierAll)?;
                } else if pipe_named(pipe).is_none() {
                    return Err(err(EmitError::CostPipe(pipe.clone())));
                }
                // A barrier on one pipe orders that pipe's own instructions, which run in
                // program order anyway: no time of its own in the model.
            }
        }
        Ok(())
    }
}
