//! `layout.block_idx` / `layout.block_num`: calls to two runtime functions the JIT provides
//! (`layout_runtime::blocks`), so the kernel's signature stays the one the user wrote and a
//! launch of `blockDim` blocks is `blockDim` calls with the block set before each
//! (docs/dialect.md, `layout.block_idx`).

use layout_dialect::ops::BlockQuery;
use melior::{
    dialect::func,
    ir::{
        attribute::{FlatSymbolRefAttribute, StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::FunctionType,
        Identifier, OperationRef, Region, Type, ValueLike,
    },
};

use super::{build, guard, Lowerer};
use crate::error::LoweringError;

/// `() -> index`: the running block's index (C ABI `int64_t (*)(void)`).
pub const BLOCK_IDX: &str = "__layout_block_idx";
/// `() -> index`: the number of blocks launched.
pub const BLOCK_NUM: &str = "__layout_block_num";

pub(super) fn block(l: &mut Lowerer, op: &OperationRef, query: BlockQuery) -> Result<(), LoweringError> {
    let symbol = match query {
        BlockQuery::Idx => BLOCK_IDX,
        BlockQuery::Num => BLOCK_NUM,
    };
    let location = op.location();
    let point = build::Point::before(op);
    let module_point = guard::before_function(point)?;
    let index = Type::index(l.context);
    if !guard::defines_symbol(module_point, symbol) {
        let ty = FunctionType::new(l.context, &[], &[index]);
        let visibility =
            (Identifier::new(l.context, "sym_visibility"), StringAttribute::new(l.context, "private").into());
        module_point.insert(func::func(
            l.context,
            StringAttribute::new(l.context, symbol),
            TypeAttribute::new(ty.into()),
            Region::new(),
            &[visibility],
            location,
        ));
    }
    let value =
        point.value(func::call(l.context, FlatSymbolRefAttribute::new(l.context, symbol), &[], &[index], location))?;
    let old = op.result(0).map_err(|e| LoweringError::IrShape(e.to_string()))?;
    // Safety: both values are valid and of type index; the layout op is erased after the rewrite.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), value) };
    Ok(())
}
