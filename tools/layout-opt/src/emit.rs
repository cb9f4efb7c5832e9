//! `--emit=KIND`: what `layout-opt` prints after the passes. Adding an output kind is one
//! variant and one row of [`KINDS`] (plus its arm in `main.rs`).

use melior::ir::Module;

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
    pub fn parse(text: &str) -> Result<Emit, String> {
        KINDS.iter().find(|(name, _, _)| *name == text).map(|(_, kind, _)| *kind).ok_or_else(|| {
            let names: Vec<&str> = KINDS.iter().map(|(n, _, _)| *n).collect();
            format!("--emit: unknown kind '{text}' (expected one of: {})", names.join(", "))
        })
    }

    /// The `--help` lines.
    pub fn help() -> String {
        KINDS.iter().map(|(name, _, help)| format!("                                  {name:<8} {help}\n")).collect()
    }
}

/// The O2 LLVM IR of `module` (which may still contain layout ops); diagnostics without a file
/// name (a `--split-input-file` chunk) are shown in `display`.
pub fn llvm_ir(module: &mut Module, display: &str) -> Result<String, String> {
    layout_runtime::layout_lowering::lower_layout_ops_named(module, display).map_err(|e| e.to_string())?;
    layout_runtime::compile_to_llvm_ir(module).map_err(|e| e.to_string())
}

/// `--emit=ascendc` / `--emit=ascendc-llvm` of a module lowered by `--layout-lower-to-ascendc`.
pub fn ascendc(module: &Module, kind: Emit) -> Result<String, String> {
    match kind {
        Emit::AscendCLlvm => ascendc_emit::emit_llvm_ir(module),
        _ => ascendc_emit::emit_cpp(module),
    }
}
