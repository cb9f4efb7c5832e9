//! `--emit=KIND`: what `layout-opt` prints after the passes. Adding an output kind is one
//! variant and one row of [`KINDS`] (plus its arm in `main.rs`).

use crate::error::OptError;
use layout_runtime::diagnostics::{position_of, UNNAMED_INPUT};
use layout_runtime::{Diag, Position};
use melior::ir::{
    operation::{OperationLike, OperationPrintingFlags},
    Module,
};
use std::ffi::c_void;

/// An output kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Emit {
    /// The module after the passes, as MLIR text (the default).
    #[default]
    Mlir,
    /// Lower the layout ops (layout-lower-to-loops, which runs layout-verify's checks), run the runtime's LLVM
    /// pipeline and print the O2-optimized LLVM IR (`layout_runtime::translate_to_llvm_ir`).
    Llvm,
    /// AscendC C++ of the kernels after `--layout-lower-to-ascendc` (`ascendc_emit::emit_cpp`).
    AscendC,
    /// LLVM IR of the same kernels, each intrinsic a call to the CPU model's C ABI
    /// (`ascendc_emit::emit_llvm_ir`).
    AscendCLlvm,
}

/// (name, kind, help) of every output kind.
pub const KINDS: &[(&str, Emit, &str)] = &[
    ("mlir", Emit::Mlir, "the module after the passes (default)"),
    ("llvm", Emit::Llvm, "lower layout ops to loops, then to LLVM; print O2 LLVM IR"),
    ("ascendc", Emit::AscendC, "AscendC C++ kernel (after --layout-lower-to-ascendc)"),
    (
        "ascendc-llvm",
        Emit::AscendCLlvm,
        "LLVM IR calling the AscendC CPU model's C ABI (after --layout-lower-to-ascendc)",
    ),
];

impl Emit {
    pub fn parse(text: &str) -> Result<Emit, OptError> {
        KINDS.iter().find(|(name, _, _)| *name == text).map(|(_, kind, _)| *kind).ok_or_else(|| {
            let names: Vec<&str> = KINDS.iter().map(|(n, _, _)| *n).collect();
            OptError::UnknownEmit { kind: text.to_string(), known: names.join(", ") }
        })
    }
}

/// The O2 LLVM IR of `module` (which may still contain layout ops). On failure, the located
/// diagnostics of the lowering (one per cause, without the summary line), or one error at the
/// module.
pub fn llvm_ir(module: &mut Module) -> Result<String, Vec<Diag>> {
    let at_module = module_position(module);
    let diagnostics = |error: layout_runtime::Error| {
        let mut diags = error.diagnostics().to_vec();
        if !diags.iter().any(Diag::is_error) {
            let message = match &error {
                layout_runtime::Error::Mlir { what, .. } => what.clone(),
                other => other.to_string(),
            };
            diags.push(Diag::error(at_module.clone(), message));
        }
        diags
    };
    layout_runtime::lower_layout_ops(module).map_err(diagnostics)?;
    layout_runtime::compile_to_llvm_ir(module).map_err(diagnostics)
}

/// `--emit=ascendc` / `--emit=ascendc-llvm` of a module lowered by `--layout-lower-to-ascendc`;
/// an error is located at the op that cannot be emitted, else at the module. When the
/// pipeline had no lowering (`lowered` false), an error about a layout op names the flag to add.
pub fn ascendc(module: &Module, kind: Emit, lowered: bool) -> Result<String, Vec<Diag>> {
    let emitted = match kind {
        Emit::AscendCLlvm => ascendc_emit::emit_llvm_ir(module),
        _ => ascendc_emit::emit_cpp(module),
    };
    emitted.map_err(|mut diag| {
        if !lowered && diag.message.contains("cannot emit `layout.") {
            diag.message.push_str(&format!(
                "; add --{} before --emit to lower the layout ops",
                crate::pipeline::LOWER_TO_ASCENDC
            ));
        }
        vec![diag]
    })
}

/// The MLIR text of `module`, which the caller has verified (the parser verifies, and the
/// pipeline verifies after its last pass): the printer is told so, since by default it runs the
/// whole verifier again to choose between the custom and the generic form (a fifth of the
/// default pipeline's time on the GEMMs). The pieces are collected as bytes and checked as
/// UTF-8 once, not per piece.
pub fn mlir(module: &Module, flags: OperationPrintingFlags) -> Result<String, std::string::FromUtf8Error> {
    unsafe extern "C" fn collect(piece: mlir_sys::MlirStringRef, data: *mut c_void) {
        // Safety: `data` is the `Vec<u8>` below; MLIR passes a valid (data, length) slice.
        let bytes = unsafe { &mut *(data as *mut Vec<u8>) };
        bytes.extend_from_slice(unsafe { std::slice::from_raw_parts(piece.data as *const u8, piece.length) });
    }
    let mut bytes = Vec::new();
    // Safety: live flags and operation; `collect` only appends to `bytes` during the call.
    unsafe {
        mlir_sys::mlirOpPrintingFlagsAssumeVerified(flags.to_raw());
        mlir_sys::mlirOperationPrintWithFlags(
            module.as_operation().to_raw(),
            flags.to_raw(),
            Some(collect),
            &mut bytes as *mut Vec<u8> as *mut c_void,
        );
    }
    String::from_utf8(bytes)
}

fn module_position(module: &Module) -> Option<Position> {
    position_of(module.as_operation().location(), UNNAMED_INPUT)
}

/// `diag` as the tool prints it: positions of a module parsed from text named `file`, and an
/// unlocated error (or one at MLIR's `0:0`, the module of an empty file) put at the start of its
/// input, `file:LINE:1` with LINE the first line of the `--split-input-file` chunk.
pub fn locate(diag: Diag, file: &str, first_line: usize) -> Diag {
    let mut diag = diag.name_input(file);
    if diag.position.as_ref().is_none_or(|p| p.line == 0) {
        diag.position = Some(Position { file: file.to_string(), line: first_line, column: 1 });
    }
    diag
}
