//! End-to-end tests of the `layout-run` binary: run kernels, read the `.npy` outputs, compare
//! with references computed here. (This test binary does not link MLIR.)

use layout_npy::{encode_npy, random::Rng, read_npy, write_npy, Array, Bf16, Data, ElemType, F16};
use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

const BIN: &str = env!("CARGO_BIN_EXE_layout-run");

fn kernel(name: &str) -> String {
    format!("{}/kernels/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory under target/ for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("layout-run-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

fn ok(output: &Output) -> String {
    assert!(output.status.success(), "failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn error(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(1), "stdout: {}", String::from_utf8_lossy(&output.stdout));
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn i8_gemm_with_seeded_inputs_matches_reference() {
    let out = scratch("i8");
    let stdout = ok(&run(&[
        &kernel("gemm_i8_static.mlir"),
        "--entry",
        "gemm_i8",
        "--seed",
        "42",
        "--out-dir",
        out.to_str().unwrap(),
    ]));
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    assert!(stdout.starts_with("arg0: i8[32x48] "), "{stdout}");
    let (a, b, c) = (
        read_npy(out.join("arg0.npy")).unwrap(),
        read_npy(out.join("arg1.npy")).unwrap(),
        read_npy(out.join("arg2.npy")).unwrap(),
    );
    // The inputs are the documented generator's stream, argument by argument.
    let mut rng = Rng::new(42);
    assert_eq!(a, rng.array(ElemType::I8, &[32, 48]));
    assert_eq!(b, rng.array(ElemType::I8, &[48, 16]));
    let (Data::I8(av), Data::I8(bv), Data::I32(cv)) = (a.data(), b.data(), c.data()) else { panic!("types") };
    for i in 0..32 {
        for j in 0..16 {
            let expected: i32 = (0..48).map(|p| av[i * 48 + p] as i32 * bv[p * 16 + j] as i32).sum();
            assert_eq!(cv[i * 16 + j], expected, "C[{i},{j}]");
        }
    }
}

#[test]
fn f16_gemm_from_npy_inputs_with_scalar_argument() {
    let out = scratch("f16");
    let mut rng = Rng::new(7);
    let (m, k, n) = (9, 33, 5);
    let a = rng.array(ElemType::F16, &[m, k]);
    let b = rng.array(ElemType::F16, &[k, n]);
    write_npy(out.join("a.npy"), &a).unwrap();
    write_npy(out.join("b.npy"), &b).unwrap();
    write_npy(out.join("c.npy"), &Array::zeros(ElemType::F32, &[m, n])).unwrap();
    write_npy(out.join("h.npy"), &Array::zeros(ElemType::F16, &[m, n])).unwrap();
    let path = |f: &str| out.join(f).to_str().unwrap().to_string();
    let results = out.join("results");
    let stdout = ok(&run(&[
        &kernel("gemm_f16.mlir"),
        "--entry=gemm_f16",
        "--input",
        &path("a.npy"),
        "--input",
        &path("b.npy"),
        "--input",
        &format!("3={}", path("h.npy")),
        "--input",
        &format!("2={}", path("c.npy")),
        "--arg",
        "4=0.5",
        "--out-dir",
        results.to_str().unwrap(),
    ]));
    assert!(stdout.contains("arg3: f16[9x5]"), "{stdout}");
    let c = read_npy(results.join("arg2.npy")).unwrap();
    let h = read_npy(results.join("arg3.npy")).unwrap();
    assert_eq!(read_npy(results.join("arg0.npy")).unwrap(), a);
    let (Data::F32(cv), Data::F16(hv)) = (c.data(), h.data()) else { panic!("types") };
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0f32;
            for p in 0..k {
                acc += a.get_f64(i * k + p) as f32 * b.get_f64(p * n + j) as f32;
            }
            assert_eq!(cv[i * n + j], acc, "C[{i},{j}]");
            assert_eq!(hv[i * n + j], F16::from_f32(acc * 0.5), "H[{i},{j}]");
        }
    }
}

const BF16_KERNEL: &str = r#"func.func @double(%x: memref<4xbf16>, %y: memref<4xbf16>) attributes {llvm.emit_c_interface} {
  affine.for %i = 0 to 4 {
    %v = affine.load %x[%i] : memref<4xbf16>
    %w = arith.extf %v : bf16 to f32
    %d = arith.addf %w, %w : f32
    %t = arith.truncf %d : f32 to bf16
    affine.store %t, %y[%i] : memref<4xbf16>
  }
  return
}
"#;

#[test]
fn bf16_arguments_from_marked_and_raw_u16_files() {
    let out = scratch("bf16");
    std::fs::write(out.join("k.mlir"), BF16_KERNEL).unwrap();
    let values = [1.5f32, -0.25, 3.0, 100.0];
    let x = Array::new(vec![4], Data::BF16(values.map(Bf16::from_f32).to_vec())).unwrap();
    write_npy(out.join("x.npy"), &x).unwrap();
    let raw = Array::new(vec![4], Data::U16(values.map(|v| Bf16::from_f32(v).0).to_vec())).unwrap();
    write_npy(out.join("raw.npy"), &raw).unwrap();
    for input in ["x.npy", "raw.npy"] {
        let results = out.join(format!("out-{input}"));
        ok(&run(&[
            out.join("k.mlir").to_str().unwrap(),
            "--entry",
            "double",
            "--input",
            out.join(input).to_str().unwrap(),
            "--zero",
            "1",
            "--out-dir",
            results.to_str().unwrap(),
        ]));
        let y = read_npy(results.join("arg1.npy")).unwrap();
        assert_eq!(y.data(), &Data::BF16(values.map(|v| Bf16::from_f32(2.0 * v)).to_vec()));
    }
}

#[test]
fn emit_llvm_prints_optimized_ir_and_runs_nothing() {
    let out = scratch("emit");
    let output = run(&[&kernel("gemm_f32_256.mlir"), "--emit=llvm", "--out-dir", out.to_str().unwrap()]);
    let ir = ok(&output);
    assert!(ir.contains("define void @_mlir_ciface_gemm("), "{ir}");
    assert!(ir.contains("target datalayout"), "{ir}");
    assert!(!ir.contains("alloca"), "{ir}");
    // Optimized: the affine/memref address arithmetic is folded into GEPs with constant
    // strides (an unoptimized translation keeps the `mul i64 %i, 256` index computations and
    // descriptor insert/extract chains).
    assert!(!ir.contains("insertvalue"), "descriptor structs not optimized away:\n{ir}");
    assert!(files(&out).is_empty());
    let dialect = ok(&run(&[&kernel("gemm_f32_256.mlir"), "--emit=llvm-dialect"]));
    assert!(dialect.contains("llvm.func @_mlir_ciface_gemm"), "{dialect}");
}

#[test]
fn ir_errors_are_located_and_leave_no_outputs() {
    let out = scratch("errors");
    let bad = out.join("bad.mlir");
    std::fs::write(&bad, "func.func @f(%a: memref<4xf32>) attributes {llvm.emit_c_interface} {\n  %x = arith.addf %a, %a : f32\n  return\n}\n").unwrap();
    let results = out.join("results");
    let stderr = error(&run(&[bad.to_str().unwrap(), "--entry", "f", "--out-dir", results.to_str().unwrap()]));
    let prefix = format!("{}:2:", bad.display());
    assert!(stderr.starts_with(&prefix) && stderr.contains(": error: "), "{stderr}");
    assert!(stderr.contains("^"), "caret line: {stderr}");
    assert!(!results.exists());

    let layout = out.join("layout.mlir");
    std::fs::write(&layout, "func.func @k() attributes {llvm.emit_c_interface} {\n  %a = \"layout.alloc\"() : () -> !layout.tensor<f16, \"l1\", \"NZ\", \"(128,64)\">\n  return\n}\n").unwrap();
    // The hook runs layout-verify before the lowering: the missing target is a located error.
    let stderr = error(&run(&[layout.to_str().unwrap(), "--entry", "k"]));
    assert!(stderr.starts_with(&format!("{}:", layout.display())) && stderr.contains("layout.target"), "{stderr}");
    let stderr = error(&run(&[layout.to_str().unwrap(), "--emit=llvm"]));
    assert!(stderr.contains("layout.target"), "{stderr}");
}

/// The JIT rejects what layout-verify rejects (the lowering runs its checks) and buffer sizes
/// whose bytes leave i64, with located errors and no outputs.
#[test]
fn jit_rejects_unverified_kernels_and_unaddressable_buffers() {
    let out = scratch("unverified");
    let example = format!("{}/../../examples/ascendc/gemm_f16.mlir", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(example).unwrap().replace("memref<1344xf16>", "memref<1xf16>");
    let line = text.lines().position(|l| l.contains("%gb = \"layout.view\"")).unwrap() + 1;
    let small = out.join("small_b.mlir");
    std::fs::write(&small, &text).unwrap();
    let results = out.join("results");
    let stderr = error(&run(&[small.to_str().unwrap(), "--entry", "gemm_f16", "--out-dir", results.to_str().unwrap()]));
    let at = format!(
        "{}:{line}:11: error: the layout (56,24):(24,1) spans 1344 elements but the memref has only 1",
        small.display()
    );
    assert!(stderr.contains(&at), "{stderr}");
    assert_eq!(stderr.matches("spans 1344 elements").count(), 1, "reported once: {stderr}");
    assert!(!results.exists());

    let huge = out.join("huge.mlir");
    std::fs::write(
        &huge,
        "module attributes {layout.target = #layout.target<\"a2\">} {\n  func.func @k() attributes {llvm.emit_c_interface} {\n    %a = \"layout.alloc\"() : () -> !layout.tensor<f16, \"l1\", \"NZ\", \"(2147483648,2147483648)\">\n    return\n  }\n}\n",
    )
    .unwrap();
    let stderr = error(&run(&[huge.to_str().unwrap(), "--entry", "k", "--out-dir", results.to_str().unwrap()]));
    let at = format!("{}:3:10: error: ", huge.display());
    assert!(
        stderr.contains(&at) && stderr.contains("needs 4611686018427387904 elements of f16, more bytes than i64 holds"),
        "{stderr}"
    );
    assert!(!results.exists());

    // A static argument shape whose element count leaves usize (random inputs panicked).
    let wide = out.join("wide.mlir");
    std::fs::write(&wide, "func.func @f(%a: memref<4611686018427387904x4611686018427387904xf32>) attributes {llvm.emit_c_interface} {\n  return\n}\n").unwrap();
    let stderr = error(&run(&[wide.to_str().unwrap(), "--entry", "f", "--out-dir", results.to_str().unwrap()]));
    assert!(stderr.contains("shape [4611686018427387904, 4611686018427387904] is too large"), "{stderr}");
    assert!(!results.exists());
}

#[test]
fn argument_errors_are_clear_and_leave_no_outputs() {
    let out = scratch("args");
    let results = out.join("results");
    let r = results.to_str().unwrap();
    let gemm = kernel("gemm_f16.mlir");
    let i8_kernel = kernel("gemm_i8_static.mlir");
    std::fs::write(out.join("f32.npy"), encode_npy(&Array::zeros(ElemType::F32, &[2, 2]))).unwrap();
    std::fs::write(out.join("broken.npy"), &encode_npy(&Array::zeros(ElemType::F16, &[2, 2]))[..130]).unwrap();
    let f32_npy = out.join("f32.npy");
    let broken = out.join("broken.npy");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![&gemm, "--entry", "gemm_f16", "--out-dir", r], "has a dynamic shape: give it with --input 0=FILE.npy"),
        (
            vec![&gemm, "--entry", "gemm_f16", "--input", f32_npy.to_str().unwrap(), "--out-dir", r],
            "holds f32 elements",
        ),
        (vec![&gemm, "--entry", "gemm_f16", "--input", broken.to_str().unwrap(), "--out-dir", r], "truncated data"),
        (vec![&gemm, "--entry", "nope", "--out-dir", r], "no function @nope"),
        (vec![&gemm, "--entry", "gemm_f16", "--arg", "0=1", "--out-dir", r], "not a scalar"),
        (vec![&gemm, "--bogus"], "unknown option"),
        (vec!["--entry", "x"], "no kernel file"),
        (vec!["/nonexistent.mlir", "--entry", "x"], "cannot open kernel file"),
        (vec![&i8_kernel, "--entry", "gemm_i8", "--input", "5=x.npy"], "not a memref"),
    ];
    for (args, expected) in cases {
        let stderr = error(&run(&args));
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(stderr.starts_with("layout-run: error: "), "{stderr}");
    }
    // Scalar arguments are required.
    let a = out.join("a.npy");
    write_npy(&a, &Array::zeros(ElemType::F16, &[2, 2])).unwrap();
    let a = a.to_str().unwrap();
    let stderr = error(&run(&[
        &gemm,
        "--entry",
        "gemm_f16",
        "--input",
        a,
        "--input",
        a,
        "--input",
        f32_npy.to_str().unwrap(),
        "--input",
        a,
        "--out-dir",
        r,
    ]));
    assert!(stderr.contains("needs --arg 4=VALUE"), "{stderr}");
    assert!(!results.exists());
    assert!(ok(&run(&["--help"])).contains("USAGE"));
}

/// The tiled GEMM example (layout ops) with the self-check, against the plain-loop reference,
/// compared with `--compare` (the `make demo` flow).
#[test]
fn tiled_gemm_example_matches_the_reference_kernel_with_self_check() {
    let out = scratch("tiled");
    let examples = format!("{}/../../examples", env!("CARGO_MANIFEST_DIR"));
    let (reference, tiled) = (out.join("ref"), out.join("tiled"));
    ok(&run(&[
        &format!("{examples}/gemm_reference.mlir"),
        "--entry",
        "gemm_reference",
        "--seed",
        "3",
        "--out-dir",
        reference.to_str().unwrap(),
    ]));
    let input = |k: usize, file: &str| format!("{k}={}", reference.join(file).display());
    let stdout = ok(&run(&[
        &format!("{examples}/tiled_gemm.mlir"),
        "--entry",
        "tiled_gemm",
        "--self-check",
        "--input",
        &input(0, "arg0.npy"),
        "--input",
        &input(1, "arg1.npy"),
        "--input",
        &input(2, "arg3.npy"),
        "--arg",
        "3=200",
        "--arg",
        "4=136",
        "--out-dir",
        tiled.to_str().unwrap(),
    ]));
    assert!(stdout.contains("self-check: 15 tensors") && stdout.contains("0 tensors not checked"), "{stdout}");
    let (a, b) = (reference.join("arg2.npy"), tiled.join("arg2.npy"));
    let stdout = ok(&run(&["--compare", a.to_str().unwrap(), b.to_str().unwrap()]));
    assert!(stdout.contains("27200 elements") && stdout.contains("max |a - b| = 0"), "{stdout}");
    // A different C (the garbage start) fails the comparison.
    let stderr = error(&run(&["--compare", a.to_str().unwrap(), reference.join("arg3.npy").to_str().unwrap()]));
    assert!(stderr.contains("exceeds the tolerance"), "{stderr}");
}

// ------------------------------------------------------------------------------------------
// Contract checks (passes/src/lower_to_loops/guard.rs): sizes and coordinates that would make
// the kernel read or write outside its buffers are clear errors, and nothing is accessed.

/// Writes the tiled GEMM operands A (m x 256 f16), B (256 x n f16), C (rows x cols f32).
fn gemm_operands(dir: &Path, m: usize, n: usize, c: [usize; 2]) -> [String; 3] {
    let files = [
        ("a.npy", Array::zeros(ElemType::F16, &[m, 256])),
        ("b.npy", Array::zeros(ElemType::F16, &[256, n])),
        ("c.npy", Array::zeros(ElemType::F32, &c)),
    ];
    files.map(|(name, array)| {
        let path = dir.join(name);
        write_npy(&path, &array).unwrap();
        path.to_str().unwrap().to_string()
    })
}

/// Reproducers of the reliability issue, item 1: `--arg` sizes larger than the `.npy` shapes
/// aborted with "double free or corruption" (M = 9 for 8 rows) or crashed (M = 2^63 - 1),
/// with or without `--self-check`. Now: the failing view, its argument, the needed and the
/// given element counts; exit 1; no output written.
#[test]
fn tiled_gemm_sizes_beyond_the_given_arrays_are_rejected() {
    let out = scratch("oob-sizes");
    let results = out.join("results");
    let gemm = format!("{}/../../examples/tiled_gemm.mlir", env!("CARGO_MANIFEST_DIR"));
    let [a, b, c] = gemm_operands(&out, 8, 8, [8, 8]);
    let small_c = {
        let path = out.join("c-small.npy");
        write_npy(&path, &Array::zeros(ElemType::F32, &[8, 4])).unwrap();
        path.to_str().unwrap().to_string()
    };
    let view = |line: u32, k: usize, memref: &str, layout: &str| {
        format!("tiled_gemm.mlir:{line}:11: error: layout.view of argument #{k} ({memref}) as !layout.tensor<{layout}>")
    };
    let view_a = view(39, 0, "memref<?x256xf16>", r#"f16, "gm", "ND", "(?,256)""#);
    let view_b = view(40, 1, "memref<256x?xf16>", r#"f16, "gm", "ND", "(256,?)""#);
    let view_c = view(41, 2, "memref<?x?xf32>", r#"f32, "gm", "ND", "(?,?)""#);
    let cases: Vec<(&str, &str, &str, &[&str], String)> = vec![
        ("9", "8", &c, &[], format!("{view_a}: needs 2304 elements, the memref has 2048")),
        ("9", "8", &c, &["--self-check"], format!("{view_a}: needs 2304 elements, the memref has 2048")),
        ("8", "9", &c, &[], format!("{view_b}: needs 2304 elements, the memref has 2048")),
        ("8", "8", &small_c, &[], format!("{view_c}: needs 64 elements, the memref has 32")),
        (
            "9223372036854775807",
            "8",
            &c,
            &[],
            format!("{view_a}: the dynamic size 9223372036854775807 is outside [0, 36028797018963967], where the extent of the layout fits in i64"),
        ),
        ("-1", "8", &c, &[], format!("{view_a}: dynamic size operand #1 is -1; sizes must be >= 0")),
        // The self-check skips empty/negative instances and leaves the located error to the kernel.
        ("-1", "8", &c, &["--self-check"], format!("{view_a}: dynamic size operand #1 is -1; sizes must be >= 0")),
    ];
    // layout-run on the GEMM with C from `c_file`, M and N, writing to `dir`, plus `extra`.
    let gemm_run = |m: &str, n: &str, c_file: &str, dir: &std::path::Path, extra: &[&str]| {
        let (m_arg, n_arg) = (format!("3={m}"), format!("4={n}"));
        let mut args = vec![&gemm as &str, "--entry", "tiled_gemm", "--input", &a, "--input", &b, "--input", c_file];
        args.extend(["--arg", &m_arg, "--arg", &n_arg, "--out-dir", dir.to_str().unwrap()]);
        args.extend(extra);
        run(&args)
    };
    for (m, n, c_file, extra, expected) in cases {
        let stderr = error(&gemm_run(m, n, c_file, &results, extra));
        assert!(stderr.contains(&expected), "M={m} N={n} {extra:?}:\n{stderr}");
        assert_eq!(stderr.lines().count(), 1, "one error: {stderr}");
        assert!(!results.exists(), "no output after a failed check");
    }
    // Within the contract the same arrays run (the check is not a blanket refusal).
    ok(&gemm_run("8", "8", &c, &results, &[]));
    assert_eq!(files(&results), ["arg0.npy", "arg1.npy", "arg2.npy"]);
    // M = 0 is inside the contract (an empty product), with or without the self-check.
    let empty = out.join("empty");
    ok(&gemm_run("0", "8", &c, &empty, &["--self-check"]));
    assert_eq!(files(&empty), ["arg0.npy", "arg1.npy", "arg2.npy"]);
}

/// Reproducers of item 1: a 32 x 256 tile of an 8-row view at a negative row read before the
/// buffer silently (m0 = -16: valgrind reports invalid reads, the output was written) or
/// crashed (m0 = -100000). Now the tile is named with the coordinate and the parent's extent;
/// within the contract (m0 = 0, or 8: a tail tile entirely past the last row) it runs, and C is
/// the product of the tile's valid rows.
#[test]
fn tiles_at_coordinates_outside_the_parent_are_rejected() {
    let out = scratch("oob-tile");
    let results = out.join("results");
    let a_file = out.join("a.npy");
    let a = Rng::new(5).array(ElemType::F16, &[8, 256]);
    write_npy(&a_file, &a).unwrap();
    let tile = kernel("tile_at_row.mlir");
    let run_at = |m0: &str| {
        let m0 = format!("4={m0}");
        let (a, r) = (a_file.to_str().unwrap(), results.to_str().unwrap());
        run(&[&tile, "--entry", "tile_at_row", "--input", a, "--arg", "3=8", "--arg", &m0, "--out-dir", r])
    };
    for m0 in ["-16", "-100000", "9", "-9223372036854775808"] {
        let stderr = error(&run_at(m0));
        let expected = format!("tile_at_row.mlir:30:11: error: layout.tile: coordinate #0 is {m0}, outside [0, 8]");
        assert!(stderr.contains(&expected), "m0 = {m0}:\n{stderr}");
        assert!(!results.exists(), "no output after a failed check");
    }
    ok(&run_at("8"));
    ok(&run_at("0"));
    let (b, c) = (read_npy(results.join("arg1.npy")).unwrap(), read_npy(results.join("arg2.npy")).unwrap());
    for i in 0..8 {
        for j in 0..16 {
            let want: f64 = (0..64).map(|p| a.get_f64(i * 256 + p) * b.get_f64(p * 16 + j)).sum();
            assert_eq!(c.get_f64(i * 16 + j), want, "C[{i}][{j}]");
        }
    }
}

/// Reproducers of the dynamic `layout.alloc` check: an L1 buffer of R rows (an `--arg`) was
/// allocated on the stack unchecked: R = 1025 (over the 512 KiB of L1) and R = -1 (clamped to
/// 0 rows) ran and wrote outputs, R = 2^62 crashed (a huge alloca: signal 11). Now each is one
/// located error naming the alloc, exit 1, no outputs; within the contract (R = 8, and
/// R = 1024, all of L1) C is A·B on the rows that went through L1 and untouched (zero) on the
/// others: the kernel reads through the views its loads return, so the matmul's m is R.
#[test]
fn dynamic_allocs_beyond_the_capacity_are_rejected() {
    let out = scratch("alloc-rows");
    let results = out.join("results");
    let (a_file, b_file) = (out.join("a.npy"), out.join("b.npy"));
    let a = Rng::new(7).array(ElemType::F16, &[32, 256]);
    let b = Rng::new(8).array(ElemType::F16, &[64, 16]);
    write_npy(&a_file, &a).unwrap();
    write_npy(&b_file, &b).unwrap();
    let kernel = kernel("alloc_rows.mlir");
    let run_rows = |rows: &str| {
        let rows = format!("3={rows}");
        let (a, b, r) = (a_file.to_str().unwrap(), b_file.to_str().unwrap(), results.to_str().unwrap());
        run(&[
            &kernel,
            "--entry",
            "alloc_rows",
            "--input",
            a,
            "--input",
            b,
            "--zero",
            "2",
            "--arg",
            &rows,
            "--out-dir",
            r,
        ])
    };
    let alloc = r#"alloc_rows.mlir:25:11: error: layout.alloc of !layout.tensor<f16, "l1", "NZ", "(?,256)">"#;
    let cases = [
        ("-1", "dynamic size operand #0 is -1; sizes must be >= 0".to_string()),
        // align(1025, 16) * 256 elements * 2 bytes.
        ("1025", "needs 532480 bytes, L1 on a2 holds 524288 bytes".to_string()),
        ("4096", "needs 2097152 bytes, L1 on a2 holds 524288 bytes".to_string()),
        (
            "4611686018427387904",
            format!(
                "the dynamic size {} is outside [0, {}], where its footprint in bytes fits in i64",
                1i64 << 62,
                (1i64 << 53) - 1
            ),
        ),
    ];
    for (rows, message) in cases {
        let stderr = error(&run_rows(rows));
        assert!(stderr.contains(&format!("{alloc}: {message}")), "R = {rows}:\n{stderr}");
        assert_eq!(stderr.lines().count(), 1, "one error: {stderr}");
        assert!(!results.exists(), "no output after a failed check");
    }
    for rows in [8, 1024] {
        ok(&run_rows(&rows.to_string()));
        let c = read_npy(results.join("arg2.npy")).unwrap();
        for i in 0..32 {
            for j in 0..16 {
                let got = c.get_f64(i * 16 + j);
                if i >= rows {
                    // Never written: the matmul runs over the rows the L1 view holds (m = R).
                    assert_eq!(got, 0.0, "R = {rows}: C[{i}][{j}] = {got}, not from L1");
                    continue;
                }
                // f16 products are exact in f32; the sum in the lowering's order p = 0, 1, ...
                let want = (0..64).fold(0f32, |acc, p| acc + (a.get_f64(i * 256 + p) * b.get_f64(p * 16 + j)) as f32);
                assert_eq!(got, f64::from(want), "R = {rows}: C[{i}][{j}]");
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// Host-side packing: `layout-run pack` / `unpack`.

/// PyPTO NZ of docs/layout-spec.md §A.5, computed here: element (i, j) of [M, N] at
/// `((j/C0·M1 + i/16)·16 + i%16)·C0 + j%C0`; padding zero.
fn nz_reference(a: &Array, c0: usize) -> Vec<f32> {
    let (m, n) = (a.shape()[0], a.shape()[1]);
    let (m1, n1) = (m.div_ceil(16), n.div_ceil(c0));
    let mut out = vec![0.0f32; n1 * m1 * 16 * c0];
    for i in 0..m {
        for j in 0..n {
            out[(((j / c0) * m1 + i / 16) * 16 + i % 16) * c0 + j % c0] = a.get_f64(i * n + j) as f32;
        }
    }
    out
}

#[test]
fn pack_and_unpack_round_trip_through_files() {
    let dir = scratch("pack");
    let mut rng = Rng::new(17);
    for (elem, c0, shape) in
        [(ElemType::F16, 16, vec![34, 40]), (ElemType::F32, 8, vec![17, 9]), (ElemType::I8, 32, vec![5, 70])]
    {
        let a = rng.array(elem, &shape);
        let input = dir.join(format!("a_{elem}.npy"));
        write_npy(&input, &a).unwrap();
        let packed = dir.join(format!("p_{elem}.npy"));
        let back = dir.join(format!("b_{elem}.npy"));
        ok(&run(&["pack", "--layout", "NZ", "--shape", "physical", input.to_str().unwrap(), packed.to_str().unwrap()]));
        let p = read_npy(&packed).unwrap();
        let (m1, n1) = (shape[0].div_ceil(16), shape[1].div_ceil(c0));
        assert_eq!(p.shape(), &[n1, m1, 16, c0], "{elem}");
        let want = nz_reference(&a, c0);
        assert!((0..p.len()).all(|k| p.get_f64(k) as f32 == want[k]), "{elem}: not the PyPTO NZ order");
        let (r, c) = (shape[0].to_string(), shape[1].to_string());
        ok(&run(&[
            "unpack",
            "--layout",
            "NZ",
            "--rows",
            &r,
            "--cols",
            &c,
            packed.to_str().unwrap(),
            back.to_str().unwrap(),
        ]));
        assert_eq!(read_npy(&back).unwrap(), a, "{elem}: unpack(pack(a)) != a");
    }
    // A batch in ZN, flat output; bf16 through '<u2' bits with --dtype.
    let a = rng.array(ElemType::BF16, &[2, 18, 20]);
    let bits = Array::new(
        a.shape().to_vec(),
        match a.data() {
            Data::BF16(v) => Data::U16(v.iter().map(|x| x.0).collect()),
            _ => unreachable!(),
        },
    )
    .unwrap();
    let (input, packed, back) = (dir.join("bf.npy"), dir.join("bf_p.npy"), dir.join("bf_b.npy"));
    write_npy(&input, &bits).unwrap();
    ok(&run(&["pack", "--layout", "ZN", "--dtype", "bf16", input.to_str().unwrap(), packed.to_str().unwrap()]));
    assert_eq!(read_npy(&packed).unwrap().shape().len(), 1);
    ok(&run(&[
        "unpack",
        "--layout",
        "ZN",
        "--batch",
        "2",
        "--rows",
        "18",
        "--cols",
        "20",
        packed.to_str().unwrap(),
        back.to_str().unwrap(),
    ]));
    assert_eq!(read_npy(&back).unwrap(), a);
}

#[test]
fn pack_rejects_bad_input_without_writing_output() {
    let dir = scratch("pack-bad");
    let out = dir.join("out.npy");
    let out_s = out.to_str().unwrap();
    let bad = dir.join("bad.npy");
    std::fs::write(&bad, b"\x93NUMPY garbage").unwrap();
    let vector = dir.join("v.npy");
    write_npy(&vector, &Array::zeros(ElemType::F16, &[8])).unwrap();
    let matrix = dir.join("m.npy");
    write_npy(&matrix, &Array::zeros(ElemType::F16, &[4, 8])).unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["pack", "--layout", "NZ", bad.to_str().unwrap(), out_s], "bad.npy"),
        (vec!["pack", "--layout", "NZ", vector.to_str().unwrap(), out_s], "[M, N]"),
        (vec!["pack", "--layout", "L0C", matrix.to_str().unwrap(), out_s], "cannot be packed"),
        (vec!["pack", "--layout", "NZ", "--dtype", "f32", matrix.to_str().unwrap(), out_s], "does not match"),
        (vec!["pack", "--layout", "NZ", matrix.to_str().unwrap()], "IN.npy OUT.npy"),
        (vec!["unpack", "--layout", "NZ", "--rows", "4", matrix.to_str().unwrap(), out_s], "--cols"),
        (vec!["unpack", "--layout", "NZ", "--rows", "5", "--cols", "8", matrix.to_str().unwrap(), out_s], "needs"),
        (vec!["pack", "--layout", "NZ", "--c0", "x", matrix.to_str().unwrap(), out_s], "--c0"),
    ];
    for (args, needle) in cases {
        let stderr = error(&run(&args));
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?} left an output file");
    }
    assert_eq!(files(&dir), ["bad.npy", "m.npy", "v.npy"]);
}

/// `pack`'s OUT (written with `output_file::write` through `write_npy`) is never replaced when
/// it is not a regular file: a symlink stays a link and its target (mode 600) gets the data
/// with its mode kept, a FIFO is written through to a reader.
#[test]
fn pack_writes_through_symlinks_and_fifos_and_keeps_the_mode() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let dir = scratch("pack-special");
    let a = Rng::new(5).array(ElemType::F16, &[16, 16]);
    let input = dir.join("a.npy");
    write_npy(&input, &a).unwrap();
    let nz = |args: &[&str]| ok(&run(&[&["pack", "--layout", "NZ", input.to_str().unwrap()], args].concat()));

    let real = dir.join("real.npy");
    std::fs::write(&real, b"old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.join("link.npy");
    std::os::unix::fs::symlink("real.npy", &link).unwrap();
    nz(&[link.to_str().unwrap()]);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    let packed = read_npy(&real).unwrap();
    assert_eq!(packed.len(), 256);
    assert!((0..256).all(|k| packed.get_f64(k) as f32 == nz_reference(&a, 16)[k]));
    assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);

    let fifo = dir.join("fifo.npy");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || std::fs::read(reader_path).unwrap());
    nz(&[fifo.to_str().unwrap()]);
    // Checked before joining: a replaced FIFO would leave the reader blocked forever.
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(layout_npy::decode_npy(&reader.join().unwrap()).unwrap(), packed);
    assert_eq!(files(&dir), ["a.npy", "fifo.npy", "link.npy", "real.npy"]);
}

/// Runs `ascendc_gemm_a2.mlir` on `backend` with `extra` arguments into a fresh directory;
/// returns the directory.
fn gemm_on(backend: &str, test: &str, extra: &[&str]) -> PathBuf {
    let out = scratch(&format!("{test}-{backend}"));
    let mut args =
        vec![kernel("ascendc_gemm_a2.mlir"), "--entry".into(), "gemm".into(), "--backend".into(), backend.into()];
    args.extend(["--out-dir".to_string(), out.to_str().unwrap().to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(&run(&refs));
    out
}

#[test]
fn every_backend_runs_the_same_kernel_bit_for_bit() {
    // Seeded inputs on the loop lowering; the same .npy inputs on the emitted C++ (g++ + model)
    // and the LLVM form (JIT + model), with and without the sanitizer: the same C bytes, equal to
    // the reference (the generator's multiples of 1/8 make every f32 sum exact).
    let loops = gemm_on("loops", "backends", &["--seed", "3"]);
    let (a, b) = (loops.join("arg0.npy"), loops.join("arg1.npy"));
    let inputs = ["--input", a.to_str().unwrap(), "--input", b.to_str().unwrap(), "--zero", "2"];
    let want = std::fs::read(loops.join("arg2.npy")).unwrap();
    for backend in ["ascendc-cpp", "ascendc-llvm"] {
        for sanitize in [false, true] {
            let mut extra = inputs.to_vec();
            if sanitize {
                extra.push("--sanitize");
            }
            let dir = gemm_on(backend, if sanitize { "backends-san" } else { "backends" }, &extra);
            let got = std::fs::read(dir.join("arg2.npy")).unwrap();
            assert!(got == want, "{backend} (sanitize {sanitize}): C differs from the loop lowering");
            let compared = ok(&run(&[
                "--compare",
                loops.join("arg2.npy").to_str().unwrap(),
                dir.join("arg2.npy").to_str().unwrap(),
            ]));
            assert!(compared.contains("max |a - b| = 0 "), "{compared}");
        }
    }
    let (a, b, c) = (read_npy(a).unwrap(), read_npy(b).unwrap(), read_npy(loops.join("arg2.npy")).unwrap());
    for i in 0..40 {
        for j in 0..24 {
            let s: f64 = (0..56).map(|p| a.get_f64(i * 56 + p) * b.get_f64(p * 24 + j)).sum();
            assert_eq!(c.get_f64(i * 24 + j), s, "C[{i},{j}]");
        }
    }
}

#[test]
fn backend_errors_are_located_and_leave_no_outputs() {
    let out = scratch("backend-errors");
    let dir = out.to_str().unwrap();
    let gemm = kernel("ascendc_gemm_a2.mlir");
    // A kernel the AscendC lowering rejects (an f32 scalar argument), located at the function.
    let f16 = kernel("gemm_f16.mlir");
    let e = error(&run(&[&f16, "--entry", "gemm_f16", "--backend", "ascendc-llvm", "--arg", "4=1", "--out-dir", dir]));
    assert!(e.starts_with(&format!("{f16}:5:1: error: @gemm_f16: argument 4 has type f32")), "{e}");
    // No g++ on PATH.
    let no_gxx = Command::new(BIN)
        .args([&gemm, "--entry", "gemm", "--backend", "ascendc-cpp", "--out-dir", dir])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    let e = error(&no_gxx);
    assert!(e.starts_with(&format!("{gemm}:5:3: error: cannot run g++ (needed by --backend ascendc-cpp)")), "{e}");
    // An input of the wrong shape is refused before the C++ runs.
    let short = out.join("short.npy");
    write_npy(&short, &Array::zeros(ElemType::F16, &[100])).unwrap();
    let e = error(&run(&[
        &gemm,
        "--entry",
        "gemm",
        "--backend",
        "ascendc-cpp",
        "--input",
        short.to_str().unwrap(),
        "--out-dir",
        dir,
    ]));
    assert!(e.contains("argument #0 (memref<2240xf16>): the array has shape [100]"), "{e}");
    let e = error(&run(&[&gemm, "--entry", "gemm", "--backend", "npu", "--out-dir", dir]));
    assert!(e.contains("--backend: unknown back end 'npu' (loops, ascendc-cpp, ascendc-llvm)"), "{e}");
    let e = error(&run(&[&gemm, "--entry", "gemm", "--sanitize=synccheck", "--out-dir", dir]));
    assert!(e.contains("--sanitize=synccheck checks the AscendC pipes"), "{e}");
    let e =
        error(&run(&[&gemm, "--entry", "gemm", "--backend", "ascendc-llvm", "--sanitize=warpcheck", "--out-dir", dir]));
    assert!(e.contains("--sanitize: unknown check 'warpcheck' (memcheck, initcheck, synccheck, racecheck)"), "{e}");
    assert_eq!(files(&out), vec!["short.npy".to_string()]);
}

#[test]
fn an_unwritten_l1_read_is_a_compile_time_error_and_the_fixed_kernel_runs_clean() {
    // tile_clipped_l1.mlir stores the whole 32-row L1 tile after loading a clipped one: R1
    // rejects it at the store on every back end, with or without --sanitize, and writes nothing.
    let out = scratch("sanitize-l1");
    let dir = out.to_str().unwrap();
    let file = kernel("tile_clipped_l1.mlir");
    for backend in ["loops", "ascendc-cpp", "ascendc-llvm"] {
        for sanitize in [None, Some("--sanitize")] {
            let mut args = vec![file.as_str(), "--entry", "tile_of_tile", "--arg", "2=24", "--backend", backend];
            args.extend(sanitize);
            args.extend(["--out-dir", dir]);
            let e = error(&run(&args));
            let want = format!("{file}:15:5: error: layout.store reads the source from the l1 buffer");
            assert!(e.starts_with(&want), "{backend}: {e}");
            assert!(e.contains("read through the `written` view that layout.load returns"), "{backend}: {e}");
            assert!(files(&out).is_empty(), "{backend}: {:?}", files(&out));
        }
    }
    // The fix: the store reads what the load wrote. Clean under every check on the three back
    // ends, clipped (i = 24) and whole (i = 16), with the same bytes.
    let text = std::fs::read_to_string(&file).unwrap();
    let written = r#"!layout.tensor<f16, "l1", "((16,2),(16,1)):((16,256),(1,512))", "(?,16)">"#;
    let fixed = text
        .replace(
            r#"    "layout.load"(%t2, %a1) : (!layout.tensor<f16, "gm", "(32,16):(64,1)", "(?,16)">, !layout.tensor<f16, "l1", "NZ", "(32,16)">) -> ()"#,
            &format!(r#"    %w = "layout.load"(%t2, %a1) : (!layout.tensor<f16, "gm", "(32,16):(64,1)", "(?,16)">, !layout.tensor<f16, "l1", "NZ", "(32,16)">) -> {written}"#),
        )
        .replace(
            r#"    "layout.store"(%a1, %go) : (!layout.tensor<f16, "l1", "NZ", "(32,16)">, !layout.tensor<f16, "gm", "NZ", "(32,16)">) -> ()"#,
            &format!(r#"    "layout.store"(%w, %go) : ({written}, !layout.tensor<f16, "gm", "NZ", "(32,16)">) -> ()"#),
        );
    assert_ne!(fixed, text, "the load/store lines were not found");
    let fixed_file = out.join("fixed.mlir");
    std::fs::write(&fixed_file, fixed).unwrap();
    for i in ["24", "16"] {
        let mut outputs = Vec::new();
        for (n, backend) in ["loops", "ascendc-cpp", "ascendc-llvm"].into_iter().enumerate() {
            let d = out.join(format!("fixed-{i}-{n}"));
            let arg = format!("2={i}");
            let args = [
                fixed_file.to_str().unwrap(),
                "--entry",
                "tile_of_tile",
                "--arg",
                &arg,
                "--seed",
                "5",
                "--zero",
                "1",
                "--backend",
                backend,
                "--sanitize",
                "--out-dir",
                d.to_str().unwrap(),
            ];
            ok(&run(&args));
            outputs.push(std::fs::read(d.join("arg1.npy")).unwrap());
        }
        assert!(outputs[0] == outputs[1] && outputs[0] == outputs[2], "i = {i}: the three back ends differ");
    }
}

/// `--block-dim` (issue 12): examples/gemm_multicore.mlir on 3 blocks, every back end, the
/// sanitizer on (racecheck included), C exact; the variant whose every block computes tile 0 is
/// a located racecheck error on every back end, and with `--block-dim 1` it runs clean.
#[test]
fn block_dim_runs_every_block_and_racecheck_reports_shared_tiles() {
    let dir = scratch("block-dim");
    let (m, n, k) = (150usize, 300usize, 70usize);
    let mut rng = Rng::new(12);
    let (a, b, c) =
        (rng.array(ElemType::F16, &[m, k]), rng.array(ElemType::F16, &[k, n]), rng.array(ElemType::F32, &[m, n]));
    let paths = ["a.npy", "b.npy", "c.npy"].map(|p| dir.join(p).to_str().unwrap().to_string());
    for (p, x) in paths.iter().zip([&a, &b, &c]) {
        write_npy(Path::new(p), x).unwrap();
    }
    let example = format!("{}/../../examples/gemm_multicore.mlir", env!("CARGO_MANIFEST_DIR"));
    let racy = dir.join("racy.mlir");
    let text = std::fs::read_to_string(&example).unwrap();
    let racy_text = text.replace("scf.for %t = %bid to %tiles step %bnum", "scf.for %t = %c0 to %c1 step %c1");
    assert_ne!(racy_text, text);
    std::fs::write(&racy, racy_text).unwrap();
    let store_line = text.lines().position(|l| l.contains("\"layout.store\"(%acc, %tc)")).unwrap() + 1;
    let (m_s, n_s, k_s) = (format!("3={m}"), format!("4={n}"), format!("5={k}"));
    for backend in ["loops", "ascendc-cpp", "ascendc-llvm"] {
        let out = dir.join(backend);
        std::fs::create_dir_all(&out).unwrap();
        let args = |kernel: &str, block_dim: &str| {
            [
                kernel,
                "--entry",
                "gemm_multicore",
                "--backend",
                backend,
                "--block-dim",
                block_dim,
                "--seed",
                "9",
                "--sanitize",
                "--input",
                &paths[0],
                "--input",
                &paths[1],
                "--input",
                &paths[2],
                "--arg",
                &m_s,
                "--arg",
                &n_s,
                "--arg",
                &k_s,
                "--arg",
                "6=2",
                "--arg",
                "7=0",
                "--out-dir",
                out.to_str().unwrap(),
            ]
            .map(str::to_string)
        };
        fn refs(v: &[String]) -> Vec<&str> {
            v.iter().map(String::as_str).collect()
        }
        ok(&run(&refs(&args(&example, "3"))));
        let got = read_npy(out.join("arg2.npy")).unwrap();
        for i in 0..m {
            for j in 0..n {
                let s: f64 = (0..k).map(|p| a.get_f64(i * k + p) * b.get_f64(p * n + j)).sum();
                assert_eq!(got.get_f64(i * n + j), s, "{backend}: C[{i},{j}]");
            }
        }
        let racy_path = racy.to_str().unwrap();
        let e = error(&run(&refs(&args(racy_path, "3"))));
        assert!(e.contains(&format!("{racy_path}:{store_line}:")) && e.contains("racecheck: "), "{backend}: {e}");
        assert!(e.contains("which block "), "{backend}: {e}");
        ok(&run(&refs(&args(racy_path, "1"))));
    }
    let e = error(&run(&[&example, "--entry", "gemm_multicore", "--block-dim", "0"]));
    assert!(e.contains("--block-dim"), "{e}");
}

/// The compiled-kernel cache across processes: the first run compiles and stores, the second
/// takes the object from the cache and writes the same outputs, `--no-cache` compiles again.
#[test]
fn a_second_run_takes_the_compiled_kernel_from_the_cache() {
    let out = scratch("cache");
    let cache = out.join("cache");
    let run_with = |name: &str, extra: &[&str]| {
        let dir = out.join(name);
        let mut args = vec![kernel("gemm_i8_static.mlir"), "--entry".into(), "gemm_i8".into(), "--seed".into()];
        args.extend(["7".into(), "--out-dir".into(), dir.to_str().unwrap().into(), "-v".into()]);
        args.extend(extra.iter().map(|s| s.to_string()));
        let output = Command::new(BIN).args(&args).env("LAYOUT_OPT_CACHE_DIR", &cache).output().expect("runs");
        ok(&output);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (std::fs::read(dir.join("arg2.npy")).unwrap(), stderr)
    };
    let (first, log) = run_with("first", &[]);
    assert!(log.contains("jit cache: 0 hits, 1 misses, 0 uncached (in "), "{log}");
    let entries = files(&cache);
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert!(entries[0].ends_with(".o"), "{entries:?}");
    let (second, log) = run_with("second", &[]);
    assert!(log.contains("jit cache: 1 hits, 0 misses, 0 uncached (in "), "{log}");
    let (uncached, log) = run_with("third", &["--no-cache"]);
    assert!(log.contains("jit cache: 0 hits, 0 misses, 1 uncached (disabled)"), "{log}");
    assert_eq!(first, second);
    assert_eq!(first, uncached);
    // And the output is the product (not merely the same wrong bytes three times).
    let (a, b, c) = (
        read_npy(out.join("first/arg0.npy")).unwrap(),
        read_npy(out.join("first/arg1.npy")).unwrap(),
        read_npy(out.join("second/arg2.npy")).unwrap(),
    );
    let (Data::I8(av), Data::I8(bv), Data::I32(cv)) = (a.data(), b.data(), c.data()) else { panic!("types") };
    for i in 0..32 {
        for j in 0..16 {
            let expected: i32 = (0..48).map(|p| av[i * 48 + p] as i32 * bv[p * 16 + j] as i32).sum();
            assert_eq!(cv[i * 16 + j], expected, "C[{i},{j}]");
        }
    }
    assert_eq!(files(&cache), entries, "a hit stores nothing new");
}

/// clap's conventions: `--version`, "did you mean", completions, one-dash long options.
#[test]
fn the_command_line_suggests_and_prints_its_version_and_completions() {
    let version = ok(&run(&["--version"]));
    assert_eq!(version.trim(), format!("layout-run {}", env!("CARGO_PKG_VERSION")));
    for misspelled in ["--self-chek", "-self-chek"] {
        let e = error(&run(&[&kernel("gemm_i8_static.mlir"), "--entry", "gemm_i8", misspelled]));
        assert_eq!(e.trim(), "layout-run: error: unknown option '--self-chek'; did you mean '--self-check'?");
    }
    let bash = ok(&run(&["--completions", "bash"]));
    assert!(bash.contains("--block-dim") && bash.contains("--sanitize"), "{bash}");
    // Several kernels run one after the other; here neither has @x: one error each, exit 1.
    let e = error(&run(&[&kernel("gemm_i8_static.mlir"), &kernel("gemm_f16.mlir"), "--entry", "x"]));
    assert_eq!(e.matches("layout-run: error: no function @x").count(), 2, "{e}");
}
