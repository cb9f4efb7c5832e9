//! # ascendc-emit
//!
//! Printers for the `ascendc` dialect produced by `layout-lower-to-ascendc`:
//! - [`cpp`]: `layout-opt --emit=ascendc`, a complete AscendC C++ kernel, compiled on the host
//!   with `g++ -std=c++17 -I crates/ascendc-emit/host -I crates/ascendc-params/model`
//!   (`host/kernel_operator.h` maps `GM_ADDR` and the device builtins onto the CPU model);
//! - [`llvm`]: `layout-opt --emit=ascendc-llvm`, LLVM IR where each intrinsic is a call to the
//!   model's stable C ABI (one function per intrinsic, parameter structs as in C++); run it in
//!   the runtime's JIT after `Jit::register_symbols(ascendc_params::ffi::c_abi_symbols())`.
//!
//! Both walk the module once ([`kernel::kernels`]) into the same kernel description.
//! [`cost`] is a pipe-level cost model of the same description (`layout-run --cost`).
//! [`run`] runs a kernel through either on the CPU (g++ + the model, or the JIT), optionally
//! under the model's sanitizer: the driver of `layout-run --backend` and of the tests.

pub mod cost;
pub mod cpp;
pub mod error;
pub mod hoist;
pub mod kernel;
pub mod llvm;
pub mod ops;
pub mod project;
pub mod run;

use ascendc_params::Target;
use layout_runtime::diagnostics::{position_of, UNNAMED_INPUT};
use layout_runtime::Diag;
use melior::ir::{operation::OperationLike, Module};

/// Directory of the host `kernel_operator.h` shim.
pub const HOST_INCLUDE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/host");

/// The target of a module: `layout_dialect::types::target_of`, the one rule (no default; a
/// missing or malformed target is an error at the module).
pub fn target_of(module: &Module) -> Result<Target, Diag> {
    layout_dialect::types::target_of(module.as_operation()).map_err(|(_, e)| at_module(module, e.to_string()))
}

/// `--emit=ascendc`: the AscendC C++ of every kernel in `module`. Errors are located at the op
/// that cannot be emitted, else at the module (positions in text-parsed modules are in
/// `layout_runtime::diagnostics::UNNAMED_INPUT`).
pub fn emit_cpp(module: &Module) -> Result<String, Diag> {
    let ks = some_kernels(module)?;
    cpp::translation_unit(&ks, target_of(module)?).map_err(|e| e.into_diag(module_position(module)))
}

/// The MLIR (upstream dialects + llvm) form of the kernels, calling the model's C ABI.
pub fn emit_llvm_mlir(module: &Module) -> Result<String, Diag> {
    let ks = some_kernels(module)?;
    llvm::mlir_module(&ks, target_of(module)?).map_err(|e| e.into_diag(module_position(module)))
}

/// `--emit=ascendc-llvm`: LLVM IR (optimized at O2 by `layout-runtime`).
pub fn emit_llvm_ir(module: &Module) -> Result<String, Diag> {
    let text = emit_llvm_mlir(module)?;
    let at = |message: String| at_module(module, message);
    let context = layout_runtime::create_context().map_err(|e| at(e.to_string()))?;
    let m = Module::parse(&context, &text)
        .ok_or_else(|| at("internal error: the generated LLVM-form module does not parse".into()))?;
    layout_runtime::compile_to_llvm_ir(&m).map_err(|e| at(e.to_string()))
}

/// The cost model ([`cost::estimate`]) of the kernel `entry` of a module lowered by
/// `--layout-lower-to-ascendc`. Errors are located at the op they concern, else at the module.
pub fn cost_of(module: &Module, entry: &str, inputs: &cost::Inputs) -> Result<cost::Estimate, Diag> {
    let ks = some_kernels(module)?;
    let names: Vec<String> = ks.iter().map(|k| format!("@{}", k.name)).collect();
    let kernel = ks.iter().find(|k| k.name == entry).ok_or_else(|| {
        at_module(module, format!("no ascendc kernel @{entry} in the module (kernels: {})", names.join(", ")))
    })?;
    if let Some(k) = inputs.args.keys().find(|k| !matches!(kernel.params.get(**k), Some(kernel::Param::Index { .. }))) {
        return Err(at_module(module, format!("argument #{k} of @{entry} is not an index argument")));
    }
    cost::estimate(kernel, target_of(module)?, inputs).map_err(|e| e.into_diag(module_position(module)))
}

/// The kernels of `module`; none is an error (the lowering pass was not run).
fn some_kernels(module: &Module) -> Result<Vec<kernel::Kernel>, Diag> {
    let ks = kernel::kernels(module)?;
    if ks.is_empty() {
        return Err(at_module(module, "no ascendc kernel in the module (run --layout-lower-to-ascendc first)".into()));
    }
    Ok(ks)
}

/// An error about the module as a whole, at the module's location.
fn at_module(module: &Module, message: String) -> Diag {
    Diag::error(module_position(module), message)
}

fn module_position(module: &Module) -> Option<layout_runtime::Position> {
    position_of(module.as_operation().location(), UNNAMED_INPUT)
}
