//! The compiler behind the kernel DSL (`layout_opt.dsl`): MLIR text in, located diagnostics,
//! printed IR, AscendC C++ or output arrays out. The DSL generates the layout dialect as text
//! with `loc("file.py":line:col)` locations, so every diagnostic here names a Python line.
//!
//! Each call parses the text into a fresh MLIR context on a thread of its own (MLIR objects
//! are `!Send`; the thread has the command-line tools' stack, `driver::STACK_BYTES`), runs the
//! same library functions as `layout-opt` and `layout-run` (`layout_passes::verify`,
//! `layout_runtime`, `ascendc_emit::run`), and hands plain data back.

mod gemm;
mod run;

use layout_runtime::{diagnostics::UNNAMED_INPUT, Capture, Diag, Sources};
use melior::ir::{operation::OperationLike, operation::OperationPrintingFlags, Module};
use melior::pass::PassManager;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pub(crate) use run::Input;

create_exception!(
    layout_opt,
    CompileError,
    PyValueError,
    "A kernel the compiler rejects: the message is the located diagnostics, `file.py:line:col: error: ...`."
);

/// Why a compiler call failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CompilerError {
    /// Located diagnostics, rendered with the source line (the Python file is read from disk).
    #[error("{0}")]
    Diagnostics(String),
    /// Anything without a location: a bad argument, a context that cannot be created.
    #[error("{0}")]
    Usage(String),
    #[error("internal error in the compiler (please report the kernel): {0}")]
    Internal(String),
}

impl From<CompilerError> for PyErr {
    fn from(e: CompilerError) -> PyErr {
        CompileError::new_err(e.to_string())
    }
}

pub(crate) type Result<T, E = CompilerError> = std::result::Result<T, E>;

/// `diags` rendered `file:line:col: error: message` with the source line and a caret.
pub(crate) fn render(diags: &[Diag]) -> CompilerError {
    CompilerError::Diagnostics(Sources::default().render_all(diags))
}

/// Runs `body` on a driver thread (see the preamble); a panic becomes [`CompilerError::Internal`].
pub(crate) fn on_driver_thread<T: Send + 'static>(body: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    let handle = std::thread::Builder::new()
        .stack_size(layout_dialect::driver::STACK_BYTES)
        .spawn(move || std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)))
        .map_err(|e| CompilerError::Internal(format!("cannot start the compiler thread: {e}")))?;
    match handle.join() {
        Ok(Ok(result)) => result,
        Ok(Err(panic)) | Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(CompilerError::Internal(what))
        }
    }
}

/// Parses `text` in `context`; parse errors are located diagnostics.
pub(crate) fn parse<'c>(context: &'c melior::Context, text: &str) -> Result<Module<'c>> {
    let capture = Capture::new(context, UNNAMED_INPUT);
    match layout_dialect::parse_source(context, text) {
        Some(module) => Ok(module),
        None => Err(render(&capture.take())),
    }
}

pub(crate) fn context() -> Result<melior::Context> {
    layout_runtime::create_context().map_err(|e| CompilerError::Usage(e.to_string()))
}

/// `layout-verify` on `text`: the rendered errors, empty when the kernel is valid.
#[pyfunction]
fn verify(text: String) -> PyResult<String> {
    Ok(on_driver_thread(move || {
        let context = context()?;
        let module = match parse(&context, &text) {
            Ok(module) => module,
            Err(CompilerError::Diagnostics(rendered)) => return Ok(rendered),
            Err(other) => return Err(other),
        };
        let capture = Capture::for_module(&module, UNNAMED_INPUT);
        let manager = PassManager::new(&context);
        manager.add_pass(layout_passes::verify::create());
        let mut module = module;
        let ok = manager.run(&mut module).is_ok();
        let diags = capture.take();
        if ok && !diags.iter().any(Diag::is_error) {
            return Ok(String::new());
        }
        Ok(Sources::default().render_all(&diags))
    })?)
}

/// The module printed back: MLIR's pretty form, or with `generic` the generic form; with
/// `locations` the `loc(...)` of every op.
#[pyfunction]
#[pyo3(signature = (text, generic=false, locations=false))]
fn print_module(text: String, generic: bool, locations: bool) -> PyResult<String> {
    Ok(on_driver_thread(move || {
        let context = context()?;
        let module = parse(&context, &text)?;
        let mut flags = OperationPrintingFlags::new().enable_debug_info(locations, false);
        if generic {
            flags = flags.print_generic_operation_form();
        }
        module.as_operation().to_string_with_flags(flags).map_err(|e| CompilerError::Internal(e.to_string()))
    })?)
}

/// The AscendC C++ of the kernel (`layout-lower-to-ascendc`, then `--emit=ascendc`).
#[pyfunction]
fn ascendc(text: String) -> PyResult<String> {
    Ok(on_driver_thread(move || {
        let context = context()?;
        let mut module = parse(&context, &text)?;
        ascendc_emit::run::lower_to_ascendc(&mut module).map_err(run::runtime_error)?;
        ascendc_emit::emit_cpp(&module).map_err(|d| render(&[d]))
    })?)
}

/// Runs `entry` of `text` on `backend` (`loops`, `ascendc-cpp`, `ascendc-llvm`) with the
/// sanitizer checks `sanitize` (0: none); returns the bytes of every memref argument after the
/// call, in argument order.
#[pyfunction]
#[pyo3(signature = (text, entry, backend, sanitize, inputs, block_dim = 1, seed = 0))]
#[allow(clippy::too_many_arguments)]
fn run_kernel(
    py: Python<'_>,
    text: String,
    entry: String,
    backend: String,
    sanitize: u32,
    inputs: Vec<Input>,
    block_dim: u32,
    seed: u64,
) -> PyResult<Vec<pyo3::Py<pyo3::types::PyBytes>>> {
    if block_dim == 0 {
        return Err(CompileError::new_err("block_dim must be at least 1"));
    }
    let launch = ascendc_emit::run::Launch { block_dim, seed };
    let outputs =
        py.detach(move || on_driver_thread(move || run::run(&text, &entry, &backend, sanitize, launch, inputs)))?;
    Ok(outputs.iter().map(|bytes| pyo3::types::PyBytes::new(py, bytes).unbind()).collect())
}

/// The MLIR of a generated GEMM (`layout_opt.gemm`; crates/gemm-gen).
#[pyfunction]
#[pyo3(signature = (name, sizes, dtype, out, a, b, target, tiles, swizzle, relu, scale, split_k = 1))]
#[allow(clippy::too_many_arguments)]
fn gemm_source(
    py: Python<'_>,
    name: String,
    sizes: [Option<i64>; 3],
    dtype: String,
    out: Option<String>,
    a: String,
    b: String,
    target: String,
    tiles: Option<[i64; 5]>,
    swizzle: Option<(i64, String)>,
    relu: bool,
    scale: Option<f32>,
    split_k: i64,
) -> PyResult<String> {
    let request = gemm::Request { name, sizes, dtype, out, a, b, target, tiles, swizzle, relu, scale, split_k };
    Ok(py.detach(move || on_driver_thread(move || gemm::source(&request)))?)
}

/// The sanitizer's checks of a `layout-run --sanitize=` list (`memcheck,initcheck,synccheck`).
#[pyfunction]
fn sanitizer_checks(list: &str) -> PyResult<u32> {
    ascendc_emit::run::checks::parse(list).map_err(|e| CompileError::new_err(e.to_string()))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CompileError", m.py().get_type::<CompileError>())?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(print_module, m)?)?;
    m.add_function(wrap_pyfunction!(ascendc, m)?)?;
    m.add_function(wrap_pyfunction!(run_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(gemm_source, m)?)?;
    m.add_function(wrap_pyfunction!(sanitizer_checks, m)?)?;
    m.add("SANITIZE_ALL", ascendc_emit::run::checks::ALL)?;
    Ok(())
}
