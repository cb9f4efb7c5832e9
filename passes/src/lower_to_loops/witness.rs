//! Access witnesses ([`super::Options::witness_accesses`], for `layout_runtime::address_proof`'s
//! proof of the kernel's own accesses): every `memref.load`/`memref.store` a copy or matmul
//! emits gets the attribute [`ACCESS_ATTRIBUTE`]` = N`, and just before it a call
//! `func.call @__layout_access_N(%v...)` passes the SSA value of every symbol the algebra's
//! address of that access depends on. The call is opaque, so it survives the address
//! simplification; the prover reads the simplified index operand of the access, the values the
//! call receives, and compares with `crd_to_offset` of the recorded layout ([`AccessSpec`]).
//! Nothing else of the kernel changes: the call's operands are leaves (arguments, clamps, loop
//! variables), not address intermediates, so the simplifier rewrites the addresses as usual.

use layout_algebra::{Layout, SymExpr};
use melior::{
    dialect::func,
    ir::{
        attribute::{FlatSymbolRefAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::{FunctionType, IntegerType},
        Attribute, AttributeLike, Identifier, Location, OperationRef, Region, Type, Value,
    },
};

use super::{build, Lowerer, Tensor};
use crate::error::LoweringError;

/// The attribute naming an access's witness (an `i64` N).
pub const ACCESS_ATTRIBUTE: &str = "layout.access";
/// Prefix of the witness functions' names (`@__layout_access_N`).
pub const WITNESS_PREFIX: &str = "__layout_access_";

/// One witnessed access and what its index must equal.
#[derive(Clone, Debug)]
pub struct AccessSpec {
    /// N of [`ACCESS_ATTRIBUTE`] and of the witness function.
    pub id: i64,
    /// `load of <tensor> by layout.load`, for reports.
    pub access: String,
    /// The layout op's location (`file:line:col` when known).
    pub location: String,
    /// The witness call's operands, in order: the symbols they are the values of.
    pub symbols: Vec<String>,
    /// The index is `base + crd_to_offset(layout, unflatten(coord + local))`.
    pub layout: Layout<SymExpr>,
    pub coord: Vec<SymExpr>,
    pub base: SymExpr,
    pub local: Vec<SymExpr>,
}

impl Lowerer<'_> {
    /// In witness mode, tags `access` (a load or store of `tensor` at local coordinate `local`)
    /// and inserts its witness call at `point`, which must be in the access's block.
    pub(crate) fn witness(
        &mut self,
        location: Location,
        point: build::Point,
        access: OperationRef,
        (tensor, local): (&Tensor, &[SymExpr]),
        what: &str,
    ) -> Result<(), LoweringError> {
        if !self.witness_accesses {
            return Ok(());
        }
        let layout = &tensor.layout;
        let leaves = [layout.shape(), layout.stride(), layout.origin()].into_iter().flat_map(|t| t.leaves());
        let mut symbols: Vec<String> = leaves
            .chain(tensor.coord.iter().cloned())
            .chain(local.iter().cloned())
            .chain([tensor.base.clone()])
            .flat_map(|e| e.symbols())
            .collect();
        symbols.sort();
        symbols.dedup();
        let values = symbols
            .iter()
            .map(|s| {
                self.env.get(s).copied().ok_or_else(|| LoweringError::Internal(format!("witness: no value of {s}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let id = self.accesses.len() as i64;
        let name = format!("{WITNESS_PREFIX}{id}");
        let operands: Vec<Value> = values.iter().map(|v| build::val(*v)).collect();
        let types: Vec<Type> = operands.iter().map(melior::ir::ValueLike::r#type).collect();
        point.insert(func::call(
            self.context,
            FlatSymbolRefAttribute::new(self.context, &name),
            &operands,
            &[],
            location,
        ));
        let tag = IntegerAttribute::new(IntegerType::new(self.context, 64).into(), id);
        // Safety: `access` is a valid op just built; the attribute is owned by the context.
        unsafe {
            let name = melior::StringRef::new(ACCESS_ATTRIBUTE);
            mlir_sys::mlirOperationSetAttributeByName(access.to_raw(), name.to_raw(), tag.to_raw());
        }
        self.witness_types.push(types);
        self.accesses.push(AccessSpec {
            id,
            access: format!("{what} of {}", tensor.name),
            location: super::guard::position(location),
            symbols,
            layout: tensor.layout.clone(),
            coord: tensor.coord.clone(),
            base: tensor.base.clone(),
            local: local.to_vec(),
        });
        Ok(())
    }
}

/// Declares the witness functions (private, without a body) at the end of the module `root`.
pub(crate) fn declare_witnesses(l: &mut Lowerer, root: OperationRef) -> Result<(), LoweringError> {
    let region = root.region(0).map_err(|_| LoweringError::IrShape("access witnesses need a module".into()))?;
    let block = melior::ir::RegionLike::first_block(&region)
        .ok_or(LoweringError::IrShape("access witnesses need a module with a body".into()))?;
    let end = build::Point::end(block.to_raw());
    let context = l.context;
    for (id, types) in std::mem::take(&mut l.witness_types).into_iter().enumerate() {
        let location = Location::unknown(context);
        let private = (Identifier::new(context, "sym_visibility"), StringAttribute::new(context, "private").into());
        let attributes: [(Identifier, Attribute); 1] = [private];
        end.insert(func::func(
            context,
            StringAttribute::new(context, &format!("{WITNESS_PREFIX}{id}")),
            TypeAttribute::new(FunctionType::new(context, &types, &[]).into()),
            Region::new(),
            &attributes,
            location,
        ));
    }
    Ok(())
}
