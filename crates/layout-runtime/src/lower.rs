//! Upstream dialects → LLVM dialect → LLVM IR (optimized at O2 with the host target).

use crate::{Capture, Error, Result};
use inkwell::{
    passes::PassBuilderOptions,
    targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetMachine},
    OptimizationLevel,
};
use melior::ir::{
    operation::{OperationLike, OperationPrintingFlags},
    Module, Operation,
};
use mlir_sys::MlirPass;

/// The pipeline [`lower_to_llvm_dialect`] runs, as `mlir-opt` text (for documentation and for
/// reproducing with `mlir-opt --pass-pipeline=...`). `lower-affine` runs twice: first for
/// `affine.for`/`affine.if` in kernels (they become `scf`, before `scf` is lowered), then for the
/// `affine.apply` ops that `expand-strided-metadata` creates.
pub const PIPELINE: &str = "builtin.module(arith-expand{include-bf16=true},lower-affine,convert-scf-to-cf,expand-strided-metadata,lower-affine,finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)";

/// The first element of [`PIPELINE`]: `arith.truncf`/`extf` on bf16 become integer arithmetic
/// (round to nearest even), because LLVM would otherwise call the compiler-rt helper
/// `__truncsfbf2`, which the JIT cannot resolve where the system's libgcc predates it (Debian 12).
/// It has an option, so it is added as text (and registered once) instead of created directly.
const EXPAND_BF16: &str = "arith-expand{include-bf16=true}";

/// The other passes of [`PIPELINE`], in order (created directly, so nothing needs registering).
const PASSES: [unsafe extern "C" fn() -> MlirPass; 10] = [
    mlir_sys::mlirCreateConversionLowerAffinePass,
    mlir_sys::mlirCreateConversionSCFToControlFlowPass,
    mlir_sys::mlirCreateMemRefExpandStridedMetadataPass,
    mlir_sys::mlirCreateConversionLowerAffinePass,
    mlir_sys::mlirCreateConversionFinalizeMemRefToLLVMConversionPass,
    mlir_sys::mlirCreateConversionArithToLLVMConversionPass,
    mlir_sys::mlirCreateConversionConvertIndexToLLVMPass,
    mlir_sys::mlirCreateConversionConvertControlFlowToLLVMPass,
    mlir_sys::mlirCreateConversionConvertFuncToLLVMPass,
    mlir_sys::mlirCreateConversionReconcileUnrealizedCastsPass,
];

static REGISTER_EXPAND: std::sync::Once = std::sync::Once::new();

/// Runs [`PIPELINE`] on `module` in place. The module's context must have been prepared with
/// [`crate::prepare_context`] (or created by [`crate::create_context`]). Diagnostics (e.g. an op
/// that has no lowering: "failed to legalize operation 'layout.load'") come back in the error.
pub fn lower_to_llvm_dialect(module: &mut Module) -> Result<()> {
    let capture = Capture::for_module(module, "<input>");
    let op = module.as_operation().to_raw();
    // Safety: valid context and module; the pass manager owns the passes and is destroyed here.
    let ok = unsafe {
        let manager = mlir_sys::mlirPassManagerCreate(mlir_sys::mlirOperationGetContext(op));
        REGISTER_EXPAND.call_once(|| mlir_sys::mlirRegisterArithArithExpandOpsPass());
        let expand = mlir_sys::mlirOpPassManagerAddPipeline(
            mlir_sys::mlirPassManagerGetAsOpPassManager(manager),
            melior::StringRef::new(EXPAND_BF16).to_raw(),
            None,
            std::ptr::null_mut(),
        );
        assert!(expand.value != 0, "{EXPAND_BF16} is a valid pipeline once registered");
        for create in PASSES {
            mlir_sys::mlirPassManagerAddOwnedPass(manager, create());
        }
        let result = mlir_sys::mlirPassManagerRunOnOp(manager, op);
        mlir_sys::mlirPassManagerDestroy(manager);
        result.value != 0
    };
    let diagnostics = capture.take();
    if ok {
        Ok(())
    } else {
        Err(Error::mlir("lowering to the LLVM dialect failed", diagnostics))
    }
}

/// A copy of `module` (same context).
pub fn clone_module<'c>(module: &Module<'c>) -> Module<'c> {
    // Safety: cloning a valid module op gives a valid, owned module op.
    let op = unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(module.as_operation().to_raw())) };
    Module::from_operation(op).expect("a clone of a module is a module")
}

/// A target machine for the host (x86-64): `reloc` Default for `--emit=llvm`, PIC for the JIT's
/// objects (linked anywhere in the address space).
pub(crate) fn host_target_machine(level: OptimizationLevel, reloc: RelocMode) -> Result<TargetMachine> {
    Target::initialize_native(&InitializationConfig::default()).map_err(Error::Llvm)?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| Error::Llvm(e.to_string()))?;
    let cpu = TargetMachine::get_host_cpu_name();
    let features = TargetMachine::get_host_cpu_features();
    target
        .create_target_machine(
            &triple,
            cpu.to_str().unwrap_or("generic"),
            features.to_str().unwrap_or(""),
            level,
            reloc,
            CodeModel::Default,
        )
        .ok_or_else(|| Error::Llvm(format!("cannot create a target machine for {triple}")))
}

/// Translates a module in the LLVM dialect to LLVM IR, sets the host triple and data layout,
/// runs LLVM's `default<O2>` pipeline, and returns the textual IR.
pub fn translate_to_llvm_ir(module: &Module) -> Result<String> {
    let llvm = inkwell::context::Context::create();
    let machine = host_target_machine(OptimizationLevel::Default, RelocMode::Default)?;
    let ir = translate_and_optimize(module, &llvm, &machine, |_| Ok(()))?;
    let text = ir.print_to_string().to_string();
    drop(ir);
    Ok(text)
}

/// The LLVM IR of `module` (in the LLVM dialect) in `llvm`, for `machine`'s triple and data
/// layout, changed by `before_optimization` (e.g. adding wrappers), then optimized at O2 and
/// verified.
pub(crate) fn translate_and_optimize<'l>(
    module: &Module,
    llvm: &'l inkwell::context::Context,
    machine: &TargetMachine,
    before_optimization: impl FnOnce(&inkwell::module::Module<'l>) -> Result<()>,
) -> Result<inkwell::module::Module<'l>> {
    let capture = Capture::for_module(module, "<input>");
    // Safety: valid module op and LLVM context; the result (owned by us) is null on failure.
    // melior and inkwell link the same LLVM, so the context/module pointers are interchangeable.
    let raw = unsafe { mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), llvm.raw() as _) };
    let diagnostics = capture.take();
    if raw.is_null() {
        return Err(Error::mlir(
            "translation to LLVM IR failed (is the module fully in the LLVM dialect?)",
            diagnostics,
        ));
    }
    // Safety: a fresh module in `llvm`, dropped before `llvm` (the lifetime ties it).
    let ir = unsafe { inkwell::module::Module::new(raw as _) };
    ir.set_triple(&machine.get_triple());
    ir.set_data_layout(&machine.get_target_data().get_data_layout());
    before_optimization(&ir)?;
    ir.run_passes("default<O2>", machine, PassBuilderOptions::create())
        .map_err(|e| Error::Llvm(format!("LLVM O2 pipeline failed: {e}")))?;
    ir.verify().map_err(|e| Error::Llvm(format!("the optimized LLVM IR does not verify: {e}")))?;
    Ok(ir)
}

/// Lowers a copy of `module` (upstream dialects) to the LLVM dialect and returns its optimized
/// LLVM IR; `module` itself is unchanged.
pub fn compile_to_llvm_ir(module: &Module) -> Result<String> {
    let mut copy = clone_module(module);
    lower_to_llvm_dialect(&mut copy)?;
    translate_to_llvm_ir(&copy)
}

/// The module printed (e.g. after lowering, for debugging).
pub fn print_module(module: &Module) -> String {
    module
        .as_operation()
        .to_string_with_flags(OperationPrintingFlags::new())
        .unwrap_or_else(|e| format!("<cannot print: {e}>"))
}
