//! The C++ model: compiles model/tests/gemm_test.cpp with g++ (-std=c++17 -Wall -Wextra
//! -Werror) and runs it — a full GEMM through the C++ API and through the C ABI, f16 and i8,
//! aligned and tails, arch 2201 and 3510, against a reference loop and against each other.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn gemm_through_the_cpp_header_and_the_c_abi() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("model");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ascendc_model_gemm_test");
    let build = Command::new("g++")
        .args(["-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(&dir)
        .arg(dir.join("tests/gemm_test.cpp"))
        .arg(dir.join("ascendc_model_abi.cpp"))
        .arg("-o")
        .arg(&out)
        .output()
        .expect("g++ must be installed");
    assert!(build.status.success(), "g++ failed:\n{}", String::from_utf8_lossy(&build.stderr));
    let run = Command::new(&out).output().expect("run the model test");
    let stdout = String::from_utf8_lossy(&run.stdout);
    println!("{stdout}");
    assert!(run.status.success(), "model test failed:\n{stdout}");
    assert!(stdout.contains("\n0 failures"), "{stdout}");
    assert!(stdout.matches("ok arch").count() >= 40, "{stdout}");
}

#[test]
fn c_abi_symbols_are_linked_and_callable() {
    use ascendc_params::{decl, ffi};
    let syms = ffi::c_abi_symbols();
    assert_eq!(syms.len(), 17);
    assert!(syms.iter().all(|(n, p)| n.starts_with("ascendc_model_") && !p.is_null()));
    // The launch the drivers set is what GetBlockIdx() / GetBlockNum() read (per thread).
    unsafe { ffi::ascendc_model_set_block(5, 24) };
    assert_eq!(unsafe { (ffi::ascendc_model_get_block_idx(), ffi::ascendc_model_get_block_num()) }, (5, 24));
    let other =
        std::thread::spawn(|| unsafe { (ffi::ascendc_model_get_block_idx(), ffi::ascendc_model_get_block_num()) });
    assert_eq!(other.join().unwrap(), (0, 1));
    unsafe { ffi::ascendc_model_set_block(0, 1) };
    // An unsupported call reports a status and a message instead of aborting.
    let mut dst = [0u8; 512];
    let src = [0u8; 512];
    let p = decl::CLoadData2DParams { repeatTimes: 1, ifTranspose: true, ..Default::default() };
    let st = unsafe { ffi::ascendc_model_load_data_2d(dst.as_mut_ptr().cast(), src.as_ptr().cast(), 8, &p, 2201) };
    assert_eq!(st, 1);
    assert!(ffi::last_error().contains("16-bit"), "{}", ffi::last_error());
    // Fixpipe CFG_NZ writes whole column blocks: nSize must be a multiple of 16 (8 with split).
    let p =
        decl::CFixpipeParamsV220 { nSize: 20, mSize: 1, srcStride: 1, dstStride: 1, ndNum: 1, ..Default::default() };
    let st = unsafe {
        ffi::ascendc_model_fixpipe_nz2nz(
            dst.as_mut_ptr().cast(),
            src.as_ptr().cast(),
            ffi::dtype_code::F16,
            ffi::dtype_code::F32,
            &decl::CFixpipeParamsV220 { quantPre: 1, ..p },
            2201,
        )
    };
    assert_ne!(st, 0);
    assert!(ffi::last_error().contains("multiple of 16"), "{}", ffi::last_error());
}
