//! Hand-computed kernels against the a2 table (docs/cost-model.md): one 2048 B DataCopy at
//! min(1.6 TB/s / cores, 256 GB/s) / 1.6 GHz plus 200 issue cycles, one 16x16x64 f16 Mmad =
//! 4 cube steps plus 20, flags 10 cycles.

use super::interp::{pipe_named, Instr};
use super::sim::{simulate, PIPES};
use super::*;
use crate::kernel::{Buf, Call, Kernel, Kind, Param, Stmt, Val};
use index_simplify::ArithOp;

fn gm(name: &str, elem: &str, param: usize) -> Buf {
    Buf { name: name.into(), elem: elem.into(), local: None, param: Some(param), layout: String::new(), at: None }
}

fn local(name: &str, elem: &str, position: &str, size: i64) -> Buf {
    let local = Some((position.to_string(), 0, size));
    Buf { name: name.into(), elem: elem.into(), local, param: None, layout: String::new(), at: None }
}

fn call(kind: Kind, bufs: &[usize], fields: &[(&str, i64)]) -> Stmt {
    let mut f: HashMap<String, Val> = fields.iter().map(|(k, v)| (k.to_string(), Val::Const(*v))).collect();
    f.entry("repeat".into()).or_insert(Val::Const(1));
    Stmt::Call(Call {
        kind,
        bufs: bufs.to_vec(),
        fields: f,
        bools: HashMap::new(),
        quant: None,
        notes: Vec::new(),
        refs: Vec::new(),
        at: None,
    })
}

/// GM A (f16) -> L1 (buffer 2): 16 x 64 f16 = 2048 B.
fn copy() -> Stmt {
    call(Kind::DataCopyNd2Nz, &[2, 0], &[("ndNum", 1), ("nValue", 16), ("dValue", 64)])
}

/// [`copy`] from GM element offset `src`: a different `src` is a different tile, which the L2
/// model (l2.rs) has not seen.
fn copy_from(src: Val) -> Stmt {
    let mut c = copy();
    if let Stmt::Call(call) = &mut c {
        call.fields.insert("off1".into(), src);
    }
    c
}

/// 16 x 16 x 64 f16 into L0C (buffer 5).
fn mmad() -> Stmt {
    call(Kind::Mmad, &[5, 3, 4], &[("m", 16), ("n", 16), ("k", 64)])
}

fn flag(set: bool, event: &str, id: i64) -> Stmt {
    Stmt::Flag { set, event: event.into(), id }
}

fn kernel(body: Vec<Stmt>) -> Kernel {
    Kernel {
        name: "k".into(),
        params: vec![
            Param::Gm { name: "arg0".into(), elem: "f16".into(), memref: String::new() },
            Param::Gm { name: "arg1".into(), elem: "f32".into(), memref: String::new() },
            Param::Index { name: "arg2".into() },
        ],
        bufs: vec![
            gm("arg0Gm", "f16", 0),
            gm("arg1Gm", "f32", 1),
            local("a1", "f16", "A1", 2048),
            local("a2", "f16", "A2", 2048),
            local("b2", "f16", "B2", 2048),
            local("co1", "f32", "CO1", 1024),
        ],
        body,
    }
}

fn run(body: Vec<Stmt>, k: Option<i64>, block_dim: i64) -> Result<Estimate, Located> {
    let args = k.map(|k| HashMap::from([(2usize, k)])).unwrap_or_default();
    estimate(&kernel(body), Target::A2, &Inputs { args, block_dim, mnk: None })
}

fn cycles(body: Vec<Stmt>) -> f64 {
    run(body, None, 1).unwrap().report.cycles
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn every_intrinsic_pipe_comes_from_its_declaration() {
    for k in Kind::ALL {
        let pipe = pipe_named(k.decl().pipe).expect("a pipe the model knows");
        assert_eq!(pipe.name(), k.decl().pipe);
    }
    assert_eq!(pipe_named(Kind::Mmad.decl().pipe), Some(Pipe::M));
}

#[test]
fn one_copy_then_one_mmad_exact_cycles() {
    // DataCopy 200 + 2048 / 160 = 212.8; flag 10; Mmad 20 + 1 * 1 * 4 = 24.
    let serial = cycles(vec![copy(), flag(true, "MTE2_M", 0), flag(false, "MTE2_M", 0), mmad()]);
    assert!(close(serial, 246.8), "{serial}");
    // Without the flag the cube runs beside MTE2: the copy alone bounds the time.
    let parallel = cycles(vec![copy(), mmad()]);
    assert!(close(parallel, 212.8), "{parallel}");
    assert!(close(serial - parallel, 34.0));
    // A barrier orders them too, without flag latency.
    let barrier = cycles(vec![copy(), Stmt::Barrier("PIPE_ALL".into()), mmad()]);
    assert!(close(barrier, 236.8), "{barrier}");
    // A barrier on one pipe orders nothing across pipes.
    assert!(close(cycles(vec![copy(), Stmt::Barrier("PIPE_MTE2".into()), mmad()]), 212.8));
}

#[test]
fn report_busy_path_and_utilization() {
    let e = run(vec![copy(), flag(true, "MTE2_M", 0), flag(false, "MTE2_M", 0), mmad()], None, 1).unwrap();
    let r = &e.report;
    assert_eq!(r.busy.iter().map(|b| b.0).collect::<Vec<_>>(), [Pipe::Mte2, Pipe::M]);
    assert!(close(r.busy[0].1, 212.8) && close(r.busy[1].1, 24.0));
    assert_eq!(r.path.iter().map(|s| s.pipe).collect::<Vec<_>>(), [Pipe::Mte2, Pipe::M]);
    assert!(close(r.path_flag_cycles, 10.0));
    assert_eq!(r.macs_issued, 16 * 16 * 64);
    // Cube bound: 2 * 16384 FLOP at 2 * 4096 * 1.6e9 FLOP/s = 4 cycles.
    let b = r.bound.as_ref().unwrap();
    assert!(close(b.seconds * 1.6e9, 4.0));
    assert!(close(b.utilization, 4.0 / 246.8));
    assert!(close(r.seconds, 246.8 / 1.6e9));
    let text = r.to_string();
    assert!(text.contains("a model, not a measurement"), "{text}");
    assert!(text.contains("cube utilization: 1.6%"), "{text}");
    assert!(text.contains("cube peak: 13.107 TFLOP/s per core (f16), 24 cube cores on the target"), "{text}");
}

/// `for i in 0..K step 64 { copy; MTE2 -> M; mmad; M -> MTE2 }` with K argument 2; every
/// iteration copies another tile (no L2 hits).
fn k_loop() -> Vec<Stmt> {
    vec![
        flag(true, "M_MTE2", 0),
        Stmt::For {
            var: "i0".into(),
            lo: Val::Const(0),
            hi: Val::Var("arg2".into()),
            step: Val::Const(64),
            iter: vec![],
            body: vec![
                flag(false, "M_MTE2", 0),
                copy_from(Val::Var("i0".into())),
                flag(true, "MTE2_M", 0),
                flag(false, "MTE2_M", 0),
                mmad(),
                flag(true, "M_MTE2", 0),
            ],
            yields: vec![],
            results: vec![],
        },
        flag(false, "M_MTE2", 0),
    ]
}

#[test]
fn more_k_takes_more_time() {
    let times: Vec<f64> =
        [64, 128, 1000, 4096].iter().map(|k| run(k_loop(), Some(*k), 1).unwrap().report.cycles).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    // Serial iterations: 10 (the prologue flag) + n * (212.8 + 10 + 24 + 10) - 10.
    assert!(close(times[0], 256.8), "{times:?}");
    assert!(close(times[1], 2.0 * 256.8));
    assert!(close(times[2], 16.0 * 256.8), "1000 / 64 rounds up to 16 iterations");
    let missing = run(k_loop(), None, 1).unwrap_err();
    assert!(missing.to_string().contains("give --arg 2=VALUE"), "{missing}");
}

#[test]
fn double_buffering_overlaps_copies_with_the_cube() {
    // Two slices per iteration on event ids 0 and 1, both M -> MTE2 flags set ahead.
    // Every copy reads another tile (offsets 64 i and 64 i + 32: no L2 hits).
    let body = vec![
        Stmt::Arith { name: "s0".into(), op: ArithOp::MulI, a: Val::Var("i0".into()), b: Val::Const(64) },
        Stmt::Arith { name: "s1".into(), op: ArithOp::AddI, a: Val::Var("s0".into()), b: Val::Const(32) },
        flag(false, "M_MTE2", 0),
        copy_from(Val::Var("s0".into())),
        flag(true, "MTE2_M", 0),
        flag(false, "M_MTE2", 1),
        copy_from(Val::Var("s1".into())),
        flag(true, "MTE2_M", 1),
        flag(false, "MTE2_M", 0),
        mmad(),
        flag(true, "M_MTE2", 0),
        flag(false, "MTE2_M", 1),
        mmad(),
        flag(true, "M_MTE2", 1),
    ];
    let program = |body: Vec<Stmt>, ids: &[i64]| {
        let mut s: Vec<Stmt> = ids.iter().map(|id| flag(true, "M_MTE2", *id)).collect();
        s.push(Stmt::For {
            var: "i0".into(),
            lo: Val::Const(0),
            hi: Val::Const(2),
            step: Val::Const(1),
            iter: vec![],
            body,
            yields: vec![],
            results: vec![],
        });
        s.extend(ids.iter().map(|id| flag(false, "M_MTE2", *id)));
        s
    };
    let double = cycles(program(body, &[0, 1]));
    // Copies back to back from 10: 10 + 4 * 212.8, then the last flag and Mmad.
    assert!(close(double, 10.0 + 4.0 * 212.8 + 10.0 + 24.0), "{double}");
    let single = run(k_loop(), Some(4 * 64), 1).unwrap().report.cycles;
    assert!(close(single, 4.0 * 256.8));
    assert!(double < single);
}

#[test]
fn a_wait_without_set_is_a_deadlock() {
    let e = run(vec![flag(false, "MTE2_M", 3), mmad()], None, 1).unwrap_err();
    assert!(e.to_string().contains("WaitFlag<MTE2_M>(EVENT_ID3) waits for a SetFlag that never comes"), "{e}");
    // A set later in program order on another pipe releases it.
    assert!(close(cycles(vec![flag(false, "MTE2_M", 0), mmad(), copy(), flag(true, "MTE2_M", 0)]), 246.8));
}

#[test]
fn cores_share_gm_bandwidth() {
    // Every block copies its own tile (offset 1024 b): no L2 hits.
    let body = || {
        vec![
            Stmt::Block { name: "b".into(), num: false },
            Stmt::Arith { name: "o".into(), op: ArithOp::MulI, a: Val::Var("b".into()), b: Val::Const(1024) },
            copy_from(Val::Var("o".into())),
            flag(true, "MTE2_M", 0),
            flag(false, "MTE2_M", 0),
            mmad(),
        ]
    };
    // Two cores: 800 GB/s each, still above the 256 GB/s port.
    assert!(close(run(body(), None, 2).unwrap().report.cycles, 246.8));
    // 24 cores: 1.6e12 / 24 / 1.6e9 = 41.667 B/cycle: 2048 B take 49.152 cycles.
    let all = run(body(), None, 24).unwrap().report;
    assert!(close(all.cycles, 200.0 + 49.152 + 34.0), "{}", all.cycles);
    // 48 blocks: two per core, one after the other.
    let twice = run(body(), None, 48).unwrap().report;
    assert_eq!((twice.cores, twice.blocks_per_core), (24, 2));
    assert!(close(twice.cycles, 2.0 * all.cycles));
    // The bound counts every block's MACs over the 24 cores.
    assert_eq!(twice.macs_issued, 48 * 16 * 16 * 64);
    let b = twice.bound.unwrap();
    assert!(close(b.seconds * 1.6e9, 2.0 * 4.0));
    assert!(run(body(), None, 0).is_err());
    let too_many = run(body(), None, MAX_BLOCK_DIM + 1).unwrap_err();
    assert!(too_many.to_string().contains("is not a block count in [1, 65535]"), "{too_many}");
}

#[test]
fn arithmetic_branches_and_repeat() {
    // repeat = n - 1 computed in the kernel; a branch picks the copy.
    // Each repeat reads the next tile (step1), so none hits L2.
    let mut c = copy();
    if let Stmt::Call(call) = &mut c {
        call.fields.insert("repeat".into(), Val::Var("r".into()));
        call.fields.insert("step1".into(), Val::Const(1024));
    }
    let body = vec![
        Stmt::Arith { name: "r".into(), op: ArithOp::SubI, a: Val::Var("arg2".into()), b: Val::Const(1) },
        Stmt::Cmp { name: "c".into(), pred: crate::kernel::Pred::Sgt, a: Val::Var("r".into()), b: Val::Const(2) },
        Stmt::If {
            cond: Val::Var("c".into()),
            results: vec![],
            then_body: vec![c],
            then_yields: vec![],
            else_body: vec![mmad()],
            else_yields: vec![],
        },
    ];
    let e = run(body.clone(), Some(4), 1).unwrap();
    assert!(close(e.report.cycles, 3.0 * 212.8));
    assert!(close(run(body, Some(2), 1).unwrap().report.cycles, 24.0));
}

#[test]
fn pipes_of_a_program() {
    let program = interp::Interp::new(&kernel(vec![copy(), mmad()]), &HashMap::new(), interp::Block { idx: 0, num: 1 })
        .run()
        .unwrap();
    assert!(!program.reads_block_idx);
    let pipes: Vec<Pipe> =
        program.instrs.iter().filter_map(|i| if let Instr::Op { pipe, .. } = i { Some(*pipe) } else { None }).collect();
    assert_eq!(pipes, [Pipe::Mte2, Pipe::M]);
    let run = simulate(&program.instrs, &HardwareParams::of(Target::A2), 1, &[]).unwrap();
    assert_eq!(run.records.len(), 2);
    assert_eq!(PIPES.len(), 5);
}

#[test]
fn trace_is_chrome_json_with_every_call() {
    let e = run(vec![copy(), mmad()], None, 2).unwrap();
    let json = e.chrome_trace();
    assert!(json.starts_with("{\"otherData\""));
    assert_eq!(json.matches("\"ph\":\"X\"").count(), 4, "two calls on each of two cores");
    assert!(json.contains("\"name\":\"Mmad(MmadParams)\""));
    assert!(json.contains("\"dur\":0.1330"), "212.8 cycles at 1.6 GHz = 0.133 us: {json}");
}

/// Every number of the parameter table is the one docs/cost-model.md gives (and cites).
#[test]
fn parameter_table_matches_the_docs() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cost-model.md")).unwrap();
    for (column, target) in [(2usize, Target::A2), (3, Target::A5)] {
        for (name, value) in HardwareParams::of(target).rows() {
            let row = doc
                .lines()
                .find(|l| l.starts_with('|') && l.contains(&format!("`{name}`")))
                .unwrap_or_else(|| panic!("docs/cost-model.md has no row for `{name}`"));
            let cell = row.split('|').nth(column).unwrap().trim();
            let documented: f64 = cell.parse().unwrap_or_else(|_| panic!("`{name}`: '{cell}' is not a number"));
            assert_eq!(documented, value, "`{name}` on {}", target.name());
        }
    }
}

#[test]
fn an_atomic_add_fixpipe_moves_its_bytes_twice() {
    // 16 x 16 f32 = 1024 B from L0C (buffer 5) to GM (buffer 1). One core: G = 256 GB/s / 1.6 GHz
    // = 160 B/cycle, above FIX's 128: 100 + 1024 / 128 = 108 cycles; under SetAtomicAdd the
    // element is read and written: 100 + 2048 / 128 = 116 (docs/cost-model.md §4).
    let store = || call(Kind::FixpipeNz2Nd, &[1, 5], &[("ndNum", 1), ("mSize", 16), ("nSize", 16)]);
    assert!(close(cycles(vec![store()]), 108.0), "{}", cycles(vec![store()]));
    let add = |elem: Option<&str>| Stmt::Atomic { add: elem.map(str::to_string) };
    let atomic = cycles(vec![add(Some("f32")), store(), add(None)]);
    assert!(close(atomic, 116.0), "{atomic}");
    // SetAtomicNone ends it: the next store is plain again.
    let both = cycles(vec![add(Some("f32")), store(), add(None), store()]);
    assert!(close(both, 116.0 + 108.0), "{both}");
}

#[test]
fn l2_lru_keeps_the_most_recently_used() {
    use super::l2::Lru;
    let key = |k: i64| vec![k].into_boxed_slice();
    let mut l2 = Lru::new(100);
    // a (60) and b (30) miss and fit; a hits and becomes the newest.
    assert!(!l2.access(&key(1), 60));
    assert!(!l2.access(&key(2), 30));
    assert!(l2.access(&key(1), 60));
    // c (30) does not fit beside a and b: the least recently used, b, leaves (FIFO would
    // evict a).
    assert!(!l2.access(&key(3), 30));
    assert!(l2.access(&key(1), 60));
    assert!(!l2.access(&key(2), 30), "b was evicted");
    // b's return (tick 7) evicts the oldest, c (tick 4; a was used at tick 5).
    assert!(l2.access(&key(1), 60));
    assert!(!l2.access(&key(3), 30), "c was evicted by b");
    // Larger than the cache: never kept.
    assert!(!l2.access(&key(9), 101));
    assert!(!l2.access(&key(9), 101));
    assert!(l2.access(&key(1), 60));
}

#[test]
fn l2_hits_follow_the_schedule_order() {
    use super::l2::hits;
    let key = |k: i64| vec![k].into_boxed_slice();
    // Four blocks on two cores (core 0: blocks 0, 2; core 1: blocks 1, 3); each reads the
    // shared tile X (key 0), then a tile of its own (key 10 + b).
    let reads: Vec<Vec<(Box<[i64]>, i64)>> = (0..4).map(|b| vec![(key(0), 10), (key(10 + b), 10)]).collect();
    let refs: Vec<&[(Box<[i64]>, i64)]> = reads.iter().map(Vec::as_slice).collect();
    // Order: b0.X miss, b1.X hit; b1.Y1, b0.Y0 miss; b2.X, b3.X hit; b3.Y3, b2.Y2 miss.
    let big = hits(&refs, 2, 1000);
    assert_eq!(big, [[false, false], [true, false], [true, false], [true, false]]);
    // Room for one tile: Y1 evicts X, Y0 evicts Y1, so b2 misses X again and b3 hits it.
    let one = hits(&refs, 2, 10);
    assert_eq!(one, [[false, false], [true, false], [false, false], [true, false]]);
    // One core runs all four blocks in turn: X hits from block 1 on.
    assert_eq!(hits(&refs, 1, 1000), [[false, false], [true, false], [true, false], [true, false]]);
    assert_eq!(hits(&refs, 1, 10), [[false, false]; 4]);
    // The second round starts at core 1: of two blocks that each read their own tile, then
    // the shared X, block 1 reads X first and misses it.
    let reads: Vec<Vec<(Box<[i64]>, i64)>> = (0..2).map(|b| vec![(key(10 + b), 10), (key(0), 10)]).collect();
    let refs: Vec<&[(Box<[i64]>, i64)]> = reads.iter().map(Vec::as_slice).collect();
    assert_eq!(hits(&refs, 2, 1000), [[false, true], [false, false]]);
}

/// A copy of A's 16 x 64 tile at GM element offset `src` into L1 element offset `dst`.
fn copy_at(src: i64, dst: i64) -> Stmt {
    call(Kind::DataCopyNd2Nz, &[2, 0], &[("ndNum", 1), ("nValue", 16), ("dValue", 64), ("off1", src), ("off0", dst)])
}

#[test]
fn l2_hits_are_charged_at_the_l2_rate() {
    // One core: a miss takes 200 + 2048 / 160 (the 256 GB/s port at 1.6 GHz) = 212.8 cycles,
    // a hit 200 + 2048 / 110 (l2_bytes_per_cycle) = 218.618: alone on the chip a core's GM
    // share is above the L2's per-core rate, and the model charges a hit at the L2 rate.
    let hit = 200.0 + 2048.0 / 110.0;
    let miss = 200.0 + 2048.0 / 160.0;
    // The same GM tile into the other buffer of a pair (another L1 offset) hits.
    let e = run(vec![copy_at(0, 0), copy_at(0, 1024)], None, 1).unwrap().report;
    assert!(close(e.cycles, miss + hit), "{}", e.cycles);
    assert_eq!((e.l2_hit_bytes, e.l2_miss_bytes), (2048, 2048));
    // Another GM offset misses.
    let e = run(vec![copy_at(0, 0), copy_at(1024, 0)], None, 1).unwrap().report;
    assert!(close(e.cycles, 2.0 * miss), "{}", e.cycles);
    assert_eq!((e.l2_hit_bytes, e.l2_miss_bytes), (0, 4096));
    assert!(e.to_string().contains("L2 (all blocks): 0 of 4096 GM read bytes hit (0.0%), 4096 from HBM"), "{e}");
    // A repeat steps the source offset: repeat 2 with step1 0 reads the tile twice (a hit),
    // with step1 1024 two tiles (two misses).
    let repeated = |step: i64| {
        let mut c = copy_at(0, 0);
        if let Stmt::Call(call) = &mut c {
            call.fields.insert("repeat".into(), Val::Const(2));
            call.fields.insert("step1".into(), Val::Const(step));
        }
        run(vec![c], None, 1).unwrap().report.cycles
    };
    assert!(close(repeated(0), miss + hit));
    assert!(close(repeated(1024), 2.0 * miss));
}

#[test]
fn l2_serves_the_cores_that_read_a_tile_after_the_first() {
    let body = || vec![copy(), flag(true, "MTE2_M", 0), flag(false, "MTE2_M", 0), mmad()];
    // 24 cores read the same tile: core 0 first (a miss at the 41.667 B/cycle GM share:
    // 200 + 49.152), the 23 others hit at 110 B/cycle (200 + 18.618); +34 flag and Mmad.
    let miss = 200.0 + 2048.0 / (1.6e12 / 24.0 / 1.6e9) + 34.0;
    let hit = 200.0 + 2048.0 / 110.0 + 34.0;
    let all = run(body(), None, 24).unwrap();
    assert!(close(all.report.cycles, miss), "{}", all.report.cycles);
    assert_eq!((all.report.l2_hit_bytes, all.report.l2_miss_bytes), (23 * 2048, 2048));
    // Two simulations: the missing block and the 23 hitting ones.
    assert_eq!(all.runs.len(), 2);
    assert!(close(all.runs[all.block_run[1]].end, hit));
    // 48 blocks: core 0 runs blocks 0 (miss) and 24 (hit).
    let twice = run(body(), None, 48).unwrap().report;
    assert!(close(twice.cycles, miss + hit), "{}", twice.cycles);
    assert_eq!((twice.l2_hit_bytes, twice.l2_miss_bytes), (47 * 2048, 2048));
}

#[test]
fn mte1_rates_depend_on_the_destination() {
    // 4 fractals = 2048 B from L1 (buffer 2): into L0A (buffer 3) at 512 B/cycle, 30 + 4 = 34
    // cycles; into L0B (buffer 4) at 256 B/cycle, 30 + 8 = 38 (Ascend910B2.ini rates).
    let load = |dst: usize| call(Kind::LoadData2D, &[dst, 2], &[("repeatTimes", 4)]);
    assert!(close(cycles(vec![load(3)]), 34.0), "{}", cycles(vec![load(3)]));
    assert!(close(cycles(vec![load(4)]), 38.0), "{}", cycles(vec![load(4)]));
    assert!(close(cycles(vec![load(3), load(4)]), 72.0));
}

/// `s` (an Mmad or Fixpipe) with `unitFlag = flag`.
fn with_unit(mut s: Stmt, flag: i64) -> Stmt {
    if let Stmt::Call(c) = &mut s {
        c.fields.insert("unitFlag".into(), Val::Const(flag));
    }
    s
}

/// 16 x 16 x `k` f16 into L0C (buffer 5, 1024 B: two 512 B unit-flag blocks).
fn mmad_k(k: i64) -> Stmt {
    call(Kind::Mmad, &[5, 3, 4], &[("m", 16), ("n", 16), ("k", k)])
}

/// The 16 x 16 f32 of L0C (buffer 5) to GM (buffer 1): 100 + 1024 / 128 = 108 cycles.
fn store() -> Stmt {
    call(Kind::FixpipeNz2Nd, &[1, 5], &[("ndNum", 1), ("mSize", 16), ("nSize", 16), ("srcStride", 16)])
}

#[test]
fn unit_flags_overlap_the_fixpipe_with_the_mmad_block_by_block() {
    // Mmad 16 x 16 x 4032: 20 + 252 cube steps = 272 cycles, its two L0C blocks done at
    // 20 + 126 = 146 and 272. With the M_FIX event: 272 + 10 + 108 = 390.
    let events = cycles(vec![mmad_k(4032), flag(true, "M_FIX", 0), flag(false, "M_FIX", 0), store()]);
    assert!(close(events, 390.0), "{events}");
    // unitFlag 3 on both: the Fixpipe's 100 fixed cycles run beside the cube, then block 0
    // (146..150) and block 1 (272..276), 8 / 2 = 4 cycles each. Gating the whole Fixpipe on the
    // whole Mmad would give 280.
    let e = run(vec![with_unit(mmad_k(4032), 3), with_unit(store(), 3)], None, 1).unwrap();
    assert!(close(e.report.cycles, 276.0), "{}", e.report.cycles);
    // Busy: the calls' durations, not the Fixpipe's stall between its blocks (150..272).
    assert_eq!(e.report.busy.iter().map(|b| b.0).collect::<Vec<_>>(), [Pipe::M, Pipe::Fix]);
    assert!(close(e.report.busy[0].1, 272.0) && close(e.report.busy[1].1, 108.0), "{:?}", e.report.busy);
}

#[test]
fn unit_flags_let_the_next_mmad_write_each_block_once_the_fixpipe_read_it() {
    // Two tiles on one accumulator, Mmad 16 x 16 x 64 = 24 cycles (blocks at 22, 24).
    // Events: Mmad 0..24, M_FIX +10, Fixpipe 34..142, FIX_M +10, Mmad 152..176, M_FIX +10,
    // Fixpipe 186..294.
    let tile = |unit: bool| -> Vec<Stmt> {
        if unit {
            return vec![with_unit(mmad_k(64), 3), with_unit(store(), 3)];
        }
        vec![mmad_k(64), flag(true, "M_FIX", 0), flag(false, "M_FIX", 0), store()]
    };
    let mut events = tile(false);
    events.extend([flag(true, "FIX_M", 0), flag(false, "FIX_M", 0)]);
    events.extend(tile(false));
    let events = cycles(events);
    assert!(close(events, 294.0), "{events}");
    // unitFlag: Fixpipe 1 reads block 0 at 100..104 and block 1 at 104..108; Mmad 2 (ready at
    // 24, fixed cycles to 44) writes block 0 at 104..106 and block 1 at 108..110; Fixpipe 2
    // (ready at 108, fixed cycles to 208) reads them at 208..212 and 212..216.
    let unit = cycles([tile(true), tile(true)].concat());
    assert!(close(unit, 216.0), "{unit}");
    // A Fixpipe with unitFlag 3 after an Mmad with 2 waits for a release that never comes.
    let e = run(vec![with_unit(mmad_k(64), 2), with_unit(store(), 3)], None, 1).unwrap_err();
    assert!(e.to_string().contains("never releases"), "{e}");
    // unitFlag 1 is not a value of the API.
    let e = run(vec![with_unit(mmad_k(64), 1)], None, 1).unwrap_err();
    assert!(e.to_string().contains("unitFlag 1 is not 0, 2 or 3"), "{e}");
}
