//! The shape every Rust pass shares: an MLIR external pass identified by the address of a
//! `static` [`PassId`] of its own.

use std::panic::{catch_unwind, AssertUnwindSafe};

use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, r#type::TypeId, OperationRef},
    pass::{create_external, ExternalPass, Pass, RunExternalPass},
    ContextRef,
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
/// operation, with the dialects it creates ops of loaded beforehand. A panic inside `run` becomes
/// a located "internal error" diagnostic and a pass failure ([`CatchPanics`]).
pub fn create<'c>(
    id: &'static PassId,
    run: impl RunExternalPass<'c>,
    name: &str,
    argument: &str,
    description: &str,
    dependent_dialects: &[DialectHandle],
) -> Pass {
    let run = CatchPanics { run, argument: argument.to_string() };
    create_external(run, TypeId::create(id), name, argument, description, "", dependent_dialects)
}

/// Runs a pass body with panics caught. The body is called from C++ through a function that
/// cannot unwind, so an escaping panic would abort the whole tool ("panic in a function that
/// cannot unwind", found by `layout-fuzz`); caught, it is an error at the pass's root op and the
/// pipeline fails like on any other error. (The panic message itself goes to stderr through the
/// panic hook.)
#[derive(Clone)]
pub struct CatchPanics<R> {
    run: R,
    argument: String,
}

impl<'c, R: RunExternalPass<'c>> RunExternalPass<'c> for CatchPanics<R> {
    fn initialize(&mut self, context: ContextRef<'c>) {
        self.run.initialize(context)
    }

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        let body = &mut self.run;
        if catch_unwind(AssertUnwindSafe(|| body.run(operation, pass))).is_err() {
            let message = format!("internal error: pass '{}' panicked (a bug in layout-opt)", self.argument);
            crate::emit_error(operation.location(), &message);
            pass.signal_failure();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use melior::{
        ir::{Location, Module},
        pass::PassManager,
    };

    use super::*;

    static PANICKING: PassId = PassId::new();

    /// A pass body that panics fails the pass with one located error; the process goes on.
    #[test]
    fn a_panicking_pass_is_a_located_error_not_an_abort() {
        let context = layout_dialect::create_context().unwrap();
        let errors = Arc::new(Mutex::new(Vec::new()));
        let sink = errors.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            sink.lock().unwrap().push(format!("{}: {diagnostic}", diagnostic.location()));
            true
        });
        let boom = |_: OperationRef, _: ExternalPass| panic!("boom");
        let manager = PassManager::new(&context);
        manager.add_pass(create(&PANICKING, boom, "Boom", "boom", "panics", &[]));
        let mut module = Module::new(Location::new(&context, "k.mlir", 3, 7));
        assert!(manager.run(&mut module).is_err());
        let errors = errors.lock().unwrap();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("k.mlir\":3:7"), "{errors:?}");
        assert!(errors[0].contains("internal error: pass 'boom' panicked"), "{errors:?}");
    }
}
