//! racecheck of the loop lowering (`{sanitize=true}`, docs/sanitizer.md): every element a copy
//! stores into global memory is reported to the runtime hook [`HOOK`] with the buffer's base
//! address, the byte offset and the byte count; the runtime (`layout_runtime::blocks`) keeps the
//! block that last wrote each byte during a multi-block launch and fails the call of a block
//! that writes a byte another block wrote, with the op, the buffer and both block ids. Atomic
//! adds (`layout.store {atomic = "add"}`) go to [`ATOMIC_HOOK`]: two blocks adding into the same
//! bytes is no race (the adds commute), a plain write and an add of two blocks is.

use layout_dialect::MemorySpace;
use melior::{
    dialect::{arith, func},
    ir::{
        attribute::{FlatSymbolRefAttribute, StringAttribute, TypeAttribute},
        operation::OperationBuilder,
        r#type::FunctionType,
        Identifier, Location, Region, Type,
    },
};
use mlir_sys::MlirValue;

use super::{build, guard, Lowerer, Tensor};
use crate::error::LoweringError;

/// `(message pointer, message length, buffer base address, byte offset, bytes)`, all `index`:
/// the message is a `file:line:col: error: ...` template with `{block}`, `{other}`, `{lo}` and
/// `{hi}` for the writing block, the earlier writer and the byte range in the buffer.
pub const HOOK: &str = "__layout_gm_write";

/// [`HOOK`] for atomic adds (same arguments).
pub const ATOMIC_HOOK: &str = "__layout_gm_atomic_add";

/// How a copy writes GM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// Overwrites.
    Plain,
    /// Adds atomically (SetAtomicAdd).
    AtomicAdd,
}

/// Reports the store of element `offset` of `dst` by `what` at `point` (GM tensors only, with
/// sanitize on; nothing otherwise).
pub(super) fn record(
    l: &mut Lowerer,
    location: Location,
    point: build::Point,
    (what, write): (&str, Write),
    dst: &Tensor,
    offset: MlirValue,
) -> Result<(), LoweringError> {
    let hook = if write == Write::AtomicAdd { ATOMIC_HOOK } else { HOOK };
    if !l.sanitize || dst.space != MemorySpace::Gm {
        return Ok(());
    }
    let index = Type::index(l.context);
    let module_point = guard::before_function(point)?;
    if !guard::defines_symbol(module_point, hook) {
        let ty = FunctionType::new(l.context, &[index; 5], &[]);
        let visibility =
            (Identifier::new(l.context, "sym_visibility"), StringAttribute::new(l.context, "private").into());
        module_point.insert(func::func(
            l.context,
            StringAttribute::new(l.context, hook),
            TypeAttribute::new(ty.into()),
            Region::new(),
            &[visibility],
            location,
        ));
    }
    let verb = if write == Write::AtomicAdd { "atomically adds into" } else { "writes" };
    let message = format!(
        "{}: error: racecheck: {what} in block {{block}} {verb} bytes [{{lo}}, {{hi}}) of {}, which block {{other}} wrote too (the blocks of a launch must write disjoint global memory, except atomic adds into the same bytes)",
        guard::position(location),
        dst.name
    );
    let (pointer, length) = guard::message_global(l, location, point, &message)?;
    let base = point.value(
        OperationBuilder::new("memref.extract_aligned_pointer_as_index", location)
            .add_operands(&[build::val(dst.buffer)])
            .add_results(&[index])
            .build()
            .map_err(|e| LoweringError::Internal(format!("{e}")))?,
    )?;
    let bytes = build::index_constant(l.context, location, point, i64::from(dst.elem.bits() / 8).max(1))?;
    let byte = point.value(arith::muli(build::val(offset), build::val(bytes), location))?;
    let arguments = [pointer, length, base, byte, bytes].map(build::val);
    point.insert(func::call(l.context, FlatSymbolRefAttribute::new(l.context, hook), &arguments, &[], location));
    Ok(())
}
