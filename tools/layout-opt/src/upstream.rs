//! The upstream MLIR passes `layout-opt` registers (only these: registering everything would
//! link all of MLIR's passes and dialects into the binary).

/// (pipeline name, one-line description, registration function)
pub const PASSES: &[(&str, &str, unsafe extern "C" fn())] = &[
    ("canonicalize", "Canonicalize operations (upstream)", mlir_sys::mlirRegisterTransformsCanonicalizer),
    ("cse", "Eliminate common sub-expressions (upstream)", mlir_sys::mlirRegisterTransformsCSE),
    ("sccp", "Sparse conditional constant propagation (upstream)", mlir_sys::mlirRegisterTransformsSCCP),
    ("symbol-dce", "Eliminate dead symbols (upstream)", mlir_sys::mlirRegisterTransformsSymbolDCE),
    ("inline", "Inline function calls (upstream)", mlir_sys::mlirRegisterTransformsInliner),
    (
        "loop-invariant-code-motion",
        "Hoist loop invariant operations out of loops (upstream)",
        mlir_sys::mlirRegisterTransformsLoopInvariantCodeMotion,
    ),
    (
        "control-flow-sink",
        "Sink operations into conditional blocks (upstream)",
        mlir_sys::mlirRegisterTransformsControlFlowSink,
    ),
    ("remove-dead-values", "Remove dead values (upstream)", mlir_sys::mlirRegisterTransformsRemoveDeadValues),
    (
        "strip-debuginfo",
        "Strip debug info from all operations (upstream)",
        mlir_sys::mlirRegisterTransformsStripDebugInfo,
    ),
    (
        "topological-sort",
        "Sort regions without SSA dominance in topological order (upstream)",
        mlir_sys::mlirRegisterTransformsTopologicalSort,
    ),
];

/// Registers the passes above in MLIR's global registry (once per process).
pub fn register() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for (_, _, register) in PASSES {
            // Safety: MLIR registration functions, called once each.
            unsafe { register() };
        }
    });
}

pub fn is_upstream(name: &str) -> bool {
    PASSES.iter().any(|(n, _, _)| *n == name)
}
