//! `layout-verify`: semantic checks that IRDL cannot express, each a located error
//! (`file:line:col: error: ...` at the op that defines the offending value or the op that
//! breaks the rule). Every lowering runs them on its input first ([`verify_with`]); the
//! relaxations [`Rules::host_copies`] and [`Rules::any_c0`] are for host-side programs only.
//!
//! The rules: [`ALL_RULES`].

mod ops;
mod types;
mod valid;

use layout_dialect::{ops::LayoutOpKind, LayoutCache};
use std::collections::HashMap;

use crate::emit_error;
use layout_algebra::ascend::FramePattern;
use layout_dialect::{
    types::{target_of, TargetError},
    Target,
};
use melior::{
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        BlockLike, Location, OperationRef, RegionLike, ValueLike,
    },
    pass::{ExternalPass, Pass},
};

use crate::external::{self, PassId};

/// Every rule, as (id, what it checks). Each has its meaning and an example error in
/// docs/dialect.md and a case in `filecheck/verify/verify-errors.mlir`; `layout_dialect::doc_sync`
/// reads this table (one `("ID", ...)` line per rule). M is checked in `mod.rs`, T in `types.rs`,
/// R in `valid.rs`, the others in `ops.rs`.
pub const ALL_RULES: [(&str, &str); 27] = [
    ("M1", "target attribute"),
    ("T1", "memory space"),
    ("T2", "element type"),
    ("T3", "layout and origin syntax and well-formedness"),
    ("T4", "layout legal for the space and target"),
    ("T5", "C0 of explicit fractal layouts"),
    ("A1", "known attributes of each op"),
    ("V1", "view in gm, alloc on chip"),
    ("V2", "one `dyn` operand per `?`"),
    ("V3", "constant `dyn` operands give a valid type"),
    ("V4", "memref element type and size"),
    ("L1", "data path and direction"),
    ("L2", "legal layout pair"),
    ("L3", "element types of a copy"),
    ("L4", "extents of a copy"),
    ("L5", "store epilogues (relu, scale, atomic)"),
    ("L6", "one matrix of a batch form per copy"),
    ("X1", "matmul operand spaces"),
    ("X2", "matmul element types"),
    ("X3", "matmul extents"),
    ("X5", "matmul unit flag (2 or 3) and its store"),
    ("G1", "tile operands and attribute"),
    ("G2", "tile result type agrees with the algebra"),
    ("G3", "fractal-aligned tiles"),
    ("O1", "offset coordinates"),
    ("W1", "`written` result of load and matmul"),
    ("R1", "reads inside the latest write (valid regions)"),
];

pub const ARGUMENT: &str = "layout-verify";
pub const DESCRIPTION: &str =
    "Check layout-dialect semantics: target, space x layout legality, copy pairs, matmul, tiles, dynamic leaves, C0";

static PASS_ID: PassId = PassId::new();

/// Creates the pass. It runs on any operation; the target is read from the nearest enclosing
/// op (or the op itself) that carries `layout.target`.
pub fn create() -> Pass {
    external::create(&PASS_ID, run, "LayoutVerify", ARGUMENT, DESCRIPTION, &[])
}

fn run(root: OperationRef, pass: ExternalPass) {
    if !verify(root) {
        pass.signal_failure();
    }
}

/// Which rules apply. The default is every rule (the `layout-verify` pass).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Accept what a *host* program does with buffers, which the cube cannot: a `layout.view`
    /// in any memory space (V1 for views; `layout-lower-to-loops` observes on-chip buffers
    /// through it, since an alloc'ed buffer that is only written is dead code) and a
    /// `layout.load`/`layout.store` between any two spaces and layouts (L1 data path, L2 legal
    /// pair; the host packer's GM -> GM layout conversion), and whole-batch copies between two
    /// batch forms (L6; the loop lowering copies them element by element). Every other rule
    /// still applies.
    /// Set by `layout-lower-to-loops{host-copies=true}` (the `filecheck/simplify` tests), the
    /// offset benchmark, the host packer and the runtime tests that observe on-chip buffers.
    pub host_copies: bool,
    /// Accept an explicit fractal layout whose C0 is not its element type's (T5): the host
    /// packer's `PackSpec::c0` override (f32 packed with C0 = 16 as L0C holds it, NN with
    /// C0 = 2 as the AscendC Te MX layout). Only the host packer sets it.
    pub any_c0: bool,
}

/// Collects errors; every error is emitted at once.
pub(crate) struct Checker {
    pub target: Option<Target>,
    pub rules: Rules,
    pub ok: bool,
    /// The frame pattern of each tensor value looked up so far (see `ops::pattern_of`).
    pub patterns: HashMap<usize, Option<FramePattern>>,
    /// Parsed and resolved tensor types of this run, by uniqued type.
    pub layouts: LayoutCache,
}

impl Checker {
    pub fn error(&mut self, location: Location, message: &str) {
        emit_error(location, message);
        self.ok = false;
    }
}

/// The target of `root` ([`layout_dialect::types::target_of`], the one rule): `Ok(None)` when
/// there is none (an error only if the layout dialect is used, decided by the caller),
/// `Err(())` after emitting an error for a malformed one.
pub(crate) fn find_target(root: OperationRef) -> Result<Option<Target>, ()> {
    match target_of(root) {
        Ok(t) => Ok(Some(t)),
        Err((_, TargetError::Missing)) => Ok(None),
        Err((location, e)) => {
            emit_error(location, &e.to_string());
            Err(())
        }
    }
}

/// Runs every check on `root` and what it contains; returns false after emitting errors.
pub fn verify(root: OperationRef) -> bool {
    verify_with(root, Rules::default())
}

/// Runs the checks `rules` selects on `root` and what it contains; returns false after
/// emitting errors (located at the offending ops).
pub fn verify_with(root: OperationRef, rules: Rules) -> bool {
    let (target, has_target, mut ok) = match find_target(root) {
        Ok(t) => (t, t.is_some(), true),
        Err(()) => (None, true, false),
    };
    let mut checker = Checker { target, rules, ok: true, patterns: HashMap::new(), layouts: LayoutCache::new() };

    let mut uses_layout = false;
    root.walk(WalkOrder::PreOrder, |op| {
        let kind = LayoutOpKind::from_name(&crate::ir::op_name(&op));
        if kind.is_some() {
            uses_layout = true;
        }
        let location = op.location();
        // A tile's result type may leave `?` where the algebra knows the value; its legality
        // is its parent's (same strides and inner blocks), and G2 checks it against the algebra.
        // Likewise a load's `written` view (the destination's layout, W1 checks it).
        let derived = matches!(kind, Some(LayoutOpKind::Tile | LayoutOpKind::Load | LayoutOpKind::Matmul));
        for result in op.results() {
            uses_layout |= types::check_type(result.r#type(), location, derived, &mut checker);
        }
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                for index in 0..b.argument_count() {
                    if let Ok(argument) = b.argument(index) {
                        uses_layout |= types::check_type(argument.r#type(), location, false, &mut checker);
                    }
                }
                block = b.next_in_region();
            }
        }
        ops::check_op(&op, &mut checker);
        WalkResult::Advance
    });

    // R1 needs every type resolved: only on input the other rules accept.
    if checker.ok && ok {
        valid::check(root, &mut checker);
    }
    if uses_layout && !has_target {
        emit_error(root.location(), &format!("the layout dialect is used but {}", TargetError::Missing));
        ok = false;
    }
    ok && checker.ok
}
