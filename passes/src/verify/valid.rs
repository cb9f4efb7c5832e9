//! Rule R1: every read of an on-chip buffer lies inside the region the latest write to that
//! buffer wrote (docs/dialect.md "Valid regions").
//!
//! On-chip memory holds garbage until written (the CPU back ends poison it), and a buffer
//! reused across loop iterations holds the previous iteration's data outside what this
//! iteration wrote. So a read is correct only inside the region of the **latest** write to the
//! same buffer (the `layout.alloc` the value is a view of): a `layout.load` writes
//! `min(src, dst)` of the origins at the destination's corner, a `layout.matmul` writes `m × n`
//! of C. Reads: the source of a load/store in an on-chip space (the same `min` region), and
//! A (`m × k`), B (`k × n`) and, when accumulating, C (`m × n`) of a matmul, with
//! `m = min(A.rows, C.rows)`, `n = min(B.cols, C.cols)`, `k = min(A.cols, B.rows)` — the
//! regions every back end computes.
//!
//! The proof is symbolic: every `!layout.tensor` value is evaluated with the algebra
//! (`tile_of`, `written_view`) on symbols bound to its SSA index values (function arguments
//! `argN`, loop variables `ivN`, other values `sN`), so two ops that depend on the same values
//! get the same expressions. A read through the `written` view of the latest write (or a tile
//! of it) is inside by construction (tiles are clipped at their parent's origin); otherwise
//! each mode needs `w.lo <= r.lo` and `r.lo + r.ext <= w.lo + w.ext`, proven by [`le`] from
//! equal sub-terms, `min`/`max` monotonicity and constant bounds. Control flow: an op with
//! regions (`scf.for`, `scf.if`) is walked twice, the second time with what the end of its
//! body left as a second possible "latest write" (the previous iteration), and afterwards the
//! buffer may hold either (the body may not run). A read must be inside every possible one.
//! `layout.view` buffers (gm, or host-observed on-chip ones) count as written everywhere.

use std::collections::{HashMap, HashSet};

use layout_algebra::{sym::BinOp, IndexValue, Layout, SymExpr, Tuple};
use layout_dialect::{ops::LayoutOp, MemorySpace};
use melior::ir::{
    attribute::AttributeLike, block::BlockLike, operation::OperationLike, BlockRef, Location, OperationRef, RegionLike,
    Value, ValueLike,
};

use super::Checker;
use crate::{
    ir::{constant_int, op_name, tensor_of},
    tile::{is_batch_form, matrix_view, tile_of, written_view},
};

/// A tensor value as this rule sees it.
#[derive(Clone)]
struct View {
    /// The `layout.alloc` (or `layout.view`) whose memory it is.
    root: usize,
    /// The value this one is a tile (or written view) of, to find a `written` view it derives
    /// from: one link per view, so a chain of N tiles costs O(N), not O(N²).
    parent: Option<usize>,
    layout: Layout<SymExpr>,
    corner: Vec<SymExpr>,
    space: MemorySpace,
}

/// What the latest write wrote: the region, the value it returned (a load's `written` view),
/// and the op, for messages.
#[derive(Clone, PartialEq)]
struct Written {
    view: Option<usize>,
    lo: Vec<SymExpr>,
    ext: Vec<SymExpr>,
    by: By,
}

/// Who wrote a buffer; described only for a message (printing a location on every write cost
/// a sixth of the whole check, issue 14).
#[derive(Clone, Copy, PartialEq)]
enum By {
    /// A `layout.view`'s memory, initialised by the host.
    View,
    /// The op (its raw pointer: the analysis does not change the IR, so it stays valid).
    Op(usize),
}

impl By {
    fn op(op: &OperationRef) -> By {
        By::Op(op.to_raw().ptr as usize)
    }

    fn describe(self) -> String {
        match self {
            By::View => "layout.view".into(),
            By::Op(ptr) => {
                // Safety: an op of the module under analysis, which is not modified meanwhile.
                let op = unsafe { OperationRef::from_raw(melior_op(ptr)) };
                describe(&op)
            }
        }
    }
}

fn melior_op(ptr: usize) -> mlir_sys::MlirOperation {
    mlir_sys::MlirOperation { ptr: ptr as *mut std::ffi::c_void }
}

/// Per root buffer, every possible latest write (`None`: possibly never written).
type State = HashMap<usize, Vec<Option<Written>>>;

struct Analysis<'m> {
    checker: &'m mut Checker,
    views: HashMap<usize, View>,
    names: HashMap<usize, SymExpr>,
    /// Per root buffer, its memory space and the op that made it (named in messages).
    roots: HashMap<usize, (MemorySpace, By)>,
    reported: HashSet<String>,
    counter: usize,
    /// The enclosing `scf.for`s with constant lower bound and positive constant step: the
    /// induction variable, the lower bound, and whether this walk is the first iteration.
    loops: Vec<(usize, i64, bool)>,
}

fn key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

/// Runs R1 on every function under `root`.
pub(super) fn check(root: OperationRef, checker: &mut Checker) {
    let mut a = Analysis {
        checker,
        views: HashMap::new(),
        names: HashMap::new(),
        roots: HashMap::new(),
        reported: HashSet::new(),
        counter: 0,
        loops: Vec::new(),
    };
    let mut state = State::new();
    a.regions(&root, &mut state);
}

impl Analysis<'_> {
    fn regions(&mut self, op: &OperationRef, state: &mut State) {
        for r in 0..op.region_count() {
            self.region(op, r, state);
        }
    }

    fn region(&mut self, op: &OperationRef, r: usize, state: &mut State) {
        let Ok(region) = op.region(r) else { return };
        let mut block = region.first_block();
        while let Some(b) = block {
            self.block(b, state);
            block = b.next_in_region();
        }
    }

    fn block(&mut self, block: BlockRef, state: &mut State) {
        let mut next = block.first_operation();
        while let Some(op) = next {
            self.op(&op, state);
            next = op.next_in_block();
        }
    }

    fn op(&mut self, op: &OperationRef, state: &mut State) {
        match LayoutOp::decode(*op) {
            Some(Ok(decoded)) => self.layout_op(op, decoded, state),
            Some(Err(_)) => {}
            None if op.region_count() == 0 => {}
            None if op_name(op) == "func.func" => self.regions(op, &mut State::new()),
            None if op_name(op) == "scf.if" && op.region_count() == 2 => match self.first_iteration_test(op) {
                // `iv == lb` of the innermost loop: the then branch runs exactly on the first
                // iteration, the else branch on every later one.
                Some(true) => self.region(op, 0, state),
                Some(false) => self.region(op, 1, state),
                None => {
                    // One of the two branches runs (an empty else leaves the state as it was).
                    let mut then_state = state.clone();
                    self.region(op, 0, &mut then_state);
                    let mut else_state = state.clone();
                    self.region(op, 1, &mut else_state);
                    *state = merge(&then_state, &else_state);
                }
            },
            None if op_name(op) == "scf.for" => {
                // Iteration 1 from the state before the loop; the later iterations from what
                // an earlier one left (walked twice: after the first, after any later one).
                let bound = |i: usize| op.operand(i).ok().and_then(constant_int);
                let iv = op.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.argument(0).ok());
                let tracked = match (iv, bound(0), bound(2)) {
                    (Some(iv), Some(lb), Some(step)) if step > 0 => Some((key(iv.into()), lb)),
                    _ => None,
                };
                let walk = |a: &mut Self, first: bool, s: &mut State| {
                    if let Some((iv, lb)) = tracked {
                        a.loops.push((iv, lb, first));
                    }
                    a.regions(op, s);
                    if tracked.is_some() {
                        a.loops.pop();
                    }
                };
                let before = state.clone();
                let mut first = before.clone();
                walk(self, true, &mut first);
                let mut second = first.clone();
                walk(self, false, &mut second);
                let mut later = merge(&first, &second);
                if later == first {
                    // The same walk from the same state as the second: the same result and
                    // the same (already reported) errors.
                    later = second;
                } else {
                    walk(self, false, &mut later);
                }
                let ends = merge(&first, &later);
                // A loop that runs at least once leaves what the end of an iteration leaves.
                *state = if runs_at_least_once(op) { ends } else { merge(&before, &ends) };
            }
            None => {
                // A loop or branch: once from the state before it, once more with what its
                // body leaves as another possible latest write; afterwards either.
                let before = state.clone();
                let mut body = before.clone();
                self.regions(op, &mut body);
                let mut again = merge(&before, &body);
                let entry = again.clone();
                self.regions(op, &mut again);
                *state = merge(&entry, &again);
            }
        }
    }

    fn layout_op(&mut self, op: &OperationRef, decoded: LayoutOp, state: &mut State) {
        let is_view = matches!(decoded, LayoutOp::View { .. });
        match decoded {
            LayoutOp::View { result, dyn_sizes, .. } | LayoutOp::Alloc { result, dyn_sizes, .. } => {
                let root = key(result);
                // A view is a function of the IR alone: an op walked again (a loop body) reuses it.
                let view = match self.views.get(&root) {
                    Some(view) => view.clone(),
                    None => {
                        let Some(view) = self.root_view(result, &dyn_sizes) else { return };
                        self.roots.insert(root, (view.space, By::op(op)));
                        view
                    }
                };
                // A view's memory is initialised by the host; an alloc's is garbage until written.
                let written = is_view.then(|| Written {
                    view: Some(root),
                    lo: view.corner.clone(),
                    ext: view.layout.origin().leaves(),
                    by: By::View,
                });
                state.insert(root, vec![written]);
                self.views.insert(root, view);
            }
            LayoutOp::Tile { source, coord, shape, result, .. } => {
                if self.views.contains_key(&key(result)) {
                    return;
                }
                let Some(parent) = self.views.get(&key(source)).cloned() else { return };
                let local: Vec<SymExpr> = coord.iter().map(|v| self.symbol(*v)).collect();
                let Ok(placed) = tile_of(&parent.layout, &parent.corner, &shape, &local) else { return };
                let link = Some(key(source));
                self.views
                    .insert(key(result), View { parent: link, layout: placed.layout, corner: placed.corner, ..parent });
            }
            LayoutOp::Load { src, dst, written, .. } => self.copy(op, "layout.load", src, dst, written, state),
            LayoutOp::Store { src, dst, .. } => self.copy(op, "layout.store", src, dst, None, state),
            LayoutOp::Matmul { a, b, c, accumulate, written, .. } => {
                let (Some(va), Some(vb), Some(vc)) = (
                    self.views.get(&key(a)).cloned(),
                    self.views.get(&key(b)).cloned(),
                    self.views.get(&key(c)).cloned(),
                ) else {
                    return;
                };
                let (ae, be, ce) =
                    (va.layout.origin().leaves(), vb.layout.origin().leaves(), vc.layout.origin().leaves());
                if ae.len() != 2 || be.len() != 2 || ce.len() != 2 {
                    return;
                }
                let (Ok(m), Ok(n), Ok(k)) = (ae[0].min(&ce[0]), be[1].min(&ce[1]), ae[1].min(&be[0])) else { return };
                let location = op.location();
                self.read(location, "layout.matmul", ("A", key(a)), &va, &[m.clone(), k.clone()], state);
                self.read(location, "layout.matmul", ("B", key(b)), &vb, &[k, n.clone()], state);
                if accumulate {
                    self.read(location, "layout.matmul", ("C", key(c)), &vc, &[m.clone(), n.clone()], state);
                }
                let mut view = None;
                if let Some(w) = written {
                    if let Ok(layout) = written_view(&vc.layout, &[m.clone(), n.clone()]) {
                        self.views.insert(key(w), View { parent: Some(key(c)), layout, ..vc.clone() });
                        view = Some(key(w));
                    }
                }
                let w = Written { view, lo: vc.corner.clone(), ext: vec![m, n], by: By::op(op) };
                state.insert(vc.root, vec![Some(w)]);
            }
            LayoutOp::Offset { .. } | LayoutOp::Block { .. } => {}
        }
    }

    fn copy(
        &mut self,
        op: &OperationRef,
        name: &str,
        src: Value,
        dst: Value,
        written: Option<Value>,
        state: &mut State,
    ) {
        let (Some(vs), Some(vd)) = (self.views.get(&key(src)).cloned(), self.views.get(&key(dst)).cloned()) else {
            return;
        };
        // One matrix of a batch form is copied as that matrix (L6 reports the other batch forms;
        // host copies of whole batches are checked as they are).
        let whole_batches = is_batch_form(&vs.layout) && is_batch_form(&vd.layout);
        let matrix = |v: View| {
            if whole_batches {
                return Some(v);
            }
            let m = matrix_view(&v.layout, &v.corner).ok()?;
            Some(View { layout: m.layout, corner: m.corner, ..v })
        };
        let (Some(vs), Some(vd)) = (matrix(vs), matrix(vd)) else { return };
        let (se, de) = (vs.layout.origin().leaves(), vd.layout.origin().leaves());
        if se.len() != de.len() {
            return; // convolution conversions: logical extents, not checked here
        }
        let Ok(region) = se.iter().zip(&de).map(|(s, d)| s.min(d)).collect::<Result<Vec<_>, _>>() else { return };
        if vs.space != MemorySpace::Gm {
            self.read(op.location(), name, ("the source", key(src)), &vs, &region, state);
        }
        let mut view = None;
        if let Some(w) = written {
            if let Ok(layout) = written_view(&vd.layout, &se) {
                self.views.insert(key(w), View { parent: Some(key(dst)), layout, ..vd.clone() });
                view = Some(key(w));
            }
        }
        let w = Written { view, lo: vd.corner.clone(), ext: region, by: By::op(op) };
        state.insert(vd.root, vec![Some(w)]);
    }

    /// Whether the value `value` is `view` or a tile of it (of a tile of it, ...).
    fn derives_from(&self, value: usize, view: usize) -> bool {
        let mut next = Some(value);
        while let Some(k) = next {
            if k == view {
                return true;
            }
            next = self.views.get(&k).and_then(|v| v.parent);
        }
        false
    }

    /// Checks that reading `ext` at the corner of `v` (the value `value`) lies inside every
    /// possible latest write.
    fn read(
        &mut self,
        location: Location,
        op: &str,
        (what, value): (&str, usize),
        v: &View,
        ext: &[SymExpr],
        state: &State,
    ) {
        if v.space == MemorySpace::Gm {
            return;
        }
        let never = [None];
        let writes = state.get(&v.root).map_or(&never[..], Vec::as_slice);
        for w in writes {
            self.report(location, op, (what, value), v, ext, w.as_ref());
        }
    }

    /// The error of reading `ext` at the corner of `v` when `w` is a possible latest write
    /// (`None`: possibly never written), unless the read is inside it.
    fn report(
        &mut self,
        location: Location,
        op: &str,
        (what, value): (&str, usize),
        v: &View,
        ext: &[SymExpr],
        w: Option<&Written>,
    ) {
        let buffer = || match self.roots.get(&v.root) {
            Some((space, by)) => match by {
                By::Op(ptr) => {
                    // Safety: see `By::describe`.
                    let op = unsafe { OperationRef::from_raw(melior_op(*ptr)) };
                    format!("{} buffer `{}` at {}", space.name(), op_name(&op), op.location())
                }
                By::View => "an on-chip buffer".into(),
            },
            None => "an on-chip buffer".into(),
        };
        let message = match w {
            None => Some(format!(
                "{op} reads {what} from the {}, which may not have been written before (on-chip memory holds garbage until a layout.load or layout.matmul writes it)",
                buffer()
            )),
            Some(w) if w.view.is_some_and(|k| self.derives_from(value, k)) => None,
            Some(w) => unproven(&v.corner, ext, w).map(|condition| {
                format!(
                    "{op} reads {what} from the {} outside the region its latest write ({}) wrote: cannot prove {condition} (read at ({}) extent ({}), written at ({}) extent ({})); read through the `written` view that layout.load returns, or a tile of it",
                    buffer(),
                    w.by.describe(),
                    join(&v.corner),
                    join(ext),
                    join(&w.lo),
                    join(&w.ext)
                )
            }),
        };
        if let Some(message) = message {
            let text = format!("{location}: {message}");
            if self.reported.insert(text) {
                self.checker.error(location, &message);
            }
        }
    }

    /// The view of a `layout.view`/`layout.alloc` result, its `?` leaves bound to the symbols of
    /// the `dyn` operands.
    fn root_view(&mut self, result: Value, dyn_sizes: &[Value]) -> Option<View> {
        let ty = tensor_of(result)?;
        let resolved = ty.resolve_with_prefix("__r").ok()?;
        if resolved.symbols.len() != dyn_sizes.len() {
            return None;
        }
        let map: HashMap<String, SymExpr> =
            resolved.symbols.iter().cloned().zip(dyn_sizes.iter().map(|v| self.symbol(*v))).collect();
        // Sizes (origin and shape leaves) are non-negative by the layout contract: used as
        // max(v, 0), as the loop lowering does (strides as they are).
        let sizes: HashMap<String, SymExpr> = map
            .iter()
            .map(|(k, v)| Ok((k.clone(), v.max(&SymExpr::Const(0))?)))
            .collect::<Result<_, layout_algebra::AlgebraError>>()
            .ok()?;
        let sub = |t: &Tuple<SymExpr>, m: &HashMap<String, SymExpr>| t.map(&mut |e: &SymExpr| substitute(e, m));
        let layout = Layout::with_origin(
            sub(resolved.layout.shape(), &sizes).ok()?,
            sub(resolved.layout.stride(), &map).ok()?,
            sub(resolved.layout.origin(), &sizes).ok()?,
        )
        .ok()?;
        let rank = layout.origin().leaves().len();
        Some(View {
            root: key(result),
            parent: None,
            layout,
            corner: vec![SymExpr::Const(0); rank],
            space: resolved.space,
        })
    }

    /// The algebra value of an index SSA value: its constant or a symbol named after it.
    fn symbol(&mut self, v: Value) -> SymExpr {
        if let Some(c) = constant_int(v) {
            return SymExpr::Const(c);
        }
        if let Some(s) = self.names.get(&key(v)) {
            return s.clone();
        }
        self.counter += 1;
        // Safety: queries on a valid value.
        let name = unsafe {
            let raw = v.to_raw();
            if mlir_sys::mlirValueIsABlockArgument(raw) {
                let owner = mlir_sys::mlirBlockArgumentGetOwner(raw);
                let parent = mlir_sys::mlirBlockGetParentOperation(owner);
                let number = mlir_sys::mlirBlockArgumentGetArgNumber(raw);
                let parent_name = OperationRef::from_raw(parent);
                if op_name(&parent_name) == "func.func" {
                    format!("arg{number}")
                } else {
                    format!("iv{}", self.counter)
                }
            } else {
                format!("s{}", self.counter)
            }
        };
        let s = SymExpr::sym(&name);
        self.names.insert(key(v), s.clone());
        s
    }
}

impl Analysis<'_> {
    /// For an `scf.if` on `arith.cmpi eq, %iv, %lb` (either order) of the innermost tracked
    /// loop: whether this walk is that loop's first iteration (the condition's value).
    fn first_iteration_test(&self, op: &OperationRef) -> Option<bool> {
        let &(iv, lb, first) = self.loops.last()?;
        let cmp = crate::ir::defining_op(op.operand(0).ok()?)?;
        if op_name(&cmp) != "arith.cmpi" {
            return None;
        }
        let predicate = cmp.attribute("predicate").ok()?;
        // Safety: valid attribute; `eq` is predicate 0 of arith.cmpi.
        let eq = unsafe {
            mlir_sys::mlirAttributeIsAInteger(predicate.to_raw())
                && mlir_sys::mlirIntegerAttrGetValueInt(predicate.to_raw()) == 0
        };
        let (x, y) = (cmp.operand(0).ok()?, cmp.operand(1).ok()?);
        let is_iv = |v: Value| key(v) == iv;
        let is_lb = |v: Value| constant_int(v) == Some(lb);
        (eq && ((is_iv(x) && is_lb(y)) || (is_lb(x) && is_iv(y)))).then_some(first)
    }
}

/// An `scf.for` with constant bounds `lb < ub` (and so a positive trip count).
fn runs_at_least_once(op: &OperationRef) -> bool {
    let bound = |i: usize| op.operand(i).ok().and_then(constant_int);
    op_name(op) == "scf.for" && matches!((bound(0), bound(1)), (Some(lb), Some(ub)) if lb < ub)
}

fn describe(op: &OperationRef) -> String {
    format!("{} at {}", op_name(op), op.location())
}

fn join(v: &[SymExpr]) -> String {
    v.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// Every possible latest write of either state, per buffer.
fn merge(a: &State, b: &State) -> State {
    let mut out = a.clone();
    for (root, writes) in b {
        let entry = out.entry(*root).or_insert_with(|| vec![None]);
        for w in writes {
            if !entry.contains(w) {
                entry.push(w.clone());
            }
        }
    }
    for (root, writes) in out.iter_mut() {
        if !b.contains_key(root) && !writes.contains(&None) {
            writes.push(None);
        }
    }
    out
}

/// The first condition of "the read region lies inside `w`" that [`le`] cannot prove.
fn unproven(lo: &[SymExpr], ext: &[SymExpr], w: &Written) -> Option<String> {
    if lo.len() != w.lo.len() || ext.len() != w.ext.len() || lo.len() != ext.len() {
        return Some("the read and the write have the same rank".into());
    }
    for i in 0..lo.len() {
        if ext[i].as_constant() == Some(0) {
            continue;
        }
        if !le(&w.lo[i], &lo[i], 8) {
            return Some(format!("{} <= {} (mode {i} starts inside the written region)", w.lo[i], lo[i]));
        }
        let end = lo[i].add(&ext[i]).ok();
        let wend = w.lo[i].add(&w.ext[i]).ok();
        let inside = match (&end, &wend) {
            (Some(e), Some(we)) => le(e, we, 8) || (lo[i] == w.lo[i] && le(&ext[i], &w.ext[i], 8)),
            _ => false,
        };
        if !inside {
            let sum = |lo: &SymExpr, ext: &SymExpr| {
                if lo.as_constant() == Some(0) {
                    ext.to_string()
                } else {
                    format!("{lo} + {ext}")
                }
            };
            return Some(format!(
                "{} <= {} (mode {i} ends inside the written region)",
                sum(&lo[i], &ext[i]),
                sum(&w.lo[i], &w.ext[i])
            ));
        }
    }
    None
}

/// `a <= b` for every value of the symbols, from the structure alone: equal terms, constants,
/// `min(x, y) <= b` if either side is, `a <= max(x, y)` if either is, `a <= min(x, y)` if both
/// are, `max(x, y) <= b` if both are, `x + c <= y + d` from `x <= y` and `c <= d` for
/// constants. Sizes in this dialect are non-negative, but nothing here assumes it. `depth`
/// bounds the search.
pub(crate) fn le(a: &SymExpr, b: &SymExpr, depth: u32) -> bool {
    use SymExpr::{Bin, Const};
    if a == b {
        return true;
    }
    if let (Const(x), Const(y)) = (a, b) {
        return x <= y;
    }
    if depth == 0 {
        return false;
    }
    let d = depth - 1;
    if let Bin(BinOp::Min, x, y) = a {
        if le(x, b, d) || le(y, b, d) {
            return true;
        }
    }
    if let Bin(BinOp::Max, x, y) = b {
        if le(a, x, d) || le(a, y, d) {
            return true;
        }
    }
    if let Bin(BinOp::Min, x, y) = b {
        if le(a, x, d) && le(a, y, d) {
            return true;
        }
    }
    if let Bin(BinOp::Max, x, y) = a {
        if le(x, b, d) && le(y, b, d) {
            return true;
        }
    }
    // x + c <= y + e with constants c <= e.
    let split = |e: &SymExpr| -> (SymExpr, i64) {
        match e {
            Bin(BinOp::Add, x, y) => match y.as_ref() {
                Const(c) => (x.as_ref().clone(), *c),
                _ => (e.clone(), 0),
            },
            Bin(BinOp::Sub, x, y) => match y.as_ref() {
                Const(c) => (x.as_ref().clone(), -*c),
                _ => (e.clone(), 0),
            },
            _ => (e.clone(), 0),
        }
    };
    let ((x, c), (y, e)) = (split(a), split(b));
    (c != 0 || e != 0) && c <= e && le(&x, &y, d)
}

/// `e` with the symbols of `map` replaced.
fn substitute(e: &SymExpr, map: &HashMap<String, SymExpr>) -> Result<SymExpr, layout_algebra::AlgebraError> {
    Ok(match e {
        SymExpr::Const(_) => e.clone(),
        SymExpr::Sym(name) => map.get(name.as_ref()).cloned().unwrap_or_else(|| e.clone()),
        SymExpr::Bin(op, a, b) => SymExpr::bin(*op, &substitute(a, map)?, &substitute(b, map)?)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: &str) -> SymExpr {
        SymExpr::sym(n)
    }

    #[test]
    fn le_proves_the_clipped_extents_and_refuses_the_rest() {
        let m = s("M").sub(&s("m0")).unwrap().max(&SymExpr::Const(0)).unwrap();
        let rows = SymExpr::Const(128).min(&m).unwrap();
        // A clipped extent is below both of its bounds, and below a larger min of them.
        assert!(le(&rows, &SymExpr::Const(128), 8));
        assert!(le(&rows, &m, 8));
        assert!(le(&rows, &rows.min(&SymExpr::Const(256)).unwrap(), 8));
        // The static extent of a buffer is not below the written tail.
        assert!(!le(&SymExpr::Const(64), &rows, 8));
        assert!(!le(&s("K"), &s("N"), 8));
        assert!(le(&s("k").add(&SymExpr::Const(16)).unwrap(), &s("k").add(&SymExpr::Const(32)).unwrap(), 8));
        assert!(!le(&s("k").add(&SymExpr::Const(32)).unwrap(), &s("k").add(&SymExpr::Const(16)).unwrap(), 8));
    }
}
