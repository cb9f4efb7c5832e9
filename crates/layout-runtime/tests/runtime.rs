//! The MLIR-linking tests of layout-runtime (one binary: each link is ~270 MB). Every test
//! makes its own context: MLIR objects are !Send.

use layout_npy::{random::Rng, Array, Bf16, Data, ElemType, F16};
use layout_runtime::{compile_to_llvm_ir, create_context, lower_layout_ops, Arg, Error, Jit, Scalar, Sources};
use melior::{ir::Module, Context};

/// The layout-lowering tests (issue 4): same binary, one link.
mod lowering;

/// The on-disk object cache of compiled kernels (issue 14): same binary, one link.
mod cache;

/// Host-side packing (issue 4): same binary, one link.
mod pack;

/// A tile of a tile with tails through the loops and the AscendC C++ and LLVM forms (issue 10):
/// same binary, one link.
mod tile_of_tile;

fn parse<'c>(context: &'c Context, text: &str) -> Module<'c> {
    layout_dialect::parse_source(context, text).expect("kernel parses")
}

const GEMM_F32: &str = r#"
func.func @gemm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  %n = memref.dim %b, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %init = memref.load %c[%i, %j] : memref<?x?xf32>
      %sum = scf.for %p = %c0 to %k step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %p] : memref<?x?xf32>
        %y = memref.load %b[%p, %j] : memref<?x?xf32>
        %prod = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %prod : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
"#;

/// C[m,n] (+)= sum_p A[m,p] * B[p,n], accumulated in order from C's initial value, as f64
/// widened from the given element accessors (exact for the generator's inputs).
fn reference_gemm(a: &Array, b: &Array, c0: &Array) -> Vec<f64> {
    let (m, k, n) = (a.shape()[0], a.shape()[1], b.shape()[1]);
    let mut out = Vec::with_capacity(m * n);
    for i in 0..m {
        for j in 0..n {
            let mut acc = c0.get_f64(i * n + j);
            for p in 0..k {
                acc += a.get_f64(i * k + p) * b.get_f64(p * n + j);
            }
            out.push(acc);
        }
    }
    out
}

#[test]
fn f32_gemm_dynamic_shapes_matches_reference_loop() {
    let context = create_context().unwrap();
    let module = parse(&context, GEMM_F32);
    let jit = Jit::new(&module).expect("jit");
    let mut rng = Rng::new(11);
    for (m, k, n) in [(1, 1, 1), (5, 7, 3), (16, 33, 9), (0, 4, 4)] {
        let mut a = rng.array(ElemType::F32, &[m, k]);
        let mut b = rng.array(ElemType::F32, &[k, n]);
        let mut c = rng.array(ElemType::F32, &[m, n]);
        let expected = reference_gemm(&a, &b, &c);
        let (a0, b0) = (a.clone(), b.clone());
        let result =
            jit.call("gemm", &mut [Arg::MemRef(&mut a), Arg::MemRef(&mut b), Arg::MemRef(&mut c)]).expect("call");
        assert_eq!(result, None);
        assert_eq!((a, b), (a0, b0), "inputs unchanged");
        // Also an f32 reference with the same summation order, bit for bit.
        let Data::F32(got) = c.data() else { panic!() };
        for (index, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(*g as f64, *e, "C[{index}] of {m}x{k}x{n}");
        }
    }
}

#[test]
fn i8_to_i32_gemm_is_bit_exact() {
    let context = create_context().unwrap();
    let module = parse(
        &context,
        r#"
func.func @gemm_i8(%a: memref<8x?xi8>, %b: memref<?x12xi8>, %c: memref<8x12xi32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %k = memref.dim %a, %c1 : memref<8x?xi8>
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to 8 {
    scf.for %j = %c0 to %c12 step %c1 {
      %sum = scf.for %p = %c0 to %k step %c1 iter_args(%acc = %zero) -> (i32) {
        %x = memref.load %a[%i, %p] : memref<8x?xi8>
        %y = memref.load %b[%p, %j] : memref<?x12xi8>
        %xw = arith.extsi %x : i8 to i32
        %yw = arith.extsi %y : i8 to i32
        %prod = arith.muli %xw, %yw : i32
        %s = arith.addi %acc, %prod : i32
        scf.yield %s : i32
      }
      memref.store %sum, %c[%i, %j] : memref<8x12xi32>
    }
  }
  return
}
"#,
    );
    let jit = Jit::new(&module).expect("jit");
    // Full-range i8 values: exercises sign extension.
    let mut rng = Rng::new(5);
    let k = 37;
    let bytes = |n: usize, rng: &mut Rng| Data::I8((0..n).map(|_| rng.next_u64() as i8).collect());
    let mut a = Array::new(vec![8, k], bytes(8 * k, &mut rng)).unwrap();
    let mut b = Array::new(vec![k, 12], bytes(k * 12, &mut rng)).unwrap();
    let mut c = Array::zeros(ElemType::I32, &[8, 12]);
    jit.call("gemm_i8", &mut [Arg::MemRef(&mut a), Arg::MemRef(&mut b), Arg::MemRef(&mut c)]).expect("call");
    let (Data::I8(av), Data::I8(bv), Data::I32(cv)) = (a.data(), b.data(), c.data()) else { panic!() };
    for i in 0..8 {
        for j in 0..12 {
            let expected: i32 = (0..k).map(|p| av[i * k + p] as i32 * bv[p * 12 + j] as i32).sum();
            assert_eq!(cv[i * 12 + j], expected, "C[{i},{j}]");
        }
    }
}

#[test]
fn f16_and_bf16_kernels_with_extf_and_truncf() {
    let context = create_context().unwrap();
    let module = parse(
        &context,
        r#"
// f16 GEMM, f32 accumulation, result in f32 and rounded to f16.
func.func @gemm_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %h: memref<?x?xf16>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %sum = scf.for %p = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %p] : memref<?x?xf16>
        %y = memref.load %b[%p, %j] : memref<?x?xf16>
        %xw = arith.extf %x : f16 to f32
        %yw = arith.extf %y : f16 to f32
        %prod = arith.mulf %xw, %yw : f32
        %s = arith.addf %acc, %prod : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<?x?xf32>
      %r = arith.truncf %sum : f32 to f16
      memref.store %r, %h[%i, %j] : memref<?x?xf16>
    }
  }
  return
}
// Elementwise y = bf16(x * s) for f32 x: tests truncf rounding against ours.
func.func @scale_bf16(%x: memref<?xf32>, %y: memref<?xbf16>, %s: f32) -> index attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %v, %s : f32
    %t = arith.truncf %w : f32 to bf16
    memref.store %t, %y[%i] : memref<?xbf16>
  }
  return %n : index
}
// Elementwise y = f16(x): every rounding case of f32 -> f16.
func.func @to_f16(%x: memref<?xf32>, %y: memref<?xf16>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    %t = arith.truncf %v : f32 to f16
    memref.store %t, %y[%i] : memref<?xf16>
  }
  return
}
"#,
    );
    let jit = Jit::new(&module).expect("jit");
    let mut rng = Rng::new(9);
    let (m, k, n) = (13, 40, 7);
    let mut a = rng.array(ElemType::F16, &[m, k]);
    let mut b = rng.array(ElemType::F16, &[k, n]);
    let mut c = Array::zeros(ElemType::F32, &[m, n]);
    let mut h = Array::zeros(ElemType::F16, &[m, n]);
    jit.call("gemm_f16", &mut [Arg::MemRef(&mut a), Arg::MemRef(&mut b), Arg::MemRef(&mut c), Arg::MemRef(&mut h)])
        .expect("call");
    let zeros = Array::zeros(ElemType::F32, &[m, n]);
    let expected = reference_gemm(&a, &b, &zeros);
    let (Data::F32(cv), Data::F16(hv)) = (c.data(), h.data()) else { panic!() };
    for i in 0..m * n {
        assert_eq!(cv[i] as f64, expected[i], "C[{i}]"); // exact: see layout_npy::random
        assert_eq!(hv[i], F16::from_f32(cv[i]), "H[{i}]");
    }

    // Rounding: LLVM's truncf and ours agree on awkward values.
    let mut values: Vec<f32> =
        vec![0.0, -0.0, 1.0, 65504.0, 65519.0, 65520.0, 1e-8, 2f32.powi(-25), 3.0 * 2f32.powi(-26), f32::INFINITY];
    let mut bits = 0x1234_5678u32;
    for _ in 0..20000 {
        bits = bits.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let v = f32::from_bits(bits);
        if !v.is_nan() {
            values.push(v);
        }
    }
    let len = values.len();
    let mut x = Array::new(vec![len], Data::F32(values.clone())).unwrap();
    let mut y = Array::zeros(ElemType::F16, &[len]);
    jit.call("to_f16", &mut [Arg::MemRef(&mut x), Arg::MemRef(&mut y)]).expect("call");
    let Data::F16(yv) = y.data() else { panic!() };
    for (v, got) in values.iter().zip(yv) {
        assert_eq!(*got, F16::from_f32(*v), "f16({v:e})");
    }
    let mut yb = Array::zeros(ElemType::BF16, &[len]);
    let result =
        jit.call("scale_bf16", &mut [Arg::MemRef(&mut x), Arg::MemRef(&mut yb), Arg::Float(1.0)]).expect("call");
    assert_eq!(result, Some(Scalar::Index(len as i64)));
    let Data::BF16(bv) = yb.data() else { panic!() };
    for (v, got) in values.iter().zip(bv) {
        if v.is_subnormal() {
            // CPUs with AVX512-BF16 convert with vcvtneps2bf16, which treats f32 subnormals as
            // zero; ours keeps them. Both are accepted for subnormal inputs only.
            let flushed = Bf16::from_f32(0.0f32.copysign(*v));
            assert!(*got == Bf16::from_f32(*v) || *got == flushed, "bf16({v:e}) = {got:?}");
        } else {
            assert_eq!(*got, Bf16::from_f32(*v), "bf16({v:e})");
        }
    }
}

#[test]
fn scalar_arguments_and_results() {
    let context = create_context().unwrap();
    let module = parse(
        &context,
        r#"
func.func @axpy(%n: index, %alpha: f64, %x: memref<?xf64>, %y: memref<?xf64>, %bias: i32) -> i64 attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %x[%i] : memref<?xf64>
    %b = memref.load %y[%i] : memref<?xf64>
    %p = arith.mulf %alpha, %a : f64
    %s = arith.addf %p, %b : f64
    memref.store %s, %y[%i] : memref<?xf64>
  }
  %w = arith.extsi %bias : i32 to i64
  %ni = arith.index_cast %n : index to i64
  %r = arith.addi %w, %ni : i64
  return %r : i64
}
"#,
    );
    let jit = Jit::new(&module).expect("jit");
    let mut x = Array::new(vec![4], Data::F64(vec![1.0, 2.0, 3.0, 4.0])).unwrap();
    let mut y = Array::new(vec![4], Data::F64(vec![10.0, 20.0, 30.0, 40.0])).unwrap();
    let result = jit
        .call("axpy", &mut [Arg::Index(3), Arg::Float(0.5), Arg::MemRef(&mut x), Arg::MemRef(&mut y), Arg::Int(-10)])
        .expect("call");
    assert_eq!(result, Some(Scalar::Int(-7)));
    assert_eq!(y.data(), &Data::F64(vec![10.5, 21.0, 31.5, 40.0]));
}

#[test]
fn signature_mismatches_are_errors_not_calls() {
    let context = create_context().unwrap();
    let module = parse(
        &context,
        r#"
func.func @fixed(%a: memref<4x8xf32>, %n: i8) attributes {llvm.emit_c_interface} { return }
func.func @strided(%a: memref<4x8xf32, strided<[16, 1]>>) attributes {llvm.emit_c_interface} { return }
func.func @no_iface(%a: memref<4xf32>) { return }
func.func private @decl(%a: memref<4xf32>) attributes {llvm.emit_c_interface}
func.func @results(%a: memref<4xf32>) -> (index, index) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  return %c0, %c0 : index, index
}
"#,
    );
    let jit = Jit::new(&module).expect("jit");
    let mut good = Array::zeros(ElemType::F32, &[4, 8]);
    jit.call("fixed", &mut [Arg::MemRef(&mut good), Arg::Int(-128)]).expect("ok call");
    let mut wrong_type = Array::zeros(ElemType::F16, &[4, 8]);
    let mut wrong_shape = Array::zeros(ElemType::F32, &[4, 9]);
    let mut wrong_rank = Array::zeros(ElemType::F32, &[32]);
    let mut plain = Array::zeros(ElemType::F32, &[4]);
    let cases: Vec<(&str, Vec<Arg>, &str)> = vec![
        ("fixed", vec![Arg::MemRef(&mut wrong_type), Arg::Int(1)], "element type f16"),
        ("fixed", vec![Arg::MemRef(&mut wrong_shape), Arg::Int(1)], "dimension 1 is 9"),
        ("fixed", vec![Arg::MemRef(&mut wrong_rank), Arg::Int(1)], "rank 1"),
        ("fixed", vec![Arg::Int(1)], "takes 2 arguments, 1 given"),
        ("fixed", vec![Arg::Int(1), Arg::Int(1)], "integer 1 given"),
        ("nope", vec![], "no function @nope"),
        ("no_iface", vec![], "llvm.emit_c_interface"),
        ("decl", vec![], "declaration"),
        ("results", vec![], "one scalar result"),
    ];
    for (name, mut args, expected) in cases {
        let error = jit.call(name, &mut args).expect_err(expected).to_string();
        assert!(error.contains(expected), "{error}");
    }
    let error = jit.call("fixed", &mut [Arg::MemRef(&mut good), Arg::Int(300)]).unwrap_err().to_string();
    assert!(error.contains("does not fit in 8 bits"), "{error}");
    let error = jit.call("strided", &mut [Arg::MemRef(&mut good)]).unwrap_err().to_string();
    assert!(error.contains("needs stride 16 in dimension 0"), "{error}");
    assert!(jit.call("no_iface", &mut [Arg::MemRef(&mut plain)]).is_err());
    let sig = jit.signature("fixed").unwrap().to_string();
    assert_eq!(sig, "@fixed(memref<4x8xf32>, i8)");
}

#[test]
fn failed_engine_creation_is_an_error_not_a_crash() {
    let context = create_context().unwrap();
    // Not lowered: func/arith ops have no LLVM IR translation, so MLIR returns a null engine.
    let module = parse(&context, "func.func @f() attributes {llvm.emit_c_interface} { return }");
    let error = match Jit::from_llvm_dialect(&module, Default::default()) {
        Err(error) => error,
        Ok(_) => panic!("engine created from an unlowered module"),
    };
    let text = error.to_string();
    assert!(text.contains("cannot compile the kernel: translation to LLVM IR failed"), "{text}");
    // The translation failure is reported as a diagnostic.
    assert!(!error.diagnostics().is_empty(), "{text}");
}

#[test]
fn layout_ops_are_reported_at_their_location() {
    let context = create_context().unwrap();
    let text = "module {\n  func.func @k() {\n    %a = \"layout.alloc\"() : () -> !layout.tensor<f16, \"l1\", \"NZ\", \"(128,64)\">\n    return\n  }\n}\n";
    let mut module = layout_dialect::parse_source(&context, text).expect("parses");
    let error = lower_layout_ops(&mut module).unwrap_err();
    let mut sources = Sources::default();
    sources.add("k.mlir", text);
    let rendered = sources.render_all(error.diagnostics()).replace("<input>", "k.mlir");
    // The hook verifies before lowering: the module lacks `layout.target` (located error).
    assert!(rendered.starts_with("k.mlir:1:1: error: ") && rendered.contains("layout.target"), "{rendered}");
    // And a module without layout ops passes the hook unchanged.
    let mut plain = parse(&context, GEMM_F32);
    lower_layout_ops(&mut plain).expect("no layout ops");
}

#[test]
fn lowering_failures_are_located() {
    let context = create_context().unwrap();
    // `memref.alloca` of an unranked type cannot be lowered... use a clearly illegal leftover
    // instead: a layout op survives the pipeline and translation reports it.
    let text = "func.func @k() attributes {llvm.emit_c_interface} {\n  %a = \"layout.alloc\"() : () -> !layout.tensor<f16, \"l1\", \"NZ\", \"(128,64)\">\n  return\n}\n";
    let module = parse(&context, text);
    let error = match Jit::new(&module) {
        Err(error) => error,
        Ok(_) => panic!("a module with layout ops was compiled"),
    };
    let located = error.diagnostics().iter().any(|d| d.position.as_ref().is_some_and(|p| p.line == 2));
    assert!(located, "{error}");
}

#[test]
fn emit_llvm_is_optimized_for_the_host() {
    let context = create_context().unwrap();
    let module = parse(
        &context,
        r#"
func.func @add(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<1024xf32>) attributes {llvm.emit_c_interface} {
  affine.for %i = 0 to 1024 {
    %x = affine.load %a[%i] : memref<1024xf32>
    %y = affine.load %b[%i] : memref<1024xf32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %c[%i] : memref<1024xf32>
  }
  return
}
"#,
    );
    let ir = compile_to_llvm_ir(&module).expect("llvm ir");
    assert!(ir.contains("define void @add("), "{ir}");
    assert!(ir.contains("define void @_mlir_ciface_add("), "{ir}");
    assert!(ir.contains("target triple = \"x86_64"), "{ir}");
    // O2 vectorized the loop (an unoptimized translation has only scalar `fadd float`) and
    // no stack traffic remains.
    assert!(ir.contains("fadd <"), "not vectorized:\n{ir}");
    assert!(!ir.contains("alloca"), "{ir}");
    // The original module is untouched (still func.func).
    assert!(layout_runtime::lower::print_module(&module).contains("func.func @add"));
}

#[test]
fn descriptor_layout_matches_the_c_interface() {
    use layout_runtime::StridedMemRef;
    let mut data = vec![0f32; 6];
    let d = StridedMemRef::row_major(&mut data, [2, 3]);
    assert_eq!(std::mem::size_of::<StridedMemRef<f32, 2>>(), 8 * (3 + 2 * 2));
    assert_eq!((d.sizes, d.strides, d.offset), ([2, 3], [3, 1], 0));
    // Direct call through the C interface with a typed descriptor.
    let context = create_context().unwrap();
    let module = parse(
        &context,
        r#"func.func @fill(%a: memref<2x3xf32>, %v: f32) attributes {llvm.emit_c_interface} {
             affine.for %i = 0 to 2 { affine.for %j = 0 to 3 { affine.store %v, %a[%i, %j] : memref<2x3xf32> } }
             return
           }"#,
    );
    let jit = Jit::new(&module).unwrap();
    let address = jit.lookup("_mlir_ciface_fill").expect("symbol");
    let mut descriptor = StridedMemRef::row_major(&mut data, [2, 3]);
    unsafe {
        let f: unsafe extern "C" fn(*mut StridedMemRef<f32, 2>, f32) = std::mem::transmute(address);
        f(&mut descriptor, 2.5);
    }
    assert_eq!(data, vec![2.5; 6]);
    let _ = Error::Call(String::new());
}

/// The racecheck's per-byte rule (`blocks::racing_writes`): atomic adds of several blocks
/// commute, a plain write of a byte another block wrote or added into races, and so does an add
/// into a byte another block wrote plainly.
#[test]
fn atomic_adds_of_blocks_commute_plain_writes_race() {
    use layout_runtime::blocks::racing_writes as races;
    assert_eq!(races(&[(0, true), (1, true), (2, true)]), Vec::<usize>::new());
    assert_eq!(races(&[(0, false), (0, false), (0, true)]), Vec::<usize>::new());
    assert_eq!(races(&[(0, false), (1, false)]), vec![1]);
    assert_eq!(races(&[(0, false), (1, true)]), vec![1]);
    assert_eq!(races(&[(0, true), (1, false)]), vec![1]);
    // Block 0 wrote plainly then added: block 1's add still races with the plain write.
    assert_eq!(races(&[(0, false), (0, true), (1, true)]), vec![2]);
    // Block 1's plain write after adds of 0 then 1: races with block 0's add.
    assert_eq!(races(&[(0, true), (1, true), (1, false)]), vec![2]);
}
