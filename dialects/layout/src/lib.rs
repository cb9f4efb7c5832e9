//! The `layout` MLIR dialect and the MLIR context that `layout-opt` and the passes work in.
//!
//! The dialect is defined declaratively in `layout.irdl.mlir` (embedded in the binary) and loaded
//! into each context at start-up with MLIR's IRDL loader, so MLIR itself parses and structurally
//! verifies `layout` ops and types, and a misspelled op name is an error.
//!
//! Rust API:
//! - [`types`]: [`TensorType`] (the four parameters of `!layout.tensor` as text), [`MemorySpace`],
//!   [`Target`];
//! - [`tensor_layout`]: the typed accessors into `layout-algebra` values and back —
//!   [`TensorType::resolve`] → [`TensorLayout`] (`elem: ElementType`, `space`, `pattern()`,
//!   `layout: Layout<SymExpr>` with the origin, `?` leaves as symbols `d0, d1, ...` in the one
//!   documented binding order), [`TensorType::bind`], [`TensorType::from_layout`],
//!   `layout_strings` (print `?` for non-constant leaves);
//! - [`ops`], [`ascendc_ops`]: typed views of the ops of both dialects ([`ops::LayoutOp`],
//!   [`ascendc_ops::AscendcOp`]), decoded once per op for exhaustive dispatch;
//! - [`layout_cache`]: [`LayoutCache`], parsed and resolved tensor types per uniqued type;
//! - [`legality`]: per-target hardware tables (layouts per memory space, copy pairs and their
//!   direction, cube element types).
//!
//! Only the dialects the project uses are registered (not `register_all_dialects`): this keeps
//! start-up fast and the binaries small (see `tools/layout-opt/README.md`).

pub mod ascendc_ops;
pub mod driver;
pub mod layout_cache;
pub mod legality;
pub mod ops;
pub mod tensor_layout;
pub mod types;

#[cfg(test)]
mod doc_sync;

use melior::{
    dialect::{DialectHandle, DialectRegistry},
    ir::Module,
    utility::load_irdl_dialects,
    Context, StringRef,
};

pub use layout_cache::LayoutCache;
pub use tensor_layout::{LayoutParam, LayoutTypeError, TensorLayout};
pub use types::{MemorySpace, Target, TensorType};

/// The IRDL definition of the `layout` dialect.
pub const IRDL_SOURCE: &str = include_str!("../layout.irdl.mlir");

/// The name under which diagnostics located in the embedded IRDL source are reported.
pub const IRDL_BUFFER_NAME: &str = "dialects/layout/layout.irdl.mlir";

/// The IRDL definition of the `ascendc` target dialect (issue 6), loaded next to `layout`.
pub const ASCENDC_IRDL_SOURCE: &str = include_str!("../../ascendc/ascendc.irdl.mlir");

/// Name of the module attribute that carries the target (`#layout.target<"a2">`).
pub const TARGET_ATTRIBUTE: &str = "layout.target";

/// The dialects a `layout` program may use besides `layout` itself (plus `builtin`, always
/// present). `irdl` is needed only to read the dialect definition.
pub fn dialect_registry() -> DialectRegistry {
    let registry = DialectRegistry::new();
    let handles = [
        DialectHandle::func(),
        DialectHandle::arith(),
        DialectHandle::scf(),
        DialectHandle::memref(),
        DialectHandle::cf(),
        // Safety: the C API returns valid static handles.
        unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__index__()) },
        unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__irdl__()) },
    ];
    for handle in handles {
        handle.insert_dialect(&registry);
    }
    registry
}

/// Why a dialect could not be loaded into a context. Both can only come from a broken IRDL file
/// embedded at build time, so they name the dialect rather than a source location.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DialectLoadError {
    #[error("the embedded IRDL definition of the {dialect} dialect does not parse")]
    IrdlParse { dialect: &'static str },
    #[error("the embedded IRDL definition of the {dialect} dialect failed to load")]
    IrdlLoad { dialect: &'static str },
}

/// Creates a single-threaded context with the project's dialects registered and the `layout`
/// dialect loaded. Single-threaded: deterministic diagnostic order and faster start-up; our
/// inputs are small.
pub fn create_context() -> Result<Context, DialectLoadError> {
    let context = Context::new_with_registry(&dialect_registry(), false);
    load_layout_dialect(&context)?;
    load_ascendc_dialect(&context)?;
    Ok(context)
}

/// Loads the `layout` dialect from the embedded IRDL definition into `context` (which must have
/// the `irdl` dialect registered). The IRDL module is only needed while loading.
pub fn load_layout_dialect(context: &Context) -> Result<(), DialectLoadError> {
    load_irdl(context, IRDL_SOURCE, "layout")
}

/// Loads the `ascendc` target dialect (`dialects/ascendc/ascendc.irdl.mlir`) into `context`.
pub fn load_ascendc_dialect(context: &Context) -> Result<(), DialectLoadError> {
    load_irdl(context, ASCENDC_IRDL_SOURCE, "ascendc")
}

/// Parses the IRDL `source` of `dialect` and registers what it defines in `context`.
fn load_irdl(context: &Context, source: &str, dialect: &'static str) -> Result<(), DialectLoadError> {
    let module = parse_source(context, source).ok_or(DialectLoadError::IrdlParse { dialect })?;
    if !load_irdl_dialects(&module) {
        return Err(DialectLoadError::IrdlLoad { dialect });
    }
    Ok(())
}

/// Parses a module from a file; locations carry the file name as given, so diagnostics read
/// `path:line:col`. Errors are reported through the context's diagnostic handlers.
pub fn parse_file<'c>(context: &'c Context, path: &str) -> Option<Module<'c>> {
    let path = StringRef::new(path);
    // Safety: the context and string are valid for the call; a null module means failure.
    unsafe { Module::from_option_raw(mlir_sys::mlirModuleCreateParseFromFile(context.to_raw(), path.to_raw())) }
}

/// Parses a module from text. MLIR names such a buffer `-` in locations; callers that want
/// `file:line:col` map that name to their own (see `layout-opt`).
pub fn parse_source<'c>(context: &'c Context, source: &str) -> Option<Module<'c>> {
    let source = StringRef::new(source);
    // Safety: as above.
    unsafe { Module::from_option_raw(mlir_sys::mlirModuleCreateParse(context.to_raw(), source.to_raw())) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::{operation::OperationLike, BlockLike, ValueLike};

    #[test]
    fn context_loads_layout_dialect() {
        let context = create_context().expect("context");
        assert!(context.is_registered_operation("layout.view"));
        assert!(context.is_registered_operation("layout.matmul"));
        assert!(!context.is_registered_operation("layout.lod"));
    }

    #[test]
    fn a_broken_irdl_source_is_a_typed_error() {
        let context = Context::new_with_registry(&dialect_registry(), false);
        let err = load_irdl(&context, "irdl.dialect @broken {", "broken").unwrap_err();
        assert_eq!(err, DialectLoadError::IrdlParse { dialect: "broken" });
        assert_eq!(err.to_string(), "the embedded IRDL definition of the broken dialect does not parse");
    }

    #[test]
    fn parses_and_reads_types() {
        let context = create_context().expect("context");
        let module = parse_source(
            &context,
            r#"module attributes {layout.target = #layout.target<"a5">} {
                 %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
               }"#,
        )
        .expect("parse");
        let top = module.as_operation();
        let target = top.attribute(TARGET_ATTRIBUTE).expect("target");
        assert_eq!(types::target_name(target).as_deref(), Some("a5"));
        let op = module.body().first_operation().expect("op");
        let ty = op.result(0).expect("result").r#type();
        let t = TensorType::from_type(ty).expect("tensor type");
        assert_eq!(t.elem, "f16");
        assert_eq!(t.space, "l1");
        assert_eq!(t.layout, "NZ");
        assert_eq!(t.origin, "(128,64)");
        let back = t.to_type(&context).expect("rebuild");
        assert_eq!(back, ty);
    }
}
