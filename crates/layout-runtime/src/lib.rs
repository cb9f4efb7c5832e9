//! The CPU runtime of layout-opt: everything between a kernel in upstream MLIR dialects
//! (`func`, `scf`, `arith`, `memref`, `affine`, `index`, `cf`) and numbers in host memory.
//!
//! - [`create_context`]: the `layout-dialect` context plus what lowering and translation need.
//! - [`lower_layout_ops`] (module [`layout_lowering`]): **the hook for the layout-op lowering**
//!   (`layout-verify` + `layout-lower-to-loops` + the `layout-simplify-offsets` clean-up).
//! - [`self_check`] (module [`self_check`]): every lowered address compared with the algebra.
//! - [`address_proof`]: the same comparison proven with z3 for every size at once.
//! - [`lower_to_llvm_dialect`], [`translate_to_llvm_ir`], [`compile_to_llvm_ir`]: to the LLVM
//!   dialect, then LLVM IR optimized at O2 (module [`lower`]).
//! - [`Jit`]: compiled kernels with signature-checked calls on [`layout_npy::Array`]s (module
//!   [`jit`]; objects from `codegen`, linked by `orc`, kept by [`object_cache`] on disk).
//! - [`pack`]: host-side packing ND ⇄ frame layouts (NZ, ...) with JIT-compiled load kernels.
//! - [`blocks`]: multi-core launches (`blockDim` calls over one GM image, seeded order).
//! - [`diagnostics`]: MLIR diagnostics as located data, rendered `file:line:col: error: ...`.
//!
//! Every MLIR object here is `!Send`: use one context per thread.

pub mod address_proof;
pub mod blocks;
mod codegen;
pub mod diagnostics;
pub mod jit;
pub mod layout_lowering;
pub mod lower;
pub mod object_cache;
mod orc;
pub mod pack;
pub mod self_check;

pub use diagnostics::{Capture, Diag, Position, Severity, Sources};
pub use jit::{Arg, Jit, ParamType, Scalar, Signature, StridedMemRef};
pub use layout_lowering::{lower_layout_ops, lower_layout_ops_with};
pub use layout_npy::{Array, Data, ElemType};
pub use lower::{compile_to_llvm_ir, lower_to_llvm_dialect, translate_to_llvm_ir, PIPELINE};
pub use object_cache::{CacheOutcome, ObjectCache};
pub use pack::{PackError, PackSpec, Packer};
pub use self_check::{self_check, SelfCheckReport};

use melior::{
    dialect::{DialectHandle, DialectRegistry},
    Context,
};

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// MLIR reported problems (parse, verification, a pass, translation); located when MLIR
    /// knows where.
    #[error("{what}{}", render_inline(.diagnostics))]
    Mlir { what: String, diagnostics: Vec<Diag> },
    /// A call does not match the function's MLIR signature, or the function cannot be called.
    #[error("{0}")]
    Call(String),
    /// The project's dialects could not be loaded into a new context (a broken embedded IRDL file).
    #[error(transparent)]
    Dialect(#[from] layout_dialect::DialectLoadError),
    /// The LLVM side (target machine, optimization, execution engine) failed.
    #[error("{0}")]
    Llvm(String),
    /// A run-time contract check of the kernel failed (`file:line:col: error: ...`, see
    /// `layout_passes::lower_to_loops::guard`); the accesses it guards were skipped.
    #[error("{0}")]
    Contract(String),
    /// The self-check found a lowered address that differs from the algebra's `crd_to_offset`.
    #[error("{0}")]
    AddressMismatch(Box<AddressMismatch>),
    /// The self-check could not evaluate the layout or domain of `tensor` for one instance.
    #[error("self-check: {tensor}: {message}")]
    SelfCheck { tensor: String, message: String },
}

/// A lowered address of `tensor` that differs from the algebra's (`params`: the parameter
/// values, ` [name=value, ...]` or empty). Boxed in [`Error`]: it is large and rare.
#[derive(Debug)]
pub struct AddressMismatch {
    pub tensor: String,
    pub coordinate: String,
    pub local: Vec<usize>,
    pub params: String,
    pub lowered: i64,
    pub expected: i64,
    pub layout: String,
}

impl std::fmt::Display for AddressMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let AddressMismatch { tensor, coordinate, local, params, lowered, expected, layout } = self;
        write!(
            f,
            "self-check: {tensor}: at coordinate {coordinate} (local {local:?}){params}: the lowered address is {lowered}, the algebra's crd_to_offset is {expected} (layout {layout})"
        )
    }
}

fn render_inline(diagnostics: &[Diag]) -> String {
    diagnostics.iter().map(|d| format!("\n{d}")).collect()
}

impl Error {
    pub(crate) fn mlir(what: impl Into<String>, diagnostics: Vec<Diag>) -> Error {
        Error::Mlir { what: what.into(), diagnostics }
    }

    /// The located diagnostics, if any (for `file:line:col` rendering with [`Sources`]).
    pub fn diagnostics(&self) -> &[Diag] {
        match self {
            Error::Mlir { diagnostics, .. } => diagnostics,
            _ => &[],
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The dialects the runtime adds to the `layout-dialect` context: `affine` (kernels may use it)
/// and `llvm` (the target of the lowering).
pub fn runtime_dialect_registry() -> DialectRegistry {
    let registry = DialectRegistry::new();
    // Safety: the C API returns valid static handles.
    for handle in unsafe {
        [
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__affine__()),
            DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__llvm__()),
        ]
    } {
        handle.insert_dialect(&registry);
    }
    registry
}

// The MLIR C API has no per-dialect "register LLVM IR translation" function; its only one,
// `mlirRegisterAllLLVMTranslations`, lives in the object file that also registers every dialect
// and pass, which would link all of MLIR into our binaries. We call the two C++ functions we
// need directly (Itanium-mangled names; `MLIRContext&` is passed as a pointer). These symbols
// are in libMLIRBuiltinToLLVMIRTranslation.a / libMLIRLLVMToLLVMIRTranslation.a of LLVM 22.
unsafe extern "C" {
    #[link_name = "_ZN4mlir33registerBuiltinDialectTranslationERNS_11MLIRContextE"]
    fn register_builtin_dialect_translation(context: *mut std::ffi::c_void);
    #[link_name = "_ZN4mlir30registerLLVMDialectTranslationERNS_11MLIRContextE"]
    fn register_llvm_dialect_translation(context: *mut std::ffi::c_void);
}

/// Makes `context` able to lower and translate: adds the runtime dialects and registers the
/// builtin and LLVM dialect translations to LLVM IR. Idempotent.
pub fn prepare_context(context: &Context) {
    context.append_dialect_registry(&runtime_dialect_registry());
    // Safety: a valid context; the functions only add interfaces to its registry.
    unsafe {
        register_builtin_dialect_translation(context.to_raw().ptr);
        register_llvm_dialect_translation(context.to_raw().ptr);
    }
}

/// A single-threaded context with the `layout` dialect (so kernels that still contain layout
/// ops parse), the upstream dialects of kernels, and the LLVM dialect and translations.
pub fn create_context() -> Result<Context> {
    let context = layout_dialect::create_context()?;
    prepare_context(&context);
    Ok(context)
}
