//! A module in the LLVM dialect → a relocatable object for the host, which the JIT links
//! ([`crate::orc`]) and the cache keeps ([`crate::object_cache`]).
//!
//! The object holds, next to the kernel's functions, one *packed wrapper* per C-interface
//! function: `void _mlir__mlir_ciface_NAME(void **args)` loads argument `i` from `*args[i]`,
//! calls `_mlir_ciface_NAME` and stores its result (if any) through `args[n]` — the calling
//! convention of MLIR's `ExecutionEngine::invokePacked`, which [`crate::Jit::call`] uses, so
//! any number and mix of arguments is called through one Rust function type.

use crate::{lower, Error, Result};
use inkwell::{
    targets::{FileType, RelocMode},
    types::BasicType,
    values::{BasicMetadataValueEnum, FunctionValue},
    AddressSpace, OptimizationLevel,
};
use melior::ir::Module;

/// The prefix of the functions [`crate::Jit::call`] calls, and of their packed wrappers.
pub(crate) const CIFACE_PREFIX: &str = "_mlir_ciface_";
pub(crate) const PACKED_PREFIX: &str = "_mlir_";

/// The optimization level of the JIT's code: O2 (the pipeline `default<O2>`, codegen at
/// `Default`).
pub(crate) const CODEGEN_LEVEL: OptimizationLevel = OptimizationLevel::Default;

/// Translates `module` (LLVM dialect) to LLVM IR, adds the packed wrappers, optimizes at O2 and
/// emits a position-independent ELF object for the host.
pub(crate) fn compile_object(module: &Module) -> Result<Vec<u8>> {
    let llvm = inkwell::context::Context::create();
    let machine = lower::host_target_machine(CODEGEN_LEVEL, RelocMode::PIC)?;
    let ir = lower::translate_and_optimize(module, &llvm, &machine, add_packed_wrappers)?;
    let object = machine
        .write_to_memory_buffer(&ir, FileType::Object)
        .map_err(|e| Error::Llvm(format!("cannot compile the kernel to an object file: {e}")))?;
    Ok(object.as_slice().to_vec())
}

fn add_packed_wrappers(ir: &inkwell::module::Module) -> Result<()> {
    let targets: Vec<FunctionValue> = ir
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0 && f.get_name().to_bytes().starts_with(CIFACE_PREFIX.as_bytes()))
        .collect();
    for function in targets {
        add_packed_wrapper(ir, function).map_err(|e| Error::Llvm(format!("cannot build a packed wrapper: {e}")))?;
    }
    Ok(())
}

fn add_packed_wrapper<'l>(
    ir: &inkwell::module::Module<'l>,
    function: FunctionValue<'l>,
) -> Result<(), inkwell::builder::BuilderError> {
    let context = ir.get_context();
    let pointer = context.ptr_type(AddressSpace::default());
    let name = format!("{PACKED_PREFIX}{}", function.get_name().to_string_lossy());
    let wrapper = ir.add_function(&name, context.void_type().fn_type(&[pointer.into()], false), None);
    let builder = context.create_builder();
    builder.position_at_end(context.append_basic_block(wrapper, "entry"));
    let args = wrapper.get_nth_param(0).expect("the wrapper has one parameter").into_pointer_value();
    // The pointer in slot `i` of the argument array.
    let slot = |i: u32| -> Result<_, inkwell::builder::BuilderError> {
        let index = context.i64_type().const_int(u64::from(i), false);
        // Safety: slot `i` exists: the caller passes one pointer per parameter (and the result).
        let address = unsafe { builder.build_in_bounds_gep(pointer, args, &[index], "slot")? };
        Ok(builder.build_load(pointer, address, "arg.ptr")?.into_pointer_value())
    };
    let mut values: Vec<BasicMetadataValueEnum> = Vec::new();
    for (i, param) in function.get_param_iter().enumerate() {
        let value = builder.build_load(param.get_type().as_basic_type_enum(), slot(i as u32)?, "arg")?;
        values.push(value.into());
    }
    let call = builder.build_call(function, &values, "result")?;
    if let inkwell::values::ValueKind::Basic(result) = call.try_as_basic_value() {
        builder.build_store(slot(function.count_params())?, result)?;
    }
    builder.build_return(None)?;
    Ok(())
}
