//! The hardware parameters of the cost model: one table per target, every number with its
//! source in docs/cost-model.md (a test checks the two agree). Nothing here is fitted to
//! measured kernel timings; where no public number exists the value is a stated assumption.

use super::Pipe;
use ascendc_params::Buffer;
use ascendc_params::Target;

/// What the model knows of one target.
#[derive(Clone, Debug, PartialEq)]
pub struct HardwareParams {
    pub target: Target,
    /// The part the numbers describe.
    pub part: &'static str,
    /// AI core (cube) clock, Hz.
    pub clock_hz: f64,
    /// Cube cores a kernel's blocks can run on at once.
    pub cube_cores: i64,
    /// Cube multiply-accumulates per cycle, per A/B element type. One cube step multiplies a
    /// 16 x k0 fractal of A by a k0 x 16 fractal of B, k0 = MACs / 256.
    pub cube_macs_per_cycle: &'static [(&'static str, i64)],
    /// Off-chip memory (GM) bandwidth of the whole chip, bytes/s, shared by the active cores.
    pub gm_bytes_per_s: f64,
    /// What one core's port moves at most, bytes/s (MTE2 reads and FIX writes).
    pub core_port_bytes_per_s: f64,
    /// On-chip L2 cache in front of GM, bytes (shared by all cores; an MTE2 read of bytes
    /// already in it hits, see `cost::l2`).
    pub l2_bytes: i64,
    /// What one core reads from L2 per cycle on a hit. The platform configuration gives it per
    /// core, so the chip's L2 serves `cube_cores` times it and a core never gets more.
    pub l2_bytes_per_cycle: f64,
    /// MTE1 L1 -> L0A, bytes/cycle.
    pub l1_to_l0a_bytes_per_cycle: f64,
    /// MTE1 L1 -> L0B, bytes/cycle.
    pub l1_to_l0b_bytes_per_cycle: f64,
    /// FIX (L0C -> GM), bytes/cycle, before the GM share.
    pub fix_bytes_per_cycle: f64,
    /// Fixed cycles each instruction of a pipe costs besides its transfer or compute time
    /// (issue and start-up), in `Pipe` order MTE2, MTE1, M, FIX.
    pub issue_cycles: [f64; 4],
    /// Cycles from a `SetFlag` on the source pipe to the flag being seen by `WaitFlag`.
    pub flag_cycles: f64,
}

const A2: HardwareParams = HardwareParams {
    target: Target::A2,
    part: "Atlas A2 (Ascend 910B, 24 cube cores)",
    clock_hz: 1.6e9,
    cube_cores: 24,
    cube_macs_per_cycle: &[("f16", 4096), ("bf16", 4096), ("f32", 2048), ("i8", 8192)],
    gm_bytes_per_s: 1.6e12,
    core_port_bytes_per_s: 256e9,
    l2_bytes: 201_326_592,
    l2_bytes_per_cycle: 110.0,
    l1_to_l0a_bytes_per_cycle: 512.0,
    l1_to_l0b_bytes_per_cycle: 256.0,
    fix_bytes_per_cycle: 128.0,
    issue_cycles: [200.0, 30.0, 20.0, 100.0],
    flag_cycles: 10.0,
};

const A5: HardwareParams = HardwareParams {
    target: Target::A5,
    part: "Ascend 950PR (arch 3510, 32 cube cores)",
    clock_hz: 1.9e9,
    cube_cores: 32,
    cube_macs_per_cycle: &[("f16", 4096), ("bf16", 4096), ("f32", 2048), ("i8", 8192)],
    gm_bytes_per_s: 1.6e12,
    core_port_bytes_per_s: 256e9,
    l2_bytes: 134_217_728,
    l2_bytes_per_cycle: 100.0,
    l1_to_l0a_bytes_per_cycle: 256.0,
    l1_to_l0b_bytes_per_cycle: 256.0,
    fix_bytes_per_cycle: 128.0,
    issue_cycles: [200.0, 30.0, 20.0, 100.0],
    flag_cycles: 10.0,
};

impl HardwareParams {
    /// The table of `target`.
    pub fn of(target: Target) -> HardwareParams {
        match target {
            Target::A2 => A2,
            Target::A5 => A5,
        }
    }

    /// Cube MACs per cycle for A/B elements of type `elem` (`None`: the cube takes no such type).
    pub fn macs_per_cycle(&self, elem: &str) -> Option<i64> {
        self.cube_macs_per_cycle.iter().find(|(e, _)| *e == elem).map(|(_, m)| *m)
    }

    /// Peak cube FLOP/s of `cores` cores on `elem` (2 FLOPs per MAC).
    pub fn peak_flops(&self, elem: &str, cores: i64) -> Option<f64> {
        Some(2.0 * self.macs_per_cycle(elem)? as f64 * self.clock_hz * cores as f64)
    }

    /// The bytes per cycle one core moves to or from GM while `active` cores share it.
    pub fn gm_bytes_per_cycle(&self, active: i64) -> f64 {
        let share = self.gm_bytes_per_s / active.max(1) as f64;
        share.min(self.core_port_bytes_per_s) / self.clock_hz
    }

    /// The bytes per cycle one core reads from L2 on a hit while `active` cores share it: the
    /// chip's L2 rate (`cube_cores` x the per-core rate) over the active cores, at most the
    /// per-core rate (so, as the figure is per core, always the per-core rate).
    pub fn l2_hit_bytes_per_cycle(&self, active: i64) -> f64 {
        let chip = self.l2_bytes_per_cycle * self.cube_cores as f64;
        (chip / active.max(1) as f64).min(self.l2_bytes_per_cycle)
    }

    /// The MTE1 rate into `dst` (L0A; anything else is charged as L0B), bytes/cycle.
    pub fn mte1_bytes_per_cycle(&self, dst: Option<Buffer>) -> f64 {
        match dst {
            Some(Buffer::L0A) => self.l1_to_l0a_bytes_per_cycle,
            _ => self.l1_to_l0b_bytes_per_cycle,
        }
    }

    /// The fixed cycles of an instruction on `pipe`.
    pub fn issue(&self, pipe: Pipe) -> f64 {
        match pipe {
            Pipe::Mte2 => self.issue_cycles[0],
            Pipe::Mte1 => self.issue_cycles[1],
            Pipe::M => self.issue_cycles[2],
            Pipe::Fix => self.issue_cycles[3],
            // MTE3 (UB -> GM) is not emitted today; a GM transfer, it is charged as MTE2.
            Pipe::Mte3 => self.issue_cycles[0],
        }
    }

    /// Every number of the table as `(name, value)`, the rows of docs/cost-model.md.
    pub fn rows(&self) -> Vec<(String, f64)> {
        let mut rows =
            vec![("clock_hz".to_string(), self.clock_hz), ("cube_cores".to_string(), self.cube_cores as f64)];
        for (elem, macs) in self.cube_macs_per_cycle {
            rows.push((format!("cube_macs_per_cycle.{elem}"), *macs as f64));
        }
        rows.extend([
            ("gm_bytes_per_s".to_string(), self.gm_bytes_per_s),
            ("core_port_bytes_per_s".to_string(), self.core_port_bytes_per_s),
            ("l2_bytes".to_string(), self.l2_bytes as f64),
            ("l2_bytes_per_cycle".to_string(), self.l2_bytes_per_cycle),
            ("l1_to_l0a_bytes_per_cycle".to_string(), self.l1_to_l0a_bytes_per_cycle),
            ("l1_to_l0b_bytes_per_cycle".to_string(), self.l1_to_l0b_bytes_per_cycle),
            ("fix_bytes_per_cycle".to_string(), self.fix_bytes_per_cycle),
        ]);
        for (pipe, cycles) in [Pipe::Mte2, Pipe::Mte1, Pipe::M, Pipe::Fix].iter().zip(self.issue_cycles) {
            rows.push((format!("issue_cycles.{}", pipe.name()), cycles));
        }
        rows.push(("flag_cycles".to_string(), self.flag_cycles));
        rows
    }
}
