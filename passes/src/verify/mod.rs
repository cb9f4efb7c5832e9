//! `layout-verify`: semantic checks that IRDL cannot express, each a located error
//! (`file:line:col: error: ...` at the op that defines the offending value or the op that
//! breaks the rule).
//!
//! Rules (each has a case in `filecheck/verify/verify-errors.mlir`):
//!
//! Module
//! - M1 a module that uses the `layout` dialect carries `layout.target = #layout.target<"a2"|"a5">`
//!   (known name, `#layout.target` attribute).
//!
//! Types (`types.rs`; every `!layout.tensor` result and block argument)
//! - T1 the memory space is known and exists on the target (MX scale buffers only on a5);
//! - T2 the element type is one the algebra knows (`ElementType`);
//! - T3 LAYOUT is a pattern name or CuTe `shape:stride`, ORIGIN a CuTe int tuple (`?` allowed);
//!   the layout is well formed (frame_layout/Layout errors: congruence, 64-bit fractals, odd
//!   NN rows, ...), and all shape arithmetic stays in i64 (overflow is an error);
//! - T4 the layout is legal for the memory space on the target (`legality::legal_patterns`; an
//!   explicit layout counts as the pattern it is recognized as; unrecognized layouts only in
//!   gm/ub). Not applied to `layout.tile` results, whose legality is the parent's (G2 checks
//!   them against the algebra);
//! - T5 an explicit layout recognized as a fractal pattern has the C0 of its element type
//!   (`frame_c0`: f16 → 16, f32 → 8, i8 → 32, L0C → 16, MX scales → 2).
//!
//! Ops (`ops.rs`)
//! - V1 `layout.view` produces a gm tensor; `layout.alloc` an on-chip one (not gm);
//! - V2 view/alloc: one `dyn` operand per `?` leaf of the result type (binding order: origin
//!   leaves, then layout leaves; see `layout_dialect::tensor_layout`);
//! - V3 view/alloc: `dyn` operands that are constants give a valid type (no negative extents);
//! - V4 view: the memref element type is the tensor's, and a static memref holds the layout's
//!   cosize when both are static;
//! - L1 load/store: a data path exists between the spaces on the target and goes the op's way
//!   (load towards the cube, store out of it);
//! - L2 load/store: the (src layout → dst layout) pair is legal on the target (docs/layout-spec.md §D.2/§D.3);
//! - L3 load/store: element types equal, or a Fixpipe conversion out of l0c;
//! - L4 load/store: static origins have the same rank and the source fits the destination;
//!   between two different convolution layouts (NC1HWC0 <- NCHW / NHWC) the logical
//!   `(n, c, h, w)` extents are compared instead (NC1HWC0: `c = c1·c0`); the legal pairs that
//!   change between a matrix and a convolution layout (Fixpipe L0C -> NCHW/NHWC/NC1HWC0, a5
//!   Img2Col NC1HWC0 -> NZ) are rejected as "not supported by this compiler yet";
//! - X1 matmul: A in l0a, B in l0b, C in l0c;
//! - X2 matmul: element types A × B → C legal on the target (f16/bf16/f32 → f32, i8 → i32,
//!   fp8/fp4 → f32 on a5);
//! - X3 matmul: origins are M×K, K×N, M×N (checked when static);
//! - G1 tile: `shape` is `array<i64>` with one positive extent per coordinate, one coordinate
//!   per mode of the parent; the result has the parent's element type and space;
//! - G2 tile: the result type agrees with `tile_layout(parent, shape, coord)` (every static leaf
//!   equal, `?` only where the algebra gives a value, never a static claim on a dynamic value);
//! - G3 tile: tiles of fractal layouts (NZ ZN ZZ NN L0C) have static coordinates and extents
//!   that are multiples of the inner block (16 × C0, C0 × 16, 16 × 16), as cube data movement
//!   requires (docs/layout-spec.md §B.7); dynamic coordinates are a run-time precondition;
//! - O1 offset: one coordinate per mode; constant coordinates are non-negative and their
//!   offset fits in i64.
//! - W1 load, matmul: the optional `written` result is the destination with the written extent
//!   (load: `min(src, dst)` of the origins; matmul: `m × n` of C) as its origin: same element
//!   type and space, every static leaf equal to the algebra's (`tile::written_view`), `?` where
//!   the algebra derives it.
//!
//! Valid regions (`valid.rs`)
//! - R1 every read of an on-chip buffer (load/store source, matmul A, B and an accumulated C)
//!   lies inside the region of the latest write to that buffer, proven symbolically; the
//!   error names the op, the buffer and the condition it could not prove.
//!
//! Every lowering (`layout-lower-to-loops`, `layout-lower-to-ascendc`) runs these checks on its
//! input ([`verify_with`]), so no back end accepts what this pass rejects; the pass itself stays
//! for standalone use (a failed `layout-verify` stops the pipeline, so nothing is reported twice).
//! [`Rules::host_copies`] and [`Rules::any_c0`] are the narrow exceptions, for the CPU lowering
//! of host-side programs only: see there.

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
    /// pair; the host packer's GM -> GM layout conversion). Every other rule still applies.
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
