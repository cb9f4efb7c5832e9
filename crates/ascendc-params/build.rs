//! Builds the C ABI of the CPU model (model/ascendc_model_abi.cpp) into the static library
//! `ascendc_model`, linked into this crate so `ascendc_params::ffi` can call it and hand its
//! symbols to a JIT (`ffi::c_abi_symbols`).
fn main() {
    for f in [
        "model/ascendc_model_abi.cpp",
        "model/ascendc_model_abi.h",
        "model/ascendc_model_impl.h",
        "model/ascendc_model_sanitizer.h",
    ] {
        println!("cargo:rerun-if-changed={f}");
    }
    cc::Build::new()
        .cpp(true)
        .std("c++17")
        .include("model")
        .file("model/ascendc_model_abi.cpp")
        // Optimized in every profile: the JIT-run kernels spend their time in the model, whose
        // sanitizer hooks touch every element (about 15x slower unoptimized).
        .opt_level(2)
        .warnings(true)
        // Optimized in every profile: the model stands in for the cube in the tests, which run
        // whole GEMMs through it (unoptimized, a K = 1000 GEMM spends seconds in Mmad).
        .opt_level(2)
        .compile("ascendc_model");
    println!("cargo:include={}/model", std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
}
