//! Kernels written by the GEMM generator (crates/gemm-gen, issue 12 item 4): a matrix of specs
//! (targets, input types, A/B layouts ND/DN/NZ, static and dynamic sizes, one- and two-level K,
//! single and double buffers (`layout-multi-buffer`, as layout-gemm runs it: L1, L0A/L0B and,
//! across the C tiles of a block, L0C), block orders,
//! epilogues) at small sizes with tails in M, N and K, each run on the three back
//! ends for blockDim ∈ {1, 3, 24} (blocks in a seeded shuffled order over one GM image), every
//! sanitizer check on (racecheck included), and compared with a plain-loop reference: exact for
//! f32/i32 results, the reference rounded once to f16/bf16 (round to nearest even) otherwise.

use super::{args, scratch};
use ascendc_emit::run::{self, checks, Launch};
use gemm_gen::{Dim, Epilogue, GemmSpec, GmLayout, SwizzleDirection, TileOrder, Tiles};
use layout_algebra::ascend::{ElementType, PackPlan, Target};
use layout_npy::random::Rng;
use layout_npy::{Bf16, F16};
use layout_runtime::{Array, Data, Jit};
use melior::ir::Module;

const BLOCK_DIMS: [u32; 3] = [1, 3, 24];

fn spec(name: &str, target: Target, input: ElementType, output: ElementType, ab: (GmLayout, GmLayout)) -> GemmSpec {
    GemmSpec {
        name: name.into(),
        m: Dim::Dynamic,
        n: Dim::Dynamic,
        k: Dim::Dynamic,
        input,
        output,
        a: ab.0,
        b: ab.1,
        epilogue: Epilogue::default(),
        target,
        tiles: Tiles { m1: 64, n1: 64, k1: 128, k0: 64, stages: 1 },
        order: TileOrder::Linear,
    }
}

/// The specs of the matrix; M, N, K of each (tails in all three: 64 × 64 C tiles, K slices of
/// 128 through L1 and 64 through L0).
fn matrix() -> Vec<(GemmSpec, [usize; 3])> {
    use ElementType as E;
    use GmLayout::*;
    let zn = |offset| TileOrder::Swizzle { offset, direction: SwizzleDirection::Zn };
    let nz = |offset| TileOrder::Swizzle { offset, direction: SwizzleDirection::Nz };
    let mut out = Vec::new();
    let mut s = spec("gg_a2_f16_nd_nd", Target::A2, E::F16, E::F32, (Nd, Nd));
    s.order = zn(2);
    out.push((s, [150, 200, 200]));
    let mut s = spec("gg_a2_f16_nd_nd_double", Target::A2, E::F16, E::F32, (Nd, Nd));
    s.tiles.stages = 2;
    out.push((s, [150, 200, 300]));
    let mut s = spec("gg_a2_f32_nd_dn_double_two_level", Target::A2, E::F32, E::F32, (Nd, Dn));
    s.tiles = Tiles { m1: 32, n1: 32, k1: 64, k0: 32, stages: 2 };
    s.order = zn(2);
    out.push((s, [70, 50, 100]));
    let mut s = spec("gg_a5_f16_dn_nd_double_one_level", Target::A5, E::F16, E::F32, (Dn, Nd));
    s.tiles = Tiles { m1: 64, n1: 64, k1: 64, k0: 64, stages: 2 };
    s.order = nz(2);
    out.push((s, [100, 150, 200]));
    let mut s = spec("gg_a2_f16_dn_dn_static", Target::A2, E::F16, E::F32, (Dn, Dn));
    (s.m, s.n, s.k) = (Dim::Static(100), Dim::Static(130), Dim::Static(72));
    s.tiles = Tiles { m1: 32, n1: 64, k1: 64, k0: 64, stages: 1 };
    out.push((s, [100, 130, 72]));
    let mut s = spec("gg_a2_f16_nz_nz_relu_f16", Target::A2, E::F16, E::F16, (Nz, Nz));
    s.epilogue.relu = true;
    s.order = nz(3);
    out.push((s, [97, 150, 65]));
    let mut s = spec("gg_a5_bf16_nd_dn_bf16", Target::A5, E::BF16, E::BF16, (Nd, Dn));
    s.order = zn(3);
    out.push((s, [130, 70, 300]));
    let mut s = spec("gg_a2_i8_dn_nd_i32", Target::A2, E::I8, E::I32, (Dn, Nd));
    s.tiles = Tiles { m1: 64, n1: 32, k1: 64, k0: 32, stages: 1 };
    out.push((s, [70, 90, 100]));
    let mut s = spec("gg_a2_i8_nd_dn_dequant_f16", Target::A2, E::I8, E::F16, (Nd, Dn));
    s.epilogue.scale = Some(0.25);
    out.push((s, [40, 100, 33]));
    let mut s = spec("gg_a2_f32_nd_dn", Target::A2, E::F32, E::F32, (Nd, Dn));
    s.tiles = Tiles { m1: 32, n1: 32, k1: 64, k0: 32, stages: 1 };
    out.push((s, [50, 40, 70]));
    out
}

fn elem(t: ElementType) -> layout_runtime::ElemType {
    super::elem(t.name())
}

/// A GM operand of logical size `rows × cols` in `layout`, from the row-major values `nd`:
/// DN stores the transpose, NZ the packed fractal form (the host packer's plan).
fn operand(layout: GmLayout, t: ElementType, nd: &Array, rows: usize, cols: usize) -> Array {
    match layout {
        GmLayout::Nd => nd.clone(),
        GmLayout::Dn => {
            // Element (r, c) at c * rows + r: the row-major array of the transpose.
            let from = |i: usize| (i % rows) * cols + i / rows;
            fn permute<T: Copy>(v: &[T], from: &dyn Fn(usize) -> usize) -> Vec<T> {
                (0..v.len()).map(|i| v[from(i)]).collect()
            }
            let data = match nd.data() {
                Data::F16(v) => Data::F16(permute(v, &from)),
                Data::BF16(v) => Data::BF16(permute(v, &from)),
                Data::F32(v) => Data::F32(permute(v, &from)),
                Data::I8(v) => Data::I8(permute(v, &from)),
                other => panic!("DN operands of {other:?} are not in the matrix"),
            };
            Array::new(vec![cols, rows], data).unwrap()
        }
        GmLayout::Nz => {
            let plan = PackPlan::new(layout.pattern(), t.c0(), &[rows, cols]).unwrap();
            let data = match nd.data() {
                Data::F16(v) => {
                    // The packer moves plain words: f16 as its bits.
                    let bits: Vec<u16> = v.iter().map(|x| x.to_bits()).collect();
                    let mut p = vec![0u16; plan.packed_len()];
                    plan.pack_into(&bits, &mut p, F16::from_f32(0.0).to_bits()).unwrap();
                    Data::F16(p.into_iter().map(F16::from_bits).collect())
                }
                other => panic!("NZ operands of {other:?} are not in the matrix"),
            };
            Array::new(vec![plan.packed_len()], data).unwrap()
        }
    }
}

/// C (row-major, `m × n`) as the store writes it.
fn reference(s: &GemmSpec, a: &Array, b: &Array, [m, n, k]: [usize; 3]) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut x: f64 = (0..k).map(|kk| a.get_f64(i * k + kk) * b.get_f64(kk * n + j)).sum();
            if let Some(scale) = s.epilogue.scale {
                x = (x as f32 * scale) as f64;
            }
            x = match s.output {
                ElementType::F16 => F16::from_f32(x as f32).to_f32() as f64,
                ElementType::BF16 => Bf16::from_f32(x as f32).to_f32() as f64,
                _ => x,
            };
            // ReLU makes every result that is not > 0 (NaN included) +0.
            if s.epilogue.relu && (x.is_nan() || x <= 0.0) {
                x = 0.0;
            }
            c[i * n + j] = x;
        }
    }
    c
}

fn check(what: &str, n: usize, got: &Array, want: &[f64]) {
    if let Some(i) = (0..want.len()).find(|&i| got.get_f64(i) != want[i]) {
        panic!("{what}: C[{}][{}] = {} but the reference is {}", i / n, i % n, got.get_f64(i), want[i]);
    }
}

/// Issue 12 item 4: every generated kernel of the matrix, three back ends, blockDim 1, 3, 24.
#[test]
fn generated_gemms_are_exact_on_every_back_end_and_block_count() {
    let context = layout_runtime::create_context().unwrap();
    for (s, dims @ [m, n, k]) in matrix() {
        let name = s.name.clone();
        let text = gemm_gen::generate(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut rng = Rng::new(7 + m as u64);
        let a = rng.array(elem(s.input), &[m, k]);
        let b = rng.array(elem(s.input), &[k, n]);
        let c = rng.array(elem(s.output), &[m, n]);
        let want = reference(&s, &a, &b, dims);
        let inputs = vec![operand(s.a, s.input, &a, m, k), operand(s.b, s.input, &b, k, n), c];
        let scalars: Vec<i64> =
            [(s.m, m), (s.n, n), (s.k, k)].iter().filter(|(d, _)| *d == Dim::Dynamic).map(|&(_, v)| v as i64).collect();

        let parse = || {
            let mut module = Module::parse(&context, &text).expect("parse");
            if s.tiles.stages == 2 {
                // What layout-gemm does for 2 stages.
                let pm = melior::pass::PassManager::new(&context);
                pm.add_pass(layout_passes::multi_buffer::create());
                pm.run(&mut module).unwrap_or_else(|_| panic!("{name}: layout-multi-buffer"));
                // Both features are in the kernel: two L1 panels per operand (the K loop, one-
                // or two-level) and two L0C accumulators (the tile loop; two fit at these tiles).
                let text = module.as_operation().to_string();
                let allocs =
                    |space: &str| text.lines().filter(|l| l.contains("\"layout.alloc\"") && l.contains(space)).count();
                assert_eq!((allocs("\"l1\""), allocs("\"l0c\"")), (4, 2), "{name}: doubled buffers");
            }
            module
        };
        let mut lowered = parse();
        run::lower_to_ascendc(&mut lowered).unwrap_or_else(|e| panic!("{name}: layout-lower-to-ascendc: {e}\n{text}"));
        let cpp = run::CppKernel::build(&lowered, &name, Some(&scratch(&name)), checks::ALL)
            .unwrap_or_else(|e| panic!("{name}: C++ + model: {e}"));
        let llvm =
            run::LlvmKernel::build(&context, &lowered, &name).unwrap_or_else(|e| panic!("{name}: LLVM form: {e}"));
        let mut loops_module = parse();
        layout_runtime::lower_layout_ops_with(&mut loops_module, true).unwrap_or_else(|e| panic!("{name}: loops: {e}"));
        let loops = Jit::new(&loops_module).unwrap_or_else(|e| panic!("{name}: jit (loops): {e}"));
        for (seed, block_dim) in BLOCK_DIMS.into_iter().enumerate() {
            let launch = Launch { block_dim, seed: seed as u64 };
            let mut arrays = inputs.clone();
            cpp.call_launch(&mut args(&mut arrays, &scalars), launch)
                .unwrap_or_else(|e| panic!("{name}, blockDim {block_dim}: C++ + model: {e}"));
            check(&format!("{name}, blockDim {block_dim}, g++ + model"), n, &arrays[2], &want);
            let mut arrays = inputs.clone();
            llvm.call_launch(&mut args(&mut arrays, &scalars), checks::ALL, launch)
                .unwrap_or_else(|e| panic!("{name}, blockDim {block_dim}: LLVM form: {e}"));
            check(&format!("{name}, blockDim {block_dim}, LLVM form + model"), n, &arrays[2], &want);
            let mut arrays = inputs.clone();
            layout_runtime::blocks::call_blocks(
                &loops,
                &name,
                &mut args(&mut arrays, &scalars),
                block_dim,
                launch.seed,
            )
            .unwrap_or_else(|e| panic!("{name}, blockDim {block_dim}: loops: {e}"));
            check(&format!("{name}, blockDim {block_dim}, loop lowering"), n, &arrays[2], &want);
        }
    }
}
