//! Running a kernel on the CPU: the wiring of `layout-run` (tools/layout-run/src/main.rs) on
//! in-memory arrays instead of .npy files. Loops: `layout_runtime::lower_layout_ops_with` +
//! the JIT; AscendC: `ascendc_emit::run` (g++ and the CPU model, or the LLVM form + JIT).

use super::{context, parse, render, CompilerError, Result};
use ascendc_emit::run::{self as ascendc_run, checks, Backend};
use layout_runtime::{Arg, Array, Data, ElemType, Error, Jit, ParamType, Signature};
use pyo3::FromPyObject;

/// One argument from Python: an array as (element type name, shape, little-endian bytes), an
/// integer (index or iN parameter) or a float.
#[derive(FromPyObject)]
pub(crate) enum Input {
    Array((String, Vec<usize>, Vec<u8>)),
    Int(i64),
    Float(f64),
}

/// A runtime or lowering error: located diagnostics where it has them.
pub(crate) fn runtime_error(e: Error) -> CompilerError {
    match e {
        // Already `file:line:col: error: ...`.
        Error::Contract(text) => CompilerError::Diagnostics(format!("{text}\n")),
        e if !e.diagnostics().is_empty() => render(e.diagnostics()),
        other => CompilerError::Usage(other.to_string()),
    }
}

/// The host arrays (None at scalar positions) of `inputs`, checked against `signature`.
fn arrays_of(signature: &Signature, inputs: &[Input]) -> Result<Vec<Option<Array>>> {
    if inputs.len() != signature.params.len() {
        return Err(CompilerError::Usage(format!(
            "{signature} takes {} arguments, got {}",
            signature.params.len(),
            inputs.len()
        )));
    }
    let mut arrays = Vec::new();
    for (k, (param, input)) in signature.params.iter().zip(inputs).enumerate() {
        arrays.push(match (param, input) {
            (ParamType::MemRef { elem, shape, text, .. }, Input::Array((name, dims, bytes))) => {
                let held = ElemType::from_name(name)
                    .ok_or_else(|| CompilerError::Usage(format!("argument #{k}: unknown element type '{name}'")))?;
                if held != *elem {
                    return Err(CompilerError::Usage(format!("argument #{k} ({text}): the array holds {name}")));
                }
                let fits = shape.len() == dims.len() && shape.iter().zip(dims).all(|(w, g)| w.is_none_or(|w| w == *g));
                if !fits {
                    return Err(CompilerError::Usage(format!("argument #{k} ({text}): the array has shape {dims:?}")));
                }
                let data = Data::from_bytes(held, bytes, false);
                Some(Array::new(dims.clone(), data).map_err(|e| CompilerError::Usage(format!("argument #{k}: {e}")))?)
            }
            (ParamType::MemRef { text, .. }, _) => {
                return Err(CompilerError::Usage(format!("argument #{k} ({text}) needs an array")))
            }
            (_, Input::Array(_)) => return Err(CompilerError::Usage(format!("argument #{k} ({param}) is a scalar"))),
            _ => None,
        });
    }
    Ok(arrays)
}

/// The call's arguments: arrays by reference, scalars by the parameter's kind.
fn call_args<'a>(signature: &Signature, arrays: &'a mut [Option<Array>], inputs: &[Input]) -> Vec<Arg<'a>> {
    arrays
        .iter_mut()
        .zip(inputs)
        .zip(&signature.params)
        .map(|((array, input), param)| match (array, input) {
            (Some(array), _) => Arg::MemRef(array),
            (None, Input::Int(v)) if *param == ParamType::Index => Arg::Index(*v),
            (None, Input::Int(v)) if matches!(param, ParamType::F32 | ParamType::F64) => Arg::Float(*v as f64),
            (None, Input::Int(v)) => Arg::Int(*v),
            (None, Input::Float(v)) => Arg::Float(*v),
            (None, Input::Array(_)) => unreachable!("arrays_of pairs every array with a memref"),
        })
        .collect()
}

/// Runs `entry` on `launch.block_dim` blocks (in the launch's seeded order, over one GM image);
/// the bytes of every memref argument afterwards.
pub(crate) fn run(
    text: &str,
    entry: &str,
    backend: &str,
    sanitize: u32,
    launch: ascendc_run::Launch,
    inputs: Vec<Input>,
) -> Result<Vec<Vec<u8>>> {
    let backend = Backend::parse(backend)
        .ok_or_else(|| CompilerError::Usage(format!("unknown back end '{backend}' ({})", Backend::NAMES)))?;
    if backend == Backend::Loops && sanitize & checks::SYNC != 0 && sanitize != checks::ALL {
        return Err(CompilerError::Usage(
            "synccheck checks the AscendC pipes: use it with backend='ascendc-cpp' or 'ascendc-llvm'".into(),
        ));
    }
    let context = context()?;
    let mut module = parse(&context, text)?;
    let signatures = layout_runtime::jit::signatures(&module);
    let signature = signatures
        .get(entry)
        .cloned()
        .ok_or_else(|| CompilerError::Usage(format!("no function @{entry} in the module")))?;
    let mut arrays = arrays_of(&signature, &inputs)?;
    match backend {
        Backend::Loops => {
            layout_runtime::lower_layout_ops_with(&mut module, sanitize & checks::INIT != 0).map_err(runtime_error)?;
            let signatures = layout_runtime::jit::signatures(&module);
            let mut lowered = layout_runtime::lower::clone_module(&module);
            layout_runtime::lower_to_llvm_dialect(&mut lowered).map_err(runtime_error)?;
            let jit = Jit::from_llvm_dialect(&lowered, signatures).map_err(runtime_error)?;
            let mut args = call_args(&signature, &mut arrays, &inputs);
            layout_runtime::blocks::call_blocks(&jit, entry, &mut args, launch.block_dim, launch.seed)
                .map_err(runtime_error)?;
        }
        _ => {
            ascendc_run::lower_to_ascendc(&mut module).map_err(runtime_error)?;
            let mut args = call_args(&signature, &mut arrays, &inputs);
            if backend == Backend::AscendcCpp {
                let kernel = ascendc_run::CppKernel::build(&module, entry, None, sanitize).map_err(|d| render(&[d]))?;
                kernel.call_launch(&mut args, launch).map_err(|d| render(&[d]))?;
            } else {
                let kernel = ascendc_run::LlvmKernel::build(&context, &module, entry).map_err(|d| render(&[d]))?;
                kernel.call_launch(&mut args, sanitize, launch).map_err(|d| render(&[d]))?;
            }
        }
    }
    Ok(arrays.into_iter().flatten().map(|a| a.data().to_le_bytes()).collect())
}
