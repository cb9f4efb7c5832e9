//! `ascendc_emit::project` (issue 12 item 5): the CANN project of a generated GEMM. The files'
//! contents are checked (the cube-only declaration inside the kernel, M, N, K through the tiling
//! struct, the `<<<>>>` launch with every argument, the ASC CMake project), and the very main.cpp written is compiled with g++
//! against the host shims (`host/kernel_operator.h`, `host/acl/acl.h`) and the CPU model, run on
//! 3 blocks with dynamic sizes (tails in M, N and K; A ND, B DN), and compared exactly with a plain reference
//! (integer-valued f32 operands, so every summation order gives the same result).

use super::scratch;
use ascendc_emit::run::{self, MODEL_INCLUDE_DIR};
use gemm_gen::{Dim, Epilogue, GemmSpec, GmLayout, TileOrder, Tiles};
use layout_algebra::ascend::{ElementType, Target};
use melior::ir::Module;
use std::path::Path;
use std::process::Command;

fn spec() -> GemmSpec {
    GemmSpec {
        name: "deploy_gemm".into(),
        m: Dim::Dynamic,
        n: Dim::Dynamic,
        k: Dim::Dynamic,
        input: ElementType::F32,
        output: ElementType::F32,
        a: GmLayout::Nd,
        // f32 B goes through L0B in its DN order (an ND f32 B needs a transposing load not emitted).
        b: GmLayout::Dn,
        epilogue: Epilogue::default(),
        target: Target::A2,
        tiles: Tiles { m1: 32, n1: 32, k1: 64, k0: 32, stages: 1 },
        order: TileOrder::Linear,
        split_k: 1,
    }
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn generated_project_launcher_runs_the_gemm_on_the_model() {
    let context = layout_runtime::create_context().unwrap();
    let s = spec();
    let text = gemm_gen::generate(&s).unwrap();
    let mut module = Module::parse(&context, &text).expect("parse");
    run::lower_to_ascendc(&mut module).unwrap_or_else(|e| panic!("lower: {e}"));
    let dir = scratch("project_deploy_gemm");
    ascendc_emit::project::write(&module, "deploy_gemm", &dir).unwrap_or_else(|e| panic!("write: {e}"));

    let kernel = std::fs::read_to_string(dir.join("kernel.cpp")).unwrap();
    let main = std::fs::read_to_string(dir.join("main.cpp")).unwrap();
    let cmake = std::fs::read_to_string(dir.join("CMakeLists.txt")).unwrap();
    let tiling = std::fs::read_to_string(dir.join("tiling.h")).unwrap();
    for (name, t) in [("kernel.cpp", &kernel), ("main.cpp", &main), ("CMakeLists.txt", &cmake), ("tiling.h", &tiling)] {
        assert!(t.lines().take(3).any(|l| l.contains("NOT compiled or run on an NPU here")), "{name} banner:\n{t}");
    }
    // M, N, K (the index parameters) come in the tiling struct; the declaration is the first
    // statement of the kernel body.
    assert!(
        tiling.contains("struct deploy_gemmTiling {\n    int64_t arg3;\n    int64_t arg4;\n    int64_t arg5;\n};"),
        "{tiling}"
    );
    assert!(kernel.contains("#include \"kernel_operator.h\"\n#include \"tiling.h\"\n"), "{kernel}");
    let sig = "extern \"C\" __global__ __aicore__ void deploy_gemm(GM_ADDR arg0, GM_ADDR arg1, GM_ADDR arg2, deploy_gemmTiling tiling)\n{\n";
    let at = kernel.find(sig).unwrap_or_else(|| panic!("signature:\n{kernel}"));
    let body = &kernel[at + sig.len()..];
    let head = "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n    const int64_t arg3 = tiling.arg3;\n    const int64_t arg4 = tiling.arg4;\n    const int64_t arg5 = tiling.arg5;\n    AscendC::InitSocState();\n";
    assert!(body.starts_with(head), "{kernel}");
    assert_eq!(kernel.matches("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);").count(), 1);
    // The three GM buffers, then the tiling struct filled from the command line.
    assert!(main.contains("    tiling.arg3 = (int64_t)std::strtoll(argv[3], nullptr, 10);\n"), "{main}");
    assert!(
        main.contains(
            "deploy_gemm<<<blockDim, nullptr, stream>>>((GM_ADDR)dev0, (GM_ADDR)dev1, (GM_ADDR)dev2, tiling);"
        ),
        "{main}"
    );
    assert_eq!(main.matches("ACL_MEMCPY_HOST_TO_DEVICE").count(), 3);
    assert_eq!(main.matches("ACL_MEMCPY_DEVICE_TO_HOST").count(), 3);
    assert!(main.contains("aclrtSynchronizeStream(stream)"));
    assert!(cmake.contains("project(deploy_gemm LANGUAGES ASC CXX)"), "{cmake}");
    assert!(cmake.contains("--npu-arch=dav-2201"), "{cmake}");

    compile_launcher(&dir);

    let (m, n, k) = (70usize, 45usize, 100usize);
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7 + 3) % 9) as f32 - 4.0).collect();
    // B is DN: element (kk, j) at j * k + kk.
    let b: Vec<f32> = (0..n * k).map(|i| ((i * 5 + 1) % 7) as f32 - 3.0).collect();
    let c = vec![-999.0f32; m * n];
    for (i, v) in [&a, &b, &c].into_iter().enumerate() {
        std::fs::write(dir.join(format!("in{i}.bin")), f32_bytes(v)).unwrap();
    }
    let run = Command::new(dir.join("launcher"))
        .arg(&dir)
        .args(["3", &m.to_string(), &n.to_string(), &k.to_string()])
        .output()
        .unwrap();
    assert!(run.status.success(), "launcher: {}", String::from_utf8_lossy(&run.stderr));
    assert_is_a_times_dn_b(&dir, (&a, &b), (m, n, k), "1 call");
    // A and B come back unchanged through the copy-back.
    assert_eq!(std::fs::read(dir.join("out0.bin")).unwrap(), f32_bytes(&a));
}

/// A split-K kernel adds its chunks into C with atomic-add stores, so C must be zero on entry:
/// the launcher sets it to zero with `aclrtMemset` (its size, dynamic here, comes after the
/// scalars) instead of uploading `in2.bin`. `in2.bin` is written full of garbage to show it is
/// not read; the result must still be exactly A × B on 1 and 5 blocks.
#[test]
fn split_k_project_zeroes_c_with_acl_memset() {
    let context = layout_runtime::create_context().unwrap();
    let s = GemmSpec { name: "split_gemm".into(), split_k: 3, ..spec() };
    let text = gemm_gen::generate(&s).unwrap();
    let mut module = Module::parse(&context, &text).expect("parse");
    run::lower_to_ascendc(&mut module).unwrap_or_else(|e| panic!("lower: {e}"));
    let dir = scratch("project_split_gemm");
    ascendc_emit::project::write(&module, "split_gemm", &dir).unwrap_or_else(|e| panic!("write: {e}"));
    let main = std::fs::read_to_string(dir.join("main.cpp")).unwrap();
    assert!(main.contains("usage: split_gemm DIR BLOCK_DIM arg3 arg4 arg5 ARG2_BYTES"), "{main}");
    assert!(main.contains("std::vector<uint8_t> host2((size_t)std::strtoull(argv[6], nullptr, 10));"), "{main}");
    assert!(main.contains("CHECK_ACL(aclrtMemset(dev2, host2.size(), 0, host2.size()));"), "{main}");
    assert!(!main.contains("/in2.bin"), "{main}");
    // A and B are uploaded, C is not; all three come back.
    assert_eq!(main.matches("ACL_MEMCPY_HOST_TO_DEVICE").count(), 2);
    assert_eq!(main.matches("ACL_MEMCPY_DEVICE_TO_HOST").count(), 3);
    // zeroed before the launch
    assert!(main.find("aclrtMemset(dev2").unwrap() < main.find("split_gemm<<<").unwrap());

    compile_launcher(&dir);

    // K = 200 with k1 = 64: 4 slices; S = 3 gives chunks of ceil(4/3) = 2 slices, so 2 chunks, the
    // last with a K tail (2 × 2 C tiles: 8 tasks over 1 and 5 blocks).
    let (m, n, k) = (40usize, 45usize, 200usize);
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7 + 3) % 9) as f32 - 4.0).collect();
    let b: Vec<f32> = (0..n * k).map(|i| ((i * 5 + 1) % 7) as f32 - 3.0).collect();
    for (i, v) in [&a, &b, &vec![-999.0f32; m * n]].into_iter().enumerate() {
        std::fs::write(dir.join(format!("in{i}.bin")), f32_bytes(v)).unwrap();
    }
    for blocks in ["1", "5"] {
        let run = Command::new(dir.join("launcher"))
            .arg(&dir)
            .args([blocks, &m.to_string(), &n.to_string(), &k.to_string(), &(m * n * 4).to_string()])
            .output()
            .unwrap();
        assert!(run.status.success(), "launcher: {}", String::from_utf8_lossy(&run.stderr));
        assert_is_a_times_dn_b(&dir, (&a, &b), (m, n, k), &format!("{blocks} blocks"));
    }
    // too few arguments: the usage, exit code 3
    let run = Command::new(dir.join("launcher")).arg(&dir).args(["1", "40", "45", "200"]).output().unwrap();
    assert_eq!(run.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&run.stderr).contains("ARG2_BYTES"));
}

/// Compiles the project's `main.cpp` against the CPU model into `dir/launcher`.
fn compile_launcher(dir: &Path) {
    let out = Command::new("g++")
        .args(["-std=c++17", "-O1", "-Wall", "-Wno-unused-variable", "-Wno-unused-but-set-variable"])
        .arg(format!("-DASCENDC_MODEL_ARCH={}", Target::A2.arch()))
        .arg(format!("-I{}", ascendc_emit::HOST_INCLUDE_DIR))
        .arg(format!("-I{MODEL_INCLUDE_DIR}"))
        .args(["main.cpp", "-o", "launcher"])
        .current_dir(dir)
        .output()
        .expect("g++");
    assert!(out.status.success(), "g++ main.cpp:\n{}", String::from_utf8_lossy(&out.stderr));
}

/// `dir/out2.bin` is exactly A × B for row-major A (m × k) and DN B (element (kk, j) at j·k + kk).
fn assert_is_a_times_dn_b(dir: &Path, (a, b): (&[f32], &[f32]), (m, n, k): (usize, usize, usize), run: &str) {
    let got: Vec<f32> = std::fs::read(dir.join("out2.bin"))
        .unwrap()
        .chunks(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(got.len(), m * n, "{run}");
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k).map(|kk| a[i * k + kk] * b[j * k + kk]).sum();
            assert_eq!(got[i * n + j], want, "{run}: C[{i}][{j}]");
        }
    }
}
