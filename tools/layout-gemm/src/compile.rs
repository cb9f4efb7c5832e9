//! The generated kernel through the compiler: verified, and lowered when AscendC is asked for.

use crate::args::Emit;
use crate::error::GemmError;
use layout_runtime::diagnostics::{Capture, Sources, UNNAMED_INPUT};
use melior::ir::Module;
use melior::pass::PassManager;
use std::path::Path;

/// `text` verified (`layout-verify`), double-buffered by `layout-multi-buffer` when `stages` is
/// 2 (and verified again), then printed as `emit` asks; with `project` = (kernel name, DIR), the
/// lowered kernel's CANN project is also written to DIR (`ascendc_emit::project`).
pub fn checked(text: &str, stages: i64, emit: Emit, project: Option<(&str, &Path)>) -> Result<String, GemmError> {
    let context = layout_runtime::create_context()
        .map_err(|e| GemmError::Kernel { stage: "load the dialects", diags: e.to_string() })?;
    let capture = Capture::new(&context, UNNAMED_INPUT);
    let kernel_error = |stage: &'static str, capture: &Capture| {
        let mut sources = Sources::default();
        sources.add(UNNAMED_INPUT, text);
        GemmError::Kernel { stage, diags: sources.render_all(&capture.take()) }
    };
    let Some(mut module) = Module::parse(&context, text) else { return Err(kernel_error("parse", &capture)) };
    let run = |module: &mut Module, pass: melior::pass::Pass| {
        let pm = PassManager::new(&context);
        pm.add_pass(pass);
        pm.run(module).is_ok() && !capture.has_error()
    };
    if !run(&mut module, layout_passes::verify::create()) {
        return Err(kernel_error("verify", &capture));
    }
    if stages == 2 {
        if !run(&mut module, layout_passes::multi_buffer::create()) {
            return Err(kernel_error("double-buffer", &capture));
        }
        if !run(&mut module, layout_passes::verify::create()) {
            return Err(kernel_error("verify after layout-multi-buffer", &capture));
        }
    }
    let mlir = (emit == Emit::Mlir).then(|| {
        if stages == 1 {
            return text.to_string();
        }
        // The pass's output, under the generator's header comments.
        let header: String = text.lines().take_while(|l| l.starts_with("//")).map(|l| format!("{l}\n")).collect();
        format!("{header}{}\n", module.as_operation())
    });
    if let (Some(out), None) = (&mlir, project) {
        return Ok(out.clone());
    }
    if !run(&mut module, layout_passes::lower_to_ascendc::create()) {
        return Err(kernel_error("lower to AscendC", &capture));
    }
    let rendered = |stage: &'static str| {
        move |d| {
            let mut sources = Sources::default();
            sources.add(UNNAMED_INPUT, text);
            GemmError::Kernel { stage, diags: sources.render_all(&[d]) }
        }
    };
    let print_error = rendered("print");
    if let Some((name, dir)) = project {
        ascendc_emit::project::write(&module, name, dir).map_err(rendered("write its CANN project"))?;
    }
    match (emit, mlir) {
        (_, Some(out)) => Ok(out),
        (Emit::Ascendc, None) => ascendc_emit::emit_cpp(&module).map_err(print_error),
        (_, None) => ascendc_emit::emit_llvm_ir(&module).map_err(print_error),
    }
}
