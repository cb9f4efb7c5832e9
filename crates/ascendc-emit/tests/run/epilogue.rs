//! Fixpipe epilogues (`layout.store {relu, scale}`, f32 → f16/bf16, i32 → f16 DEQF16) through
//! the three back ends, against a reference written here from the documented semantics
//! (docs/ascendc-derivation.md §12), independent of the model's and the lowering's code: the
//! rounding is done in f64 arithmetic (`round_ties_even` on the value divided by its ulp), not
//! by bit manipulation. Inputs cover tail tiles (m = 40, n = 24 with 16×16 L0C fractals),
//! rounding ties, overflow, subnormals, ±0, ±inf and NaN.

use super::{elem, three_ways, values, Case, Gemm};
use ascendc_emit::run;
use layout_npy::random::Rng;
use layout_runtime::{Array, Data};

/// A binary floating-point format: mantissa bits, smallest normal exponent, largest finite.
#[derive(Clone, Copy)]
struct Format {
    mantissa: i32,
    min_exp: i32,
    max: f64,
}

const F16: Format = Format { mantissa: 10, min_exp: -14, max: 65504.0 };
const BF16: Format = Format { mantissa: 7, min_exp: -126, max: 3.3895313892515355e38 };

/// `x` rounded to nearest, ties to even, in `f`; a rounded magnitude above the largest finite
/// value is ±inf (non-saturating); NaN, ±inf and ±0 stay.
fn round_to(x: f64, f: Format) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    // The binary exponent of |x| (exact: from the f64 encoding; x comes from an f32, so normal).
    let exp = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let ulp = 2f64.powi(exp.max(f.min_exp) - f.mantissa);
    let y = (x / ulp).round_ties_even() * ulp;
    if y.abs() > f.max {
        f64::INFINITY.copysign(x)
    } else if y == 0.0 {
        0.0f64.copysign(x)
    } else {
        y
    }
}

/// The Fixpipe ReLU: keeps `y > 0` and NaN, everything else (negatives, −0) becomes +0.
fn relu(y: f64) -> f64 {
    if y > 0.0 || y.is_nan() {
        y
    } else {
        0.0
    }
}

/// Equal as values, with the sign of zero, and NaN only where NaN is expected.
fn same(got: f64, want: f64) -> bool {
    if want.is_nan() {
        got.is_nan()
    } else {
        got.to_bits() == want.to_bits()
    }
}

/// A GEMM source whose `layout.store` carries `attrs` (e.g. `{relu = true}`).
fn with_store_attrs(source: String, attrs: &str) -> String {
    let store = r#""layout.store"(%c0, %gc) :"#;
    assert!(source.contains(store), "the GEMM kernel changed shape: update the test");
    if attrs.is_empty() {
        source
    } else {
        source.replace(store, &format!(r#""layout.store"(%c0, %gc) {attrs} :"#))
    }
}

/// f32 values that exercise the conversions: ties, just below and above them, overflow,
/// subnormals, signed zeros and tiny negatives (−0 after rounding).
fn special_f32() -> Vec<f32> {
    let t = 2f32.powi(-11); // half an f16 ulp at 1
    let b = 2f32.powi(-8); // half a bf16 ulp at 1
    vec![
        1.0 + t,          // f16 tie → 1 (even)
        1.0 + 3.0 * t,    // f16 tie → 1 + 2^-9 (even)
        -(1.0 + 3.0 * t), // negative tie
        1.0 + b,          // bf16 tie → 1
        1.0 + 3.0 * b,    // bf16 tie → 1 + 2^-6
        2049.0,           // f16 tie at ulp 2 → 2048
        2051.0,           // → 2052
        65504.0,          // f16 max
        65519.0,          // rounds to 65504
        65520.0,          // tie → 65536 → inf
        70000.0,          // f16 overflow
        -1.0e6,           // -inf in f16
        f32::MAX,         // bf16 overflow → inf
        3.0e-7,           // f16 subnormal
        -2.0e-8,          // rounds to -0 in f16
        1.0e-40,          // f32 subnormal: 0 in f16, subnormal range of bf16
        0.0,
        -0.0,
        -0.375,
        0.1,
    ]
}

/// A (m×k, f32) and B = the k×k identity, k = n: C = A exactly. Row 3 holds +inf at column 5
/// and row 7 NaN at column 2 (so C has ±inf and NaN: inf·0 is NaN in the other columns of row
/// 3); the other rows cycle through [`special_f32`] and multiples of 1/8.
fn identity_inputs(m: usize, n: usize, seed: u64) -> (Array, Array) {
    let specials = special_f32();
    let mut rng = Rng::new(seed);
    let mut a = vec![0f32; m * n];
    for (i, v) in a.iter_mut().enumerate() {
        *v = if i % 3 == 0 { specials[(i / 3) % specials.len()] } else { rng.range(-64, 64) as f32 / 8.0 };
    }
    a[3 * n + 5] = f32::INFINITY;
    a[7 * n + 2] = f32::NAN;
    let mut b = vec![0f32; n * n];
    for j in 0..n {
        b[j * n + j] = 1.0;
    }
    (Array::new(vec![m * n], Data::F32(a)).unwrap(), Array::new(vec![n * n], Data::F32(b)).unwrap())
}

/// f32 GEMM (B the identity, DN in GM) stored from L0C as `out` (f32, f16, bf16) with `attrs`;
/// the three back ends agree bit for bit and equal the reference element by element.
fn check_f32_epilogue(name: &str, target: &str, out: &str, attrs: &str) {
    let (m, n) = (40, 24);
    let g = Gemm { m, n, k: n, b_dn: true };
    let (a, b) = identity_inputs(m, n, name.len() as u64);
    let c = g.reference(&a, &b);
    let is_relu = attrs.contains("relu = true");
    let want: Vec<f64> = c
        .iter()
        .map(|&x| {
            let y = match out {
                "f16" => round_to(x, F16),
                "bf16" => round_to(x, BF16),
                _ => x,
            };
            if is_relu {
                relu(y)
            } else {
                y
            }
        })
        .collect();
    let source = with_store_attrs(super::gemm_kernel(name, target, &g, "f32", "f32", out), attrs);
    let case = Case {
        sanitize: run::checks::ALL,
        name,
        func: name,
        source,
        target,
        inputs: vec![a, b, Array::zeros(elem(out), &[m * n])],
        scalars: vec![],
        outputs: vec![2],
    };
    let got = values(&three_ways(&case)[0]);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(same(*g, *w), "{name}: element ({}, {}): got {g:e}, want {w:e} (L0C {:e})", i / n, i % n, c[i]);
    }
    let nan = want.iter().filter(|w| w.is_nan()).count();
    let inf = want.iter().filter(|w| w.is_infinite()).count();
    assert!(nan > 0 && (inf > 0 || is_relu), "{name}: the inputs lost their specials");
}

#[test]
fn store_f32_to_f16_and_bf16_rounding_overflow_nan_a2_a5() {
    for target in ["a2", "a5"] {
        for out in ["f16", "bf16"] {
            check_f32_epilogue(&format!("epi_{out}_{target}"), target, out, "");
        }
    }
}

#[test]
fn store_relu_f32_f16_bf16_a2_a5() {
    for target in ["a2", "a5"] {
        for out in ["f32", "f16", "bf16"] {
            check_f32_epilogue(&format!("epi_relu_{out}_{target}"), target, out, "{relu = true}");
        }
    }
    // relu = false is the default, spelled out.
    check_f32_epilogue("epi_norelu_f16_a2", "a2", "f16", "{relu = false}");
}

/// The DEQF16 value of an i32 accumulator `x` (docs/ascendc-derivation.md §12): f32(x)·scale in
/// f32, ReLU, saturated to ±65504, rounded to f16.
fn deqf16(x: f64, scale: f32, with_relu: bool) -> f64 {
    let product = (x as i32 as f32) * scale;
    let p = if with_relu { relu(f64::from(product)) } else { f64::from(product) };
    round_to(p.clamp(-F16.max, F16.max), F16)
}

/// i8 GEMM (k = 64, full-range i8 operands) dequantized to f16 with `scale`; returns (ties,
/// saturated) counts of the reference so the callers can check the data exercises them.
fn check_deqf16(name: &str, target: &str, scale: f32, with_relu: bool) -> (usize, usize) {
    let (m, n, k) = (40, 24, 64);
    let g = Gemm { m, n, k, b_dn: true };
    let mut rng = Rng::new(97 + name.len() as u64);
    let mut full = |len: usize| {
        let v: Vec<i8> = (0..len).map(|_| rng.range(-128, 127) as i8).collect();
        Array::new(vec![len], Data::I8(v)).unwrap()
    };
    let (a, b) = (full(m * k), full(k * n));
    let c = g.reference(&a, &b);
    let want: Vec<f64> = c.iter().map(|&x| deqf16(x, scale, with_relu)).collect();
    let attrs = format!("{{relu = {with_relu}, scale = {scale:?} : f32}}");
    let source = with_store_attrs(super::gemm_kernel(name, target, &g, "i8", "i32", "f16"), &attrs);
    let case = Case {
        sanitize: run::checks::ALL,
        name,
        func: name,
        source,
        target,
        inputs: vec![a, b, Array::zeros(elem("f16"), &[m * n])],
        scalars: vec![],
        outputs: vec![2],
    };
    let got = values(&three_ways(&case)[0]);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(same(*g, *w), "{name}: element ({}, {}): got {g:e}, want {w:e} (L0C {})", i / n, i % n, c[i]);
    }
    let ties = c
        .iter()
        .filter(|&&x| {
            let p = f64::from((x as i32 as f32) * scale);
            p.abs() < F16.max && (round_to(p, F16) - p).abs() > 0.0 && {
                let up = round_to(p, F16);
                let other = 2.0 * p - up;
                round_to(other, F16) == other
            }
        })
        .count();
    let saturated = c.iter().filter(|&&x| f64::from((x as i32 as f32) * scale).abs() > F16.max).count();
    (ties, saturated)
}

#[test]
fn store_deqf16_ties_and_saturation_a2_a5() {
    for target in ["a2", "a5"] {
        // scale 1/4: the results are multiples of 1/4 around ±10^4, where f16's ulp is 8: ties.
        let (ties, _) = check_deqf16(&format!("epi_deq_quarter_{target}"), target, 0.25, false);
        assert!(ties > 0, "{target}: no rounding tie in the data");
        // scale 4: most results exceed 65504 and saturate.
        let (_, saturated) = check_deqf16(&format!("epi_deq_four_{target}"), target, 4.0, false);
        assert!(saturated > 0, "{target}: no saturation in the data");
    }
}

#[test]
fn store_deqf16_relu_after_a_negative_scale() {
    // ReLU applies to the dequantized value: with scale -0.75 the positive accumulators become
    // negative and are cut to +0, the negative ones survive (and some saturate at 65504).
    let (_, saturated) = check_deqf16("epi_deq_relu_neg_a2", "a2", -0.75, true);
    assert!(saturated > 0);
    check_deqf16("epi_deq_relu_a5", "a5", 1.5, true);
}

#[test]
fn store_relu_i32_a2_a5() {
    // NoQuant i32 -> i32 with ReLU: negative sums become 0.
    for target in ["a2", "a5"] {
        let name = format!("epi_relu_i32_{target}");
        let g = Gemm { m: 40, n: 24, k: 64, b_dn: true };
        let mut rng = Rng::new(3);
        let a = rng.array(elem("i8"), &[g.m * g.k]);
        let b = rng.array(elem("i8"), &[g.k * g.n]);
        let c = g.reference(&a, &b);
        let source = with_store_attrs(super::gemm_kernel(&name, target, &g, "i8", "i32", "i32"), "{relu = true}");
        let case = Case {
            sanitize: run::checks::ALL,
            name: &name,
            func: &name,
            source,
            target,
            inputs: vec![a, b, Array::zeros(elem("i32"), &[g.m * g.n])],
            scalars: vec![],
            outputs: vec![2],
        };
        let got = values(&three_ways(&case)[0]);
        assert!(c.iter().any(|&x| x < 0.0), "{name}: no negative sum in the data");
        assert_eq!(got, c.iter().map(|&x| x.max(0.0)).collect::<Vec<_>>(), "{name}");
    }
}

#[test]
fn store_deqf16_relu_to_gm_nz_a2() {
    // Fixpipe CFG_NZ with DEQF16 + ReLU: i32 40x24 -> f16 GM NZ (C0 = 16, nSize = 32).
    let (m, n, k) = (40, 24, 64);
    let g = Gemm { m, n, k, b_dn: true };
    let (m1, n1) = (m.div_ceil(16), n.div_ceil(16));
    let len = m1 * 16 * n1 * 16;
    let nz = |i: usize, j: usize| (i % 16) * 16 + (i / 16) * 256 + (j % 16) + (j / 16) * m1 * 256;
    let mut rng = Rng::new(5);
    let mut full = |len: usize| {
        let v: Vec<i8> = (0..len).map(|_| rng.range(-128, 127) as i8).collect();
        Array::new(vec![len], Data::I8(v)).unwrap()
    };
    let (a, b) = (full(m * k), full(k * n));
    let c = g.reference(&a, &b);
    let name = "epi_deq_nz_a2";
    let source = super::gemm_kernel_to(name, "a2", &g, "i8", "i32", "f16", ("NZ", len));
    let case = Case {
        sanitize: super::KNOWN_UNWRITTEN_READS, // NZ store of n = 24 copies unwritten L0C columns
        name,
        func: name,
        source: with_store_attrs(source, "{relu = true, scale = 0.25 : f32}"),
        target: "a2",
        inputs: vec![a, b, Array::zeros(elem("f16"), &[len])],
        scalars: vec![],
        outputs: vec![2],
    };
    // Each way on its valid elements: the padding columns of the valid rows receive L0C
    // padding (unspecified: poison in the model, untouched by the loop lowering).
    let context = layout_runtime::create_context().unwrap();
    let module = super::lower(&context, &case.source);
    let via_cpp = super::try_cpp(&module, &case, case.sanitize).unwrap_or_else(|e| panic!("{name}: C++: {e}"));
    let via_llvm =
        super::try_llvm(&context, &module, &case, case.sanitize).unwrap_or_else(|e| panic!("{name}: LLVM: {e}"));
    let via_loops = super::run_loops(&context, &case.source, name, &case.inputs, &[], false);
    for (way, got) in [("C++", &via_cpp[2]), ("LLVM", &via_llvm[2]), ("loops", &via_loops[2])] {
        for i in 0..m {
            for j in 0..n {
                let want = deqf16(c[i * n + j], 0.25, true);
                assert!(same(got.get_f64(nz(i, j)), want), "{name}: {way}: ({i},{j})");
            }
        }
    }
}

/// i32 accumulators no i8 GEMM of this size reaches (|x| > 2^24, where f32(x) rounds, and
/// i32::MIN / i32::MAX), put straight into L0C: through the loop lowering (a host-side view of
/// L0C, `host_copies`) and through the model's C ABI (`ascendc_model_fixpipe_nz2nd`, what the
/// emitted C++ and the LLVM form call), both against the reference.
#[test]
fn deqf16_extreme_accumulators_loop_lowering_and_model() {
    use ascendc_params::{decl, ffi};
    let mut rng = Rng::new(11);
    let edge = [i32::MAX, i32::MIN, (1 << 24) + 1, (1 << 24) + 3, -(1 << 24) - 1, 0, -1, 1, 262_016, 262_017];
    let xs: Vec<i32> =
        (0..256).map(|i| edge.get(i).copied().unwrap_or_else(|| rng.next_u64() as u32 as i32 >> (i % 24))).collect();
    for (scale, with_relu) in [(2f32.powi(-10), false), (2f32.powi(-16), true), (1.0, false), (-0.375, true)] {
        let want: Vec<f64> = xs.iter().map(|&x| deqf16(f64::from(x), scale, with_relu)).collect();
        // The loop lowering, JIT-run: L0C NZ 16x16 is row-major (one fractal), like the ND output.
        let attrs = format!("{{relu = {with_relu}, scale = {scale:?} : f32}}");
        let source = format!(
            r#"module attributes {{layout.target = #layout.target<"a2">}} {{
  func.func @deq(%L: memref<256xi32>, %O: memref<256xf16>) attributes {{llvm.emit_c_interface}} {{
    %c = "layout.view"(%L) : (memref<256xi32>) -> !layout.tensor<i32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%O) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    "layout.store"(%c, %g) {attrs} : (!layout.tensor<i32, "l0c", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "ND", "(16,16)">) -> ()
    return
  }}
}}"#
        );
        let context = layout_runtime::create_context().unwrap();
        let module = melior::ir::Module::parse(&context, &source).expect("parse");
        for d in ["arith", "scf", "memref", "func"] {
            context.get_or_load_dialect(d);
        }
        let rules = layout_passes::verify::Rules { host_copies: true, any_c0: false };
        let options = layout_passes::lower_to_loops::Options { rules, ..Default::default() };
        layout_passes::lower_to_loops::lower(module.as_operation(), &options).expect("lowering");
        let jit = layout_runtime::Jit::new(&module).expect("jit");
        let inputs = [Array::new(vec![256], Data::I32(xs.clone())).unwrap(), Array::zeros(elem("f16"), &[256])];
        let via_loops = super::call(&jit, "deq", &inputs, &[]);
        // The model's C ABI.
        let p = decl::CFixpipeParamsV220 {
            nSize: 16,
            mSize: 16,
            srcStride: 16,
            dstStride: 16,
            reluEn: with_relu,
            quantPre: ascendc_params::QuantMode::DEQF16.abi_code(),
            deqScalar: u64::from(scale.to_bits()),
            ndNum: 1,
            ..Default::default()
        };
        let mut out = vec![0u16; 256];
        // Safety: 256 i32 in, 256 f16 out, as the parameters say.
        let status = unsafe {
            ffi::ascendc_model_fixpipe_nz2nd(
                out.as_mut_ptr().cast(),
                xs.as_ptr().cast(),
                ffi::dtype_code::F16,
                ffi::dtype_code::I32,
                &p,
                2201,
            )
        };
        assert_eq!(status, 0, "{}", ffi::last_error());
        for (i, w) in want.iter().enumerate() {
            let model = f64::from(layout_npy::F16::from_bits(out[i]).to_f32());
            let loops = via_loops[1].get_f64(i);
            assert!(same(loops, *w), "loops, scale {scale}: x = {}: got {loops:e}, want {w:e}", xs[i]);
            assert!(same(model, *w), "model, scale {scale}: x = {}: got {model:e}, want {w:e}", xs[i]);
        }
    }
}

#[test]
fn the_reference_rounding_is_ieee() {
    // Checks of the reference itself against values worked out by hand.
    assert_eq!(round_to(1.0 + 2f64.powi(-11), F16), 1.0);
    assert_eq!(round_to(1.0 + 3.0 * 2f64.powi(-11), F16), 1.0 + 2f64.powi(-9));
    assert_eq!(round_to(65519.0, F16), 65504.0);
    assert_eq!(round_to(65520.0, F16), f64::INFINITY);
    assert_eq!(round_to(-2.0e-8, F16).to_bits(), (-0.0f64).to_bits());
    assert_eq!(round_to(3.0e-7, F16), 5.0 * 2f64.powi(-24));
    assert_eq!(round_to(1.0 + 3.0 * 2f64.powi(-8), BF16), 1.0 + 2f64.powi(-6));
    assert_eq!(round_to(f64::from(f32::MAX), BF16), f64::INFINITY);
    assert_eq!(deqf16(300000.0, 1.0, false), 65504.0);
    assert_eq!(deqf16(-7.0, 1.0, true), 0.0);
}
