//! Kernels written by the GEMM generator (crates/gemm-gen, issue 12 item 4): a matrix of specs
//! (targets, input types, A/B layouts ND/DN/NZ, static and dynamic sizes, one- and two-level K,
//! single and double buffers (`layout-multi-buffer`, as layout-gemm runs it: L1, L0A/L0B and,
//! across the C tiles of a block, L0C), block orders,
//! epilogues) at small sizes with tails in M, N and K, each run on the three back
//! ends for blockDim ∈ {1, 3, 24} (blocks in a seeded shuffled order over one GM image), every
//! sanitizer check on (racecheck included), and compared with a plain-loop reference: exact for
//! f32/i32 results, the reference rounded once to f16/bf16 (round to nearest even) otherwise.
//! Split-K kernels (atomic-add stores, issue 12 item 1) run the same way from a nonzero C: they
//! compute C += A × B, exactly (the f16-output case on integer-valued data every partial sum of
//! which f16 holds exactly, so no rounding happens in any order of the adds).

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
        split_k: 1,
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
    // a2 f32 with both L1 -> L0 loads transposing (A DN in L1 NN, B ND in L1 ZZ:
    // GemmSpec::l1_patterns), double-buffered; K = 100 ends in an L0 slice of 4 (one 8-element
    // fractal: the odd count of the 32-bit LoadDataWithTranspose).
    let mut s = spec("gg_a2_f32_dn_nd_double", Target::A2, E::F32, E::F32, (Dn, Nd));
    s.tiles = Tiles { m1: 32, n1: 32, k1: 64, k0: 32, stages: 2 };
    s.order = zn(2);
    out.push((s, [70, 50, 100]));
    // Software-pipelined K streams (static K of whole slice pairs, two stages; gemm_gen::
    // pipeline), tails in M and N. K = 768 in slices of 128: the peeled two and two looped
    // pairs, the L0 pairs alternating across L1 slices.
    let mut s = spec("gg_a2_f16_nd_nd_pipelined", Target::A2, E::F16, E::F32, (Nd, Nd));
    s.k = Dim::Static(768);
    s.tiles.stages = 2;
    s.order = zn(2);
    out.push((s, [150, 200, 768]));
    // One level (k1 = k0 = 32): K = 192 is the peeled two slices and two looped pairs.
    let mut s = spec("gg_a2_f32_nd_dn_pipelined_one_level", Target::A2, E::F32, E::F32, (Nd, Dn));
    s.k = Dim::Static(192);
    s.tiles = Tiles { m1: 32, n1: 32, k1: 32, k0: 32, stages: 2 };
    out.push((s, [70, 50, 192]));
    // Whole C tiles (M, N static multiples of the tile): the Mmad/Fixpipe unitFlag handshake
    // instead of the M_FIX/FIX_M events (gemm_gen::pipeline), the last Mmad's flag computed in
    // the K loop (K = 768) or static in the peeled slice (K = 256, no loop); four tiles, so a
    // core runs several accumulations on the one L0C under the handshake.
    for (name, k) in [("gg_a2_f16_nd_nd_unit_flag", 768), ("gg_a2_f16_nd_nd_unit_flag_no_loop", 256)] {
        let mut s = spec(name, Target::A2, E::F16, E::F32, (Nd, Nd));
        (s.m, s.n, s.k) = (Dim::Static(128), Dim::Static(128), Dim::Static(k));
        s.tiles.stages = 2;
        assert!(gemm_gen::pipeline::unit_flag_handshake(&s), "{name}");
        out.push((s, [128, 128, k as usize]));
    }
    out
}

/// Split-K specs (a2: the target whose SetAtomicAdd types are documented), each with K not a
/// multiple of S × k1 (a short last chunk) and tails in M and N.
fn split_k_matrix() -> Vec<(GemmSpec, [usize; 3])> {
    use ElementType as E;
    use GmLayout::*;
    let mut out = Vec::new();
    // 8 slices of 128 in 4 chunks of 256; the last chunk is [768, 1000).
    let mut s = spec("gg_splitk4_a2_f16_nd_nd", Target::A2, E::F16, E::F32, (Nd, Nd));
    s.split_k = 4;
    s.order = TileOrder::Swizzle { offset: 2, direction: SwizzleDirection::Zn };
    out.push((s, [100, 70, 1000]));
    // 8 slices in 3 chunks of 3 slices (384): the last is [768, 900), 1 slice and 4 columns.
    let mut s = spec("gg_splitk3_a2_f16_nd_dn_double", Target::A2, E::F16, E::F32, (Nd, Dn));
    s.split_k = 3;
    s.tiles.stages = 2;
    out.push((s, [70, 130, 900]));
    // f16 C: 4 chunks of one 32-column slice, the last 24 wide; integer data (see the module).
    let mut s = spec("gg_splitk4_a2_f16_static_f16", Target::A2, E::F16, E::F16, (Nd, Nd));
    (s.m, s.n, s.k) = (Dim::Static(40), Dim::Static(50), Dim::Static(120));
    s.tiles = Tiles { m1: 32, n1: 32, k1: 32, k0: 32, stages: 1 };
    s.split_k = 4;
    out.push((s, [40, 50, 120]));
    // i32 C: 4 slices of 64 in 2 chunks, the last [128, 200).
    let mut s = spec("gg_splitk2_a2_i8_dn_nd_i32", Target::A2, E::I8, E::I32, (Dn, Nd));
    s.tiles = Tiles { m1: 64, n1: 32, k1: 64, k0: 32, stages: 1 };
    s.split_k = 2;
    out.push((s, [70, 40, 200]));
    out
}

/// Integer values in [-4, 4) as `t` (exact in every type of the matrix).
fn integer_array(rng: &mut Rng, t: ElementType, shape: &[usize]) -> Array {
    let ints = rng.array(layout_runtime::ElemType::I8, shape);
    let v = |i: usize| ints.get_f64(i) as f32;
    let len = shape.iter().product();
    let data = match t {
        ElementType::F16 => Data::F16((0..len).map(|i| F16::from_f32(v(i))).collect()),
        ElementType::F32 => Data::F32((0..len).map(v).collect()),
        other => panic!("integer arrays of {other:?} are not in the matrix"),
    };
    Array::new(shape.to_vec(), data).unwrap()
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
        let mut rng = Rng::new(7 + m as u64);
        let a = rng.array(elem(s.input), &[m, k]);
        let b = rng.array(elem(s.input), &[k, n]);
        let c = rng.array(elem(s.output), &[m, n]);
        let want = reference(&s, &a, &b, dims);
        run_everywhere(&context, &s, dims, [a, b, c], &want);
    }
}

/// Issue 12 item 1: split-K kernels add A × B into a nonzero C on the three back ends for
/// blockDim 1, 3, 24, racecheck on (blocks adding into one tile is no race), exactly.
#[test]
fn split_k_gemms_add_exactly_on_every_back_end_and_block_count() {
    let context = layout_runtime::create_context().unwrap();
    for (s, dims @ [m, n, k]) in split_k_matrix() {
        let mut rng = Rng::new(11 + k as u64);
        let integer = s.output == ElementType::F16;
        let mut array = |t: ElementType, shape: &[usize]| {
            if integer {
                integer_array(&mut rng, t, shape)
            } else {
                rng.array(elem(t), shape)
            }
        };
        let (a, b, c) = (array(s.input, &[m, k]), array(s.input, &[k, n]), array(s.output, &[m, n]));
        if integer {
            // Every partial sum is an integer of magnitude <= 4 + 16 K = 1924 < 2048: exact in f16.
            assert!(4 + 16 * k < 2048, "{}: K too large for exact f16 sums", s.name);
        }
        let product = reference(&GemmSpec { output: ElementType::F32, ..s.clone() }, &a, &b, dims);
        let want: Vec<f64> = product.iter().enumerate().map(|(i, p)| p + c.get_f64(i)).collect();
        let text = gemm_gen::generate(&s).unwrap();
        assert!(text.contains("atomic = \"add\"") && text.contains("C must be zero on entry"), "{}", s.name);
        run_everywhere(&context, &s, dims, [a, b, c], &want);
    }
}

/// `s` generated and run on the three back ends for every blockDim, every sanitizer check on;
/// C must come out as `want`.
fn run_everywhere(context: &melior::Context, s: &GemmSpec, [m, n, k]: [usize; 3], [a, b, c]: [Array; 3], want: &[f64]) {
    let name = s.name.clone();
    let text = gemm_gen::generate(s).unwrap_or_else(|e| panic!("{name}: {e}"));
    let inputs = vec![operand(s.a, s.input, &a, m, k), operand(s.b, s.input, &b, k, n), c];
    let scalars: Vec<i64> =
        [(s.m, m), (s.n, n), (s.k, k)].iter().filter(|(d, _)| *d == Dim::Dynamic).map(|&(_, v)| v as i64).collect();

    let parse = || {
        let mut module = Module::parse(context, &text).expect("parse");
        let count = |text: &str, what: &str| text.lines().filter(|l| l.contains(what)).count();
        if s.tiles.stages == 2 && !gemm_gen::needs_multi_buffer(s) {
            // Pipelined by the generator: both stages allocated by it, one accumulator, and the
            // K loop straight-line (the tile loop and the K loop only, no branch).
            let allocs = |alias: &str| {
                let ty = format!("-> !{alias}");
                text.lines().filter(|l| l.contains("\"layout.alloc\"") && l.trim_end().ends_with(&ty)).count()
            };
            let shape = ["l1A", "l1B", "l0A", "l0B", "l0C"].map(allocs);
            assert_eq!(shape, [2, 2, 2, 2, 1], "{name}: the generator's two stages");
            // No K loop when K is the two peeled slices.
            let loops = if gemm_gen::pipeline::pipelined_k(s) > Some(2 * s.tiles.k1) { 2 } else { 1 };
            assert_eq!((count(&text, "scf.for"), count(&text, "scf.if")), (loops, 0), "{name}: straight-line K loop");
        }
        if gemm_gen::needs_multi_buffer(s) {
            // What layout-gemm does for 2 stages.
            let pm = melior::pass::PassManager::new(context);
            pm.add_pass(layout_passes::multi_buffer::create());
            pm.run(&mut module).unwrap_or_else(|_| panic!("{name}: layout-multi-buffer"));
            if s.split_k == 1 {
                // Both features are in the kernel: two L1 panels per operand (the K loop, one-
                // or two-level) and two L0C accumulators (the tile loop; two fit at these tiles).
                let text = module.as_operation().to_string();
                let allocs =
                    |space: &str| text.lines().filter(|l| l.contains("\"layout.alloc\"") && l.contains(space)).count();
                assert_eq!((allocs("\"l1\""), allocs("\"l0c\"")), (4, 2), "{name}: doubled buffers");
            }
        }
        module
    };
    let mut lowered = parse();
    run::lower_to_ascendc(&mut lowered).unwrap_or_else(|e| panic!("{name}: layout-lower-to-ascendc: {e}\n{text}"));
    unit_flags_in_the_cpp(s, &ascendc_emit::emit_cpp(&lowered).unwrap_or_else(|e| panic!("{name}: C++: {e}")));
    let cpp = run::CppKernel::build(&lowered, &name, Some(&scratch(&name)), checks::ALL)
        .unwrap_or_else(|e| panic!("{name}: C++ + model: {e}"));
    let llvm = run::LlvmKernel::build(context, &lowered, &name).unwrap_or_else(|e| panic!("{name}: LLVM form: {e}"));
    let mut loops_module = parse();
    layout_runtime::lower_layout_ops_with(&mut loops_module, true).unwrap_or_else(|e| panic!("{name}: loops: {e}"));
    let loops = Jit::new(&loops_module).unwrap_or_else(|e| panic!("{name}: jit (loops): {e}"));
    for (seed, block_dim) in BLOCK_DIMS.into_iter().enumerate() {
        let launch = Launch { block_dim, seed: seed as u64 };
        let mut arrays = inputs.clone();
        cpp.call_launch(&mut args(&mut arrays, &scalars), launch)
            .unwrap_or_else(|e| panic!("{name}, blockDim {block_dim}: C++ + model: {e}"));
        check(&format!("{name}, blockDim {block_dim}, g++ + model"), n, &arrays[2], want);
        let mut arrays = inputs.clone();
        llvm.call_launch(&mut args(&mut arrays, &scalars), checks::ALL, launch)
            .unwrap_or_else(|e| panic!("{name}, blockDim {block_dim}: LLVM form: {e}"));
        check(&format!("{name}, blockDim {block_dim}, LLVM form + model"), n, &arrays[2], want);
        let mut arrays = inputs.clone();
        layout_runtime::blocks::call_blocks(&loops, &name, &mut args(&mut arrays, &scalars), block_dim, launch.seed)
            .unwrap_or_else(|e| panic!("{name}, blockDim {block_dim}: loops: {e}"));
        check(&format!("{name}, blockDim {block_dim}, loop lowering"), n, &arrays[2], want);
    }
}

/// The emitted C++ of `s`: with the unitFlag handshake (gemm_gen::pipeline) every Mmad has
/// unitFlag 2 but the last of the K stream, which has 3 (static without a K loop) or a value
/// computed in the loop, the Fixpipe 3, and no M_FIX / FIX_M event; without it no unitFlag
/// but 0 and the M_FIX events.
fn unit_flags_in_the_cpp(s: &GemmSpec, cpp: &str) {
    let name = &s.name;
    let flags: Vec<&str> = cpp.lines().filter_map(|l| l.split(".unitFlag = ").nth(1)?.split(';').next()).collect();
    let calls = |f: &str| cpp.lines().filter(|l| l.contains(&format!("AscendC::{f}"))).count();
    let (mmads, fixpipes) = (calls("Mmad("), calls("Fixpipe<"));
    assert_eq!(flags.len(), mmads + fixpipes, "{name}: a unitFlag per Mmad and Fixpipe");
    let count = |v: &str| flags.iter().filter(|f| **f == v).count();
    if !gemm_gen::pipeline::unit_flag_handshake(s) {
        assert_eq!(count("0"), flags.len(), "{name}: {flags:?}");
        assert!(cpp.contains("HardEvent::M_FIX"), "{name}");
        return;
    }
    assert!(
        !cpp.contains("HardEvent::M_FIX") && !cpp.contains("HardEvent::FIX_M"),
        "{name}: an event the handshake covers"
    );
    let looped = gemm_gen::pipeline::pipelined_k(s) > Some(2 * s.tiles.k1);
    let dynamic = flags.iter().filter(|f| f.parse::<i64>().is_err()).count();
    assert_eq!(fixpipes, 1, "{name}");
    assert_eq!(count("0"), 0, "{name}: {flags:?}");
    assert_eq!((count("3"), dynamic), if looped { (1, 1) } else { (2, 0) }, "{name}: {flags:?}");
    assert_eq!(count("2"), mmads - 1, "{name}: {flags:?}");
}
