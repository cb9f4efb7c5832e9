//! The shape every Rust pass shares: an MLIR external pass identified by the address of a
//! `static` [`PassId`] of its own.

use melior::{
    dialect::DialectHandle,
    ir::r#type::TypeId,
    pass::{create_external, Pass, RunExternalPass},
};

/// The identity of one pass (its MLIR `TypeId` is this value's address): declare one
/// `static PASS_ID: PassId = PassId::new();` per pass. MLIR requires 8-byte alignment; the byte
/// keeps the type sized, so distinct statics have distinct addresses.
#[repr(align(8))]
pub struct PassId(#[allow(dead_code)] u8);

impl PassId {
    pub const fn new() -> PassId {
        PassId(0)
    }
}

impl Default for PassId {
    fn default() -> Self {
        Self::new()
    }
}

/// Creates the external pass `name` (`argument` on the command line) that runs `run` on any
/// operation, with the dialects it creates ops of loaded beforehand.
pub fn create<'c>(
    id: &'static PassId,
    run: impl RunExternalPass<'c>,
    name: &str,
    argument: &str,
    description: &str,
    dependent_dialects: &[DialectHandle],
) -> Pass {
    create_external(run, TypeId::create(id), name, argument, description, "", dependent_dialects)
}
