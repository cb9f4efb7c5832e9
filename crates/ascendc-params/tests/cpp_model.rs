//! The C++ model: compiles model/tests/gemm_test.cpp with g++ (-std=c++17 -Wall -Wextra
//! -Werror) and runs it — a full GEMM through the C++ API and through the C ABI, f16 and i8,
//! aligned and tails, arch 2201 and 3510, against a reference loop and against each other;
//! and the model's own f16/bf16 conversions (C++, so not the `half` crate) against `half` on
//! every 16-bit pattern and every rounding boundary.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

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

/// The f32 inputs whose f16 and bf16 roundings decide correctness: every value of each 16-bit
/// format widened (exact), the midpoint to the next value (a tie: to even), one f32 ulp either
/// side of it, and the specials (infinities, NaNs with payloads, the largest f32).
fn rounding_cases() -> Vec<u32> {
    let mut cases = vec![0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x7f80_0001, 0xffc0_1234, 0x7f7f_ffff, 0x0000_0001];
    // The overflow boundaries (half way from the largest finite value to the next power of two).
    for boundary in [65520f32.to_bits(), (-65520f32).to_bits(), 0x7f7f_8000, 0xff7f_8000] {
        cases.extend([boundary - 1, boundary, boundary + 1]);
    }
    for p in 0..=u16::MAX {
        let next = p.wrapping_add(1);
        for (value, next) in [
            (half::f16::from_bits(p).to_f32(), half::f16::from_bits(next).to_f32()),
            (half::bf16::from_bits(p).to_f32(), half::bf16::from_bits(next).to_f32()),
        ] {
            cases.push(value.to_bits());
            if value.is_finite() && next.is_finite() && (value.to_bits() >> 31) == (next.to_bits() >> 31) {
                let mid = ((f64::from(value) + f64::from(next)) / 2.0) as f32; // exact: one bit more
                cases.extend([mid.to_bits(), mid.to_bits() - 1, mid.to_bits() + 1]);
            }
        }
    }
    cases
}

#[test]
fn model_conversions_match_the_half_crate_on_every_pattern() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("model");
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ascendc_model_convert_test");
    let build = Command::new("g++")
        .args(["-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(&dir)
        .arg(dir.join("tests/convert_test.cpp"))
        .arg("-o")
        .arg(&out)
        .output()
        .expect("g++ must be installed");
    assert!(build.status.success(), "g++ failed:\n{}", String::from_utf8_lossy(&build.stderr));
    let cases = rounding_cases();
    let input: String = cases.iter().map(|x| format!("{x:x}\n")).collect();
    let mut child = Command::new(&out).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("run");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<(u32, u32)> = text
        .lines()
        .map(|line| {
            let (a, b) = line.split_once(' ').unwrap();
            (u32::from_str_radix(a, 16).unwrap(), u32::from_str_radix(b, 16).unwrap())
        })
        .collect();
    assert_eq!(lines.len(), cases.len() + 65536);
    for (&x, &(f16_bits, bf16_bits)) in cases.iter().zip(&lines) {
        let value = f32::from_bits(x);
        let f16 = half::f16::from_f32(value);
        if value.is_nan() {
            // Any NaN is a NaN of the same sign; bf16 NaNs are 0x7FFF, the Fixpipe's.
            let got = half::f16::from_bits(f16_bits as u16);
            assert!(got.is_nan() && got.is_sign_negative() == value.is_sign_negative(), "{x:#010x} -> {f16_bits:#06x}");
            assert_eq!(bf16_bits, 0x7fff, "{x:#010x}");
        } else {
            assert_eq!(f16_bits, u32::from(f16.to_bits()), "f16 of {x:#010x} ({value:e})");
            assert_eq!(bf16_bits, u32::from(half::bf16::from_f32(value).to_bits()), "bf16 of {x:#010x} ({value:e})");
        }
    }
    for (p, &(from_f16, from_bf16)) in lines[cases.len()..].iter().enumerate() {
        let (f16, bf16) = (half::f16::from_bits(p as u16).to_f32(), half::bf16::from_bits(p as u16).to_f32());
        // Widening is exact. An f16 NaN keeps sign and payload and is made quiet (IEEE 754, as
        // the loops back end's fpext on x86); a bf16 one is the plain upper half of an f32, as
        // the loops back end's arith-expand makes it (half quiets it: only NaNs may differ).
        assert_eq!(from_f16, f16.to_bits(), "f16 {p:#06x}");
        if bf16.is_nan() {
            assert_eq!(from_bf16, (p as u32) << 16, "bf16 NaN {p:#06x}");
        } else {
            assert_eq!(from_bf16, bf16.to_bits(), "bf16 {p:#06x}");
        }
    }
}
