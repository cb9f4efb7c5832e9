//! Loop-invariant index arithmetic out of loops, and repeated index arithmetic merged, on the
//! [`Stmt`] tree every back end prints (issue 14: the tiled GEMM recomputed the tail extent
//! `min(128, max(M − i0, 0))` of its outer loop in each iteration of the inner one, and twice).
//!
//! [`hoist_invariants`] moves a statement out of a `for` when it computes a value (constant,
//! arithmetic, comparison, select) from values defined outside the loop, innermost loops
//! first, so a value climbs as far as its operands allow. Only operations that cannot trap are
//! moved (a loop may run zero times): division and remainder only by a constant other than 0
//! and −1, shifts only by a constant below 64. Nothing is moved out of an `if`. [`merge_equal`]
//! then gives one name to statements that compute the same operation of the same operands
//! where the first dominates the second. Names are unique per kernel (the reader's SSA names),
//! so moving a definition never captures another.

use std::collections::{HashMap, HashSet};

use crate::kernel::{ArithOp, Stmt, Val};

fn var_name(v: &Val) -> Option<&str> {
    match v {
        Val::Var(n) => Some(n),
        Val::Const(_) => None,
    }
}

/// The operands of a statement that computes a value, `None` for any other statement.
fn pure_operands(s: &Stmt) -> Option<Vec<&Val>> {
    match s {
        Stmt::Const { .. } => Some(vec![]),
        Stmt::Arith { op, a, b, .. } if cannot_trap(*op, b) => Some(vec![a, b]),
        Stmt::Cmp { a, b, .. } => Some(vec![a, b]),
        Stmt::Select { cond, a, b, .. } => Some(vec![cond, a, b]),
        _ => None,
    }
}

fn cannot_trap(op: ArithOp, b: &Val) -> bool {
    use ArithOp::*;
    match op {
        DivSI | RemSI | FloorDivSI | CeilDivSI => matches!(b, Val::Const(c) if *c != 0 && *c != -1),
        DivUI | RemUI => matches!(b, Val::Const(c) if *c != 0),
        ShLI | ShRUI | ShRSI => matches!(b, Val::Const(c) if (0..64).contains(c)),
        AddI | SubI | MulI | MinSI | MaxSI | AndI => true,
    }
}

/// Every name a statement defines, nested bodies included.
fn defined_names(s: &Stmt, out: &mut HashSet<String>) {
    match s {
        Stmt::Const { name, .. }
        | Stmt::Arith { name, .. }
        | Stmt::Cmp { name, .. }
        | Stmt::Select { name, .. }
        | Stmt::Block { name, .. } => {
            out.insert(name.clone());
        }
        Stmt::For { var, iter, body, results, .. } => {
            out.insert(var.clone());
            out.extend(iter.iter().map(|(n, _)| n.clone()));
            out.extend(results.iter().cloned());
            body.iter().for_each(|s| defined_names(s, out));
        }
        Stmt::If { results, then_body, else_body, .. } => {
            out.extend(results.iter().cloned());
            then_body.iter().chain(else_body.iter()).for_each(|s| defined_names(s, out));
        }
        Stmt::Call(_) | Stmt::Flag { .. } | Stmt::Barrier(_) | Stmt::Atomic { .. } => {}
    }
}

/// Moves loop-invariant value statements out of every `for` of `stmts` (see the module doc).
pub fn hoist_invariants(stmts: &mut Vec<Stmt>) {
    let mut out = Vec::with_capacity(stmts.len());
    for mut s in std::mem::take(stmts) {
        match &mut s {
            Stmt::For { var, iter, body, .. } => {
                hoist_invariants(body);
                let mut inside: HashSet<String> = iter.iter().map(|(n, _)| n.clone()).collect();
                inside.insert(var.clone());
                let mut kept = Vec::with_capacity(body.len());
                for b in std::mem::take(body) {
                    let invariant = pure_operands(&b)
                        .is_some_and(|ops| ops.iter().all(|v| var_name(v).is_none_or(|n| !inside.contains(n))));
                    if invariant {
                        out.push(b);
                    } else {
                        defined_names(&b, &mut inside);
                        kept.push(b);
                    }
                }
                *body = kept;
            }
            Stmt::If { then_body, else_body, .. } => {
                hoist_invariants(then_body);
                hoist_invariants(else_body);
            }
            _ => {}
        }
        out.push(s);
    }
    *stmts = out;
}

/// What a value statement computes, as a key: equal keys compute equal values.
fn key(s: &Stmt) -> Option<String> {
    match s {
        Stmt::Const { value, .. } => Some(format!("c {value}")),
        Stmt::Arith { op, a, b, .. } => Some(format!("{op:?} {a:?} {b:?}")),
        Stmt::Cmp { pred, a, b, .. } => Some(format!("{} {a:?} {b:?}", pred.name())),
        Stmt::Select { cond, a, b, .. } => Some(format!("select {cond:?} {a:?} {b:?}")),
        _ => None,
    }
}

fn name_of(s: &Stmt) -> Option<&str> {
    match s {
        Stmt::Const { name, .. } | Stmt::Arith { name, .. } | Stmt::Cmp { name, .. } | Stmt::Select { name, .. } => {
            Some(name)
        }
        _ => None,
    }
}

/// Renames the operands of `s` (not of its nested bodies) by `renamed`.
fn rename_operands(s: &mut Stmt, renamed: &HashMap<String, Val>) {
    let fix = |v: &mut Val| {
        if let Some(new) = var_name(v).and_then(|n| renamed.get(n)) {
            *v = new.clone();
        }
    };
    match s {
        Stmt::Arith { a, b, .. } | Stmt::Cmp { a, b, .. } => {
            fix(a);
            fix(b);
        }
        Stmt::Select { cond, a, b, .. } => [cond, a, b].into_iter().for_each(fix),
        Stmt::For { lo, hi, step, iter, yields, .. } => {
            [lo, hi, step].into_iter().for_each(fix);
            iter.iter_mut().for_each(|(_, init)| fix(init));
            yields.iter_mut().for_each(fix);
        }
        Stmt::If { cond, then_yields, else_yields, .. } => {
            fix(cond);
            then_yields.iter_mut().chain(else_yields.iter_mut()).for_each(fix);
        }
        Stmt::Call(c) => {
            c.fields.values_mut().chain(c.refs.iter_mut()).for_each(fix);
            // The notes name the values they mention.
            c.notes.iter_mut().for_each(|(_, text)| *text = crate::kernel::rename(text, renamed));
        }
        Stmt::Const { .. } | Stmt::Flag { .. } | Stmt::Barrier(_) | Stmt::Block { .. } | Stmt::Atomic { .. } => {}
    }
}

/// Drops a value statement that repeats one in scope and renames its uses (see the module doc).
pub fn merge_equal(stmts: &mut Vec<Stmt>) {
    merge_in(stmts, HashMap::new(), &mut HashMap::new());
}

fn merge_in(stmts: &mut Vec<Stmt>, mut avail: HashMap<String, String>, renamed: &mut HashMap<String, Val>) {
    let mut out = Vec::with_capacity(stmts.len());
    for mut s in std::mem::take(stmts) {
        rename_operands(&mut s, renamed);
        if let (Some(k), Some(name)) = (key(&s), name_of(&s)) {
            if let Some(first) = avail.get(&k) {
                renamed.insert(name.to_string(), Val::Var(first.clone()));
                continue;
            }
            avail.insert(k, name.to_string());
        }
        match &mut s {
            Stmt::For { body, .. } => merge_in(body, avail.clone(), renamed),
            Stmt::If { then_body, else_body, .. } => {
                merge_in(then_body, avail.clone(), renamed);
                merge_in(else_body, avail.clone(), renamed);
            }
            _ => {}
        }
        // A body's yields are read after the body: rename them now that it is done.
        if let Stmt::For { yields, .. } = &mut s {
            for y in yields.iter_mut() {
                if let Some(new) = var_name(y).and_then(|n| renamed.get(n)) {
                    *y = new.clone();
                }
            }
        }
        if let Stmt::If { then_yields, else_yields, .. } = &mut s {
            for y in then_yields.iter_mut().chain(else_yields.iter_mut()) {
                if let Some(new) = var_name(y).and_then(|n| renamed.get(n)) {
                    *y = new.clone();
                }
            }
        }
        out.push(s);
    }
    *stmts = out;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: &str) -> Val {
        Val::Var(n.into())
    }

    fn arith(name: &str, op: ArithOp, a: Val, b: Val) -> Stmt {
        Stmt::Arith { name: name.into(), op, a, b }
    }

    fn names(stmts: &[Stmt]) -> Vec<String> {
        stmts.iter().map(|s| name_of(s).map_or_else(|| "for".to_string(), str::to_string)).collect()
    }

    /// The tiled GEMM's shape: `v0 = M − i0; v1 = min(128, v0)` inside the `i1` loop, `v2 = i1·2`
    /// (depends on `i1`), a division by a variable (may trap), and a second `M − i0`.
    #[test]
    fn invariants_leave_the_inner_loop_and_repeats_merge() {
        let inner = Stmt::For {
            var: "i1".into(),
            lo: Val::Const(0),
            hi: v("N"),
            step: Val::Const(128),
            iter: vec![],
            body: vec![
                arith("v0", ArithOp::SubI, v("M"), v("i0")),
                arith("v1", ArithOp::MinSI, Val::Const(128), v("v0")),
                arith("v2", ArithOp::MulI, v("i1"), Val::Const(2)),
                arith("v3", ArithOp::DivSI, v("M"), v("K")),
                arith("v4", ArithOp::AddI, v("v2"), v("v1")),
                arith("v5", ArithOp::SubI, v("M"), v("i0")),
                arith("v6", ArithOp::AddI, v("v5"), v("v4")),
            ],
            yields: vec![],
            results: vec![],
        };
        let outer = Stmt::For {
            var: "i0".into(),
            lo: Val::Const(0),
            hi: v("M"),
            step: Val::Const(128),
            iter: vec![],
            body: vec![inner],
            yields: vec![],
            results: vec![],
        };
        let mut stmts = vec![outer];
        hoist_invariants(&mut stmts);
        merge_equal(&mut stmts);
        let Stmt::For { body: outer_body, .. } = &stmts[0] else { panic!("{stmts:?}") };
        // v0, v1 (and v5, merged into v0) depend on i0 only: in the outer loop, before the inner.
        assert_eq!(names(outer_body), ["v0", "v1", "for"]);
        let Stmt::For { body, .. } = &outer_body[2] else { panic!("{outer_body:?}") };
        assert_eq!(names(body), ["v2", "v3", "v4", "v6"]);
        let Stmt::Arith { a, .. } = &body[3] else { panic!() };
        assert_eq!(a, &v("v0"), "the repeated M − i0 reads the first one");
    }

    /// Loop-carried values and values computed from them stay in the loop.
    #[test]
    fn carried_values_stay() {
        let mut stmts = vec![Stmt::For {
            var: "i".into(),
            lo: Val::Const(0),
            hi: Val::Const(4),
            step: Val::Const(1),
            iter: vec![("acc".into(), Val::Const(0))],
            body: vec![arith("n", ArithOp::AddI, v("acc"), Val::Const(16)), arith("k", ArithOp::ShLI, v("x"), v("y"))],
            yields: vec![v("n")],
            results: vec!["r".into()],
        }];
        hoist_invariants(&mut stmts);
        let Stmt::For { body, .. } = &stmts[0] else { panic!() };
        assert_eq!(names(body), ["n", "k"], "a shift by a variable may trap: it stays");
    }
}
