//! Multi-core kernels (issue 12 item 1): examples/gemm_multicore.mlir, whose blocks share the C
//! tile grid (`scf.for %t = %bid to %tiles step %bnum`) in a linear or catlass-swizzled order,
//! run on the three back ends for blockDim ∈ {1, 3, 24} over one GM image (blocks in a seeded
//! shuffled order), every sanitizer check on (racecheck included), and must equal a plain-loop
//! reference exactly. A kernel whose every block writes tile 0 must be reported by racecheck on
//! all three (the model's and the loop lowering's). The schedule's index arithmetic in the example is checked against the one
//! formula, `layout_algebra::ascend::TileOrder`.

use super::{args, elem, scratch};
use ascendc_emit::run::{self, checks, Launch};
use layout_algebra::ascend::{SwizzleDirection, TileOrder};
use layout_npy::random::Rng;
use layout_runtime::{Arg, Array, Data, Jit};
use melior::ir::Module;

/// M, N, K with tails everywhere: 3 x 4 tiles of 64 x 64, K = 2 slices of 64 with a tail.
const M: usize = 150;
const N: usize = 200;
const K: usize = 100;
const BLOCK_DIMS: [u32; 3] = [1, 3, 24];

fn example() -> String {
    std::fs::read_to_string(format!("{}/gemm_multicore.mlir", super::EXAMPLES)).unwrap()
}

/// The example with 64 × 64 C tiles (and 64 × 64 A/B slices): 8 times fewer padded MACs in the
/// model, and a 3 × 4 tile grid at M = 150, N = 200.
fn small_kernel() -> String {
    let constants = [
        ("%c128 = arith.constant 128 : index", "%c128 = arith.constant 64 : index"),
        ("%c256 = arith.constant 256 : index", "%c256 = arith.constant 64 : index"),
    ];
    let pairs: Vec<(&str, &str)> = super::SMALL_BLOCKS.iter().chain(&constants).copied().collect();
    super::substituted(&example(), "examples/gemm_multicore.mlir", &pairs)
}

/// (offset, direction) kernel arguments of a schedule.
fn schedule_args(order: TileOrder) -> (i64, i64) {
    match order {
        TileOrder::Linear => (1, 2),
        TileOrder::Swizzle { offset, direction: SwizzleDirection::Zn } => (offset, 0),
        TileOrder::Swizzle { offset, direction: SwizzleDirection::Nz } => (offset, 1),
    }
}

struct Case {
    inputs: Vec<Array>,
    scalars: Vec<i64>,
    want: Vec<f64>,
}

fn case(order: TileOrder, seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let a = rng.array(elem("f16"), &[M, K]);
    let b = rng.array(elem("f16"), &[K, N]);
    // C starts as garbage: the blocks together must overwrite every element.
    let c = rng.array(elem("f32"), &[M, N]);
    let mut want = vec![0.0; M * N];
    for i in 0..M {
        for j in 0..N {
            want[i * N + j] = (0..K).map(|kk| a.get_f64(i * K + kk) * b.get_f64(kk * N + j)).sum();
        }
    }
    let (offset, direction) = schedule_args(order);
    Case { inputs: vec![a, b, c], scalars: vec![M as i64, N as i64, K as i64, offset, direction], want }
}

fn assert_exact(what: &str, got: &Array, want: &[f64]) {
    if let Some(i) = (0..want.len()).find(|&i| got.get_f64(i) != want[i]) {
        panic!("{what}: C[{}][{}] = {} but the reference is {}", i / N, i % N, got.get_f64(i), want[i]);
    }
}

/// The three back ends of one kernel text, compiled once.
struct Backends {
    cpp: run::CppKernel,
    llvm: run::LlvmKernel,
    loops: Jit,
}

fn backends(context: &melior::Context, source: &str, name: &str) -> Backends {
    let mut lowered = Module::parse(context, source).expect("parse");
    run::lower_to_ascendc(&mut lowered).unwrap_or_else(|e| panic!("{name}: layout-lower-to-ascendc: {e}"));
    let cpp = run::CppKernel::build(&lowered, "gemm_multicore", Some(&scratch(name)), checks::ALL)
        .unwrap_or_else(|e| panic!("{name}: C++ + model: {e}"));
    let llvm = run::LlvmKernel::build(context, &lowered, "gemm_multicore")
        .unwrap_or_else(|e| panic!("{name}: LLVM form: {e}"));
    let mut loops_module = Module::parse(context, source).unwrap();
    layout_runtime::lower_layout_ops_with(&mut loops_module, true).unwrap_or_else(|e| panic!("{name}: loops: {e}"));
    let loops = Jit::new(&loops_module).unwrap_or_else(|e| panic!("{name}: jit (loops): {e}"));
    Backends { cpp, llvm, loops }
}

impl Backends {
    /// C after a launch on each back end: (back end, result).
    fn run(&self, c: &Case, launch: Launch) -> Vec<(&'static str, Result<Array, String>)> {
        let mut out = Vec::new();
        let mut arrays = c.inputs.clone();
        let r = self.cpp.call_launch(&mut args(&mut arrays, &c.scalars), launch);
        out.push(("g++ + model", r.map(|_| arrays.swap_remove(2)).map_err(|e| e.to_string())));
        let mut arrays = c.inputs.clone();
        let r = self.llvm.call_launch(&mut args(&mut arrays, &c.scalars), checks::ALL, launch);
        out.push(("LLVM form + model", r.map(|_| arrays.swap_remove(2)).map_err(|e| e.to_string())));
        let mut arrays = c.inputs.clone();
        let r = layout_runtime::blocks::call_blocks(
            &self.loops,
            "gemm_multicore",
            &mut args(&mut arrays, &c.scalars),
            launch.block_dim,
            launch.seed,
        );
        out.push(("loop lowering", r.map(|_| arrays.swap_remove(2)).map_err(|e| e.to_string())));
        out
    }
}

/// Issue 12 item 3: every schedule, blockDim 1, 3 and 24, three back ends, sanitizer on, exact.
#[test]
fn multicore_gemm_is_exact_for_every_schedule_and_block_count() {
    let context = layout_runtime::create_context().unwrap();
    let b = backends(&context, &small_kernel(), "gemm_multicore_small");
    let orders = [
        TileOrder::Linear,
        TileOrder::Swizzle { offset: 2, direction: SwizzleDirection::Zn },
        TileOrder::Swizzle { offset: 3, direction: SwizzleDirection::Nz },
    ];
    let mut runs = 0;
    for (k, order) in orders.into_iter().enumerate() {
        let c = case(order, 40 + k as u64);
        for block_dim in BLOCK_DIMS {
            let launch = Launch { block_dim, seed: 7 + u64::from(block_dim) };
            for (way, got) in b.run(&c, launch) {
                let got = got.unwrap_or_else(|e| panic!("{order:?}, blockDim {block_dim}: {way}: {e}"));
                assert_exact(&format!("{order:?}, blockDim {block_dim}: {way}"), &got, &c.want);
                runs += 1;
            }
        }
    }
    assert_eq!(runs, 27);
}

/// The example itself (128 × 256 tiles) on 3 blocks: M, N past one tile with tails.
#[test]
fn multicore_gemm_example_tiles() {
    let context = layout_runtime::create_context().unwrap();
    let b = backends(&context, &example(), "gemm_multicore_example");
    let c = case(TileOrder::Swizzle { offset: 3, direction: SwizzleDirection::Zn }, 3);
    for (way, got) in b.run(&c, Launch { block_dim: 3, seed: 1 }) {
        assert_exact(way, &got.unwrap_or_else(|e| panic!("{way}: {e}")), &c.want);
    }
}

/// The negative test: every block computes tile 0, so every block after the first writes the
/// bytes the first wrote. Racecheck reports it on every back end, at the store, with the
/// buffer, the byte range and both block ids; with one block it is not a race.
#[test]
fn racecheck_reports_blocks_writing_the_same_tile() {
    let racy = small_kernel().replace("scf.for %t = %bid to %tiles step %bnum", "scf.for %t = %c0 to %c1 step %c1");
    assert_ne!(racy, small_kernel(), "examples/gemm_multicore.mlir changed shape: update the template");
    let store_line = racy.lines().position(|l| l.contains("\"layout.store\"(%acc, %tc)")).unwrap() + 1;
    let context = layout_runtime::create_context().unwrap();
    let b = backends(&context, &racy, "gemm_multicore_racy");
    let c = case(TileOrder::Linear, 5);
    let order = Launch { block_dim: 3, seed: 2 }.order();
    for (way, got) in b.run(&c, Launch { block_dim: 3, seed: 2 }) {
        let e = got.expect_err(way);
        assert!(e.contains(&format!(":{store_line}:")), "{way}: located at the store (line {store_line}): {e}");
        let (op, buffer) = if way == "loop lowering" {
            ("racecheck: layout.store", "bytes [0, 4) of layout.tile !layout.tensor<f32, \"gm\"")
        } else {
            ("racecheck: Fixpipe (PIPE_FIX)", "GM argument #2 (arg2: memref<?x?xf32>) bytes [0, 4)")
        };
        assert!(e.contains(op), "{way}: {e}");
        let pair = format!("in block {} writes", order[1]);
        assert!(e.contains(&pair), "{way}: the second block in run order ({pair}): {e}");
        assert!(e.contains(buffer), "{way}: the buffer and the bytes of C[0][0] ({buffer}): {e}");
        assert!(e.contains(&format!("which block {} wrote too", order[0])), "{way}: the first block: {e}");
    }
    for (way, got) in b.run(&c, Launch::SINGLE) {
        assert!(got.is_ok(), "{way}: one block is no race: {got:?}");
    }
}

/// Atomic adds (split-K's `layout.store {atomic = "add"}`) of every block into tile 0 are no race:
/// C[tile 0] = C + blockDim × A·B exactly, everywhere else C is untouched. A plain store by
/// block 0 with atomic adds by the others is a race, reported at whichever write comes second
/// in the run order: the add ("atomically adds into") or the plain store ("writes").
#[test]
fn racecheck_tells_atomic_adds_from_plain_writes() {
    const STORE: &str = "\"layout.store\"(%acc, %tc) : (!l0C, !gm32) -> ()";
    const ADD: &str = "\"layout.store\"(%acc, %tc) {atomic = \"add\"} : (!l0C, !gm32) -> ()";
    let one_tile = small_kernel().replace("scf.for %t = %bid to %tiles step %bnum", "scf.for %t = %c0 to %c1 step %c1");
    let adding = one_tile.replace(STORE, ADD);
    assert_ne!(adding, one_tile, "examples/gemm_multicore.mlir changed shape: update the template");
    let mixed = one_tile.replace(
        STORE,
        &format!("%first = arith.cmpi eq, %bid, %c0 : index\n      scf.if %first {{\n        {STORE}\n      }} else {{\n        {ADD}\n      }}"),
    );
    let context = layout_runtime::create_context().unwrap();
    let c = case(TileOrder::Linear, 5);
    let b = backends(&context, &adding, "gemm_multicore_adding");
    for block_dim in [1u32, 3] {
        // Tile 0 is the 64 x 64 corner.
        let want: Vec<f64> = (0..M * N)
            .map(|i| {
                let c0 = c.inputs[2].get_f64(i);
                if i / N < 64 && i % N < 64 {
                    c0 + f64::from(block_dim) * c.want[i]
                } else {
                    c0
                }
            })
            .collect();
        for (way, got) in b.run(&c, Launch { block_dim, seed: 2 }) {
            let got = got.unwrap_or_else(|e| panic!("{way}, blockDim {block_dim}: adds are no race: {e}"));
            assert_exact(&format!("{way}, blockDim {block_dim}"), &got, &want);
        }
    }
    let b = backends(&context, &mixed, "gemm_multicore_mixed");
    // Two blocks: seeds whose run order starts with block 0 (then the add races) and with block 1.
    let seed_for = |first: u32| (0..64).find(|&s| Launch { block_dim: 2, seed: s }.order()[0] == first).unwrap();
    for (first, verb) in [(0u32, "in block 1 atomically adds into"), (1, "in block 0 writes")] {
        for (way, got) in b.run(&c, Launch { block_dim: 2, seed: seed_for(first) }) {
            let e = got.expect_err(way);
            assert!(e.contains("racecheck") && e.contains(verb), "{way}, block {first} first: {verb}: {e}");
            assert!(e.contains(&format!("which block {first} wrote too")), "{way}: the other block: {e}");
        }
    }
}

/// The schedule's index arithmetic of the example (the lines from `// Linear` to `%ni`), run
/// by the loop back end for every task of many grids, equals `TileOrder::tile`.
#[test]
fn example_schedule_arithmetic_is_the_algebra_formula() {
    let text = example();
    let from = text.find("      // Linear").expect("schedule start");
    let to = text[from..].find("      %m0 = ").expect("schedule end") + from;
    let schedule = &text[from..to];
    let source = format!(
        r#"func.func @schedule(%out: memref<?xi64>, %tm: index, %tn: index, %offset: index, %direction: index) attributes {{llvm.emit_c_interface}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %tiles = arith.muli %tm, %tn : index
    scf.for %t = %c0 to %tiles step %c1 {{
{schedule}      %mi64 = arith.index_cast %mi : index to i64
      %ni64 = arith.index_cast %ni : index to i64
      %p = arith.muli %t, %c2 : index
      %q = arith.addi %p, %c1 : index
      memref.store %mi64, %out[%p] : memref<?xi64>
      memref.store %ni64, %out[%q] : memref<?xi64>
    }}
    return
  }}"#
    );
    let context = layout_runtime::create_context().unwrap();
    let module = Module::parse(&context, &source).expect("schedule kernel parses");
    let jit = Jit::new(&module).expect("jit");
    let mut checked = 0;
    for tm in 1..=7i64 {
        for tn in 1..=7i64 {
            for order in [TileOrder::Linear].into_iter().chain((1..=4).flat_map(|offset| {
                [SwizzleDirection::Zn, SwizzleDirection::Nz].map(|direction| TileOrder::Swizzle { offset, direction })
            })) {
                let (offset, direction) = schedule_args(order);
                let mut out =
                    Array::new(vec![(2 * tm * tn) as usize], Data::I64(vec![-1; (2 * tm * tn) as usize])).unwrap();
                let mut a = vec![
                    Arg::MemRef(&mut out),
                    Arg::Index(tm),
                    Arg::Index(tn),
                    Arg::Index(offset),
                    Arg::Index(direction),
                ];
                jit.call("schedule", &mut a).unwrap();
                for t in 0..tm * tn {
                    let want = order.tile(t, tm, tn).unwrap();
                    let got = (out.get_f64(2 * t as usize) as i64, out.get_f64(2 * t as usize + 1) as i64);
                    assert_eq!(got, want, "{order:?} on {tm}x{tn}, task {t}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 3000, "{checked}");
}

/// The order the CPU drivers run blocks in: every block once, the same for a seed, shuffled.
#[test]
fn block_order_is_a_seeded_permutation() {
    use layout_runtime::blocks::block_order;
    for dim in [0, 1, 2, 3, 24, 100] {
        for seed in 0..8 {
            let mut order = block_order(dim, seed);
            assert_eq!(order, block_order(dim, seed), "deterministic");
            order.sort_unstable();
            assert_eq!(order, (0..dim).collect::<Vec<_>>());
        }
    }
    assert!((0..8).any(|s| block_order(24, s)[0] != 0), "block 0 is not always first");
    assert_ne!(block_order(24, 0), block_order(24, 1));
    assert_eq!(Launch { block_dim: 24, seed: 3 }.order(), block_order(24, 3));
}
