//! Pipe synchronization: the dependency graph of the data movements and cube ops, and the
//! minimal `SetFlag`/`WaitFlag` pairs (MLIR-free, so it is unit-tested on small programs).
//!
//! Model: each pipe (MTE2, MTE1, M, FIX, MTE3) runs its own instructions in order; op `u` on
//! pipe P must finish before a later op `v` on pipe Q ≠ P when they touch one resource (a byte
//! range of a buffer) and one of them writes it: `SetFlag<P_Q>` after `u`, `WaitFlag<P_Q>`
//! before `v`.
//!
//! Per block, a petgraph `DiGraph` of (item, pipe) nodes, where an item is an op, a loop or an
//! `scf.if` summarized per pipe, with pipe-order and dependence edges. Only the dependence edges
//! no other path implies (the transitive reduction restricted to them, unique on this DAG) get
//! flags. Loop bodies add loop-carried edges (checked over two consecutive iterations), flagged
//! in the body plus a prologue `SetFlag` and an epilogue `WaitFlag`; each `scf.if` region is its
//! own block, and every pair is balanced on every path. Event ids: interval colouring in
//! program order, at most 8 per HardEvent.
//!
//! The algorithm in full, with the reasons: docs/ascendc-derivation.md §10.1.

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// A hardware pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pipe {
    Mte2,
    Mte1,
    M,
    Fix,
    Mte3,
}

impl Pipe {
    pub fn name(self) -> &'static str {
        match self {
            Pipe::Mte2 => "MTE2",
            Pipe::Mte1 => "MTE1",
            Pipe::M => "M",
            Pipe::Fix => "FIX",
            Pipe::Mte3 => "MTE3",
        }
    }
}

/// What one op does: its pipe and the resources it reads and writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    pub pipe: Pipe,
    pub reads: Vec<u32>,
    pub writes: Vec<u32>,
    /// For the graph printout.
    pub label: String,
    /// An `Mmad` or `Fixpipe` with a unitFlag (2 or 3, asc-devkit UnitFlag.md): the hardware
    /// orders it against the other side of the handshake per 512 B L0C block, so an M -> FIX or
    /// FIX -> M dependence between two such ops needs no event.
    pub unit_flag: bool,
}

/// A program: ops, loops and branches, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Op(Access),
    Loop(Vec<Item>),
    /// An `scf.if`: its regions (then, else), each a block of items.
    If(Vec<Vec<Item>>),
}

/// Where a flag goes: before or after the item at `path` (indices into nested blocks: a loop
/// body item is `[.., loop, j]`, an item of region `r` of a branch `[.., if, r, j]`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum At {
    Before(Vec<usize>),
    After(Vec<usize>),
}

/// One `SetFlag`/`WaitFlag` to insert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flag {
    pub set: bool,
    pub src: Pipe,
    pub dst: Pipe,
    pub id: u32,
    pub at: At,
}

impl Flag {
    /// The AscendC HardEvent name (`MTE2_MTE1`).
    pub fn event(&self) -> String {
        format!("{}_{}", self.src.name(), self.dst.name())
    }
}

/// A kept or dropped dependence, for tests and the printout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dep {
    /// Block path of the two items, their indices and pipes.
    pub block: Vec<usize>,
    pub from: (usize, Pipe),
    pub to: (usize, Pipe),
    pub carried: bool,
    pub redundant: bool,
    /// Ordered by the Mmad/Fixpipe unitFlag handshake ([`Access::unit_flag`]), so not flagged.
    pub handshake: bool,
    pub why: &'static str,
}

/// A dependence edge found in one block, before redundancy is decided: graph nodes `u → v`,
/// the (item index, pipe) of both ends, whether it is loop-carried, and why.
struct Found {
    u: NodeIndex,
    v: NodeIndex,
    from: (usize, Pipe),
    to: (usize, Pipe),
    carried: bool,
    handshake: bool,
    why: &'static str,
}

/// Why a program could not be synchronized.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyncError {
    /// More pairs of one HardEvent are open at once than the hardware has event ids.
    #[error("more than 8 simultaneous {event} events are needed")]
    EventIds { event: String },
}

/// The synchronization of a program: the flags, every dependence found, and the DOT text.
#[derive(Clone, Debug, Default)]
pub struct Sync {
    pub flags: Vec<Flag>,
    pub deps: Vec<Dep>,
    pub dot: String,
}

/// Per-pipe summary of an item: resources read and written on each pipe.
fn summary(item: &Item) -> BTreeMap<Pipe, (BTreeSet<u32>, BTreeSet<u32>)> {
    let mut out: BTreeMap<Pipe, (BTreeSet<u32>, BTreeSet<u32>)> = BTreeMap::new();
    match item {
        Item::Op(a) => {
            let e = out.entry(a.pipe).or_default();
            e.0.extend(&a.reads);
            e.1.extend(&a.writes);
        }
        Item::Loop(body) => merge_summaries(&mut out, body),
        Item::If(regions) => regions.iter().for_each(|body| merge_summaries(&mut out, body)),
    }
    out
}

/// Adds the per-pipe accesses of every item of `body` to `out`.
fn merge_summaries(out: &mut BTreeMap<Pipe, (BTreeSet<u32>, BTreeSet<u32>)>, body: &[Item]) {
    for it in body {
        for (p, (r, w)) in summary(it) {
            let e = out.entry(p).or_default();
            e.0.extend(r);
            e.1.extend(w);
        }
    }
}

/// The pipes on which every op of `item` takes the unitFlag handshake (M, FIX, or none).
fn unit_pipes(item: &Item) -> BTreeSet<Pipe> {
    fn walk(item: &Item, all: &mut BTreeMap<Pipe, bool>) {
        match item {
            Item::Op(a) => *all.entry(a.pipe).or_insert(true) &= a.unit_flag,
            Item::Loop(body) => body.iter().for_each(|it| walk(it, all)),
            Item::If(regions) => regions.iter().flatten().for_each(|it| walk(it, all)),
        }
    }
    let mut all = BTreeMap::new();
    walk(item, &mut all);
    all.into_iter().filter(|&(p, u)| u && matches!(p, Pipe::M | Pipe::Fix)).map(|(p, _)| p).collect()
}

/// Whether the dependence `p` (of an item whose unit-flag pipes are `up`) -> `q` (`uq`) is
/// the Mmad/Fixpipe handshake: one side on M, the other on FIX, every op of both with a
/// unitFlag. The cube and Fixpipe share only L0C, which the handshake orders block by block.
fn handshake(p: Pipe, up: &BTreeSet<Pipe>, q: Pipe, uq: &BTreeSet<Pipe>) -> bool {
    matches!((p, q), (Pipe::M, Pipe::Fix) | (Pipe::Fix, Pipe::M)) && up.contains(&p) && uq.contains(&q)
}

fn label(item: &Item) -> String {
    match item {
        Item::Op(a) => a.label.clone(),
        Item::Loop(_) => "loop".into(),
        Item::If(_) => "if".into(),
    }
}

/// Why `(r1, w1)` then `(r2, w2)` must be ordered, if they must.
fn conflict(first: &(BTreeSet<u32>, BTreeSet<u32>), second: &(BTreeSet<u32>, BTreeSet<u32>)) -> Option<&'static str> {
    if !first.1.is_disjoint(&second.0) {
        Some("RAW")
    } else if !first.0.is_disjoint(&second.1) {
        Some("WAR")
    } else if !first.1.is_disjoint(&second.1) {
        Some("WAW")
    } else {
        None
    }
}

/// `v` reachable from `u` through a first edge other than `u → v`.
fn implied(g: &DiGraph<String, &'static str>, u: NodeIndex, v: NodeIndex) -> bool {
    g.edges(u).any(|e| e.target() != v && petgraph::algo::has_path_connecting(g, e.target(), v, None))
}

/// Pre-order positions: an item's (start, end) in a linear numbering.
fn positions(
    items: &[Item],
    path: &mut Vec<usize>,
    out: &mut BTreeMap<Vec<usize>, (usize, usize)>,
    counter: &mut usize,
) {
    for (i, it) in items.iter().enumerate() {
        path.push(i);
        let start = *counter;
        *counter += 2;
        match it {
            Item::Loop(body) => positions(body, path, out, counter),
            Item::If(regions) => {
                for (r, body) in regions.iter().enumerate() {
                    path.push(r);
                    positions(body, path, out, counter);
                    path.pop();
                }
            }
            Item::Op(_) => {}
        }
        out.insert(path.clone(), (start, *counter));
        *counter += 2;
        path.pop();
    }
}

fn span(items: &[Item], path: &[usize]) -> (usize, usize) {
    let mut pos = BTreeMap::new();
    let mut counter = 0;
    positions(items, &mut Vec::new(), &mut pos, &mut counter);
    pos.get(path).copied().unwrap_or((0, 0))
}

type Pair = (Flag, Flag, (usize, usize), Option<(Flag, Flag)>);

/// Analyses one block (and recursively its loops and branches); `is_loop_body`: the block
/// repeats, so it also gets loop-carried dependences.
fn block(
    items: &[Item],
    path: &[usize],
    is_loop_body: bool,
    deps: &mut Vec<Dep>,
    pairs: &mut Vec<Pair>,
    dot: &mut String,
) {
    let sums: Vec<_> = items.iter().map(summary).collect();
    let units: Vec<_> = items.iter().map(unit_pipes).collect();
    let at = |i: usize| -> Vec<usize> {
        let mut p = path.to_vec();
        p.push(i);
        p
    };
    // Graph of two iterations (the second copy only matters inside loops).
    let copies = if is_loop_body { 2 } else { 1 };
    let mut g: DiGraph<String, &'static str> = DiGraph::new();
    let mut node: BTreeMap<(usize, usize, Pipe), NodeIndex> = BTreeMap::new();
    for c in 0..copies {
        for (i, s) in sums.iter().enumerate() {
            for &p in s.keys() {
                let n = g.add_node(format!(
                    "{}{} {} [{}]",
                    if c == 1 { "next: " } else { "" },
                    i,
                    label(&items[i]),
                    p.name()
                ));
                node.insert((c, i, p), n);
            }
        }
    }
    // Pipe-order edges: consecutive nodes of one pipe (across the iteration boundary too).
    let mut last: BTreeMap<Pipe, NodeIndex> = BTreeMap::new();
    for c in 0..copies {
        for (i, s) in sums.iter().enumerate() {
            for &p in s.keys() {
                let n = node[&(c, i, p)];
                if let Some(prev) = last.insert(p, n) {
                    g.add_edge(prev, n, "pipe");
                }
            }
        }
    }
    // Dependence edges within an iteration (both copies) and carried ones (copy 0 → copy 1).
    let mut found: Vec<Found> = Vec::new();
    for i in 0..items.len() {
        for j in 0..items.len() {
            for (&p, a) in &sums[i] {
                for (&q, b) in &sums[j] {
                    if p == q {
                        continue;
                    }
                    let Some(why) = conflict(a, b) else { continue };
                    // A handshake edge orders as an event would (later edges it implies are
                    // dropped), but it gets no flag.
                    let handshake = handshake(p, &units[i], q, &units[j]);
                    if i < j {
                        for c in 0..copies {
                            let (u, v) = (node[&(c, i, p)], node[&(c, j, q)]);
                            g.add_edge(u, v, why);
                            if c == 0 {
                                found.push(Found { u, v, from: (i, p), to: (j, q), carried: false, handshake, why });
                            }
                        }
                    } else if copies == 2 {
                        let (u, v) = (node[&(0, i, p)], node[&(1, j, q)]);
                        g.add_edge(u, v, why);
                        found.push(Found { u, v, from: (i, p), to: (j, q), carried: true, handshake, why });
                    }
                }
            }
        }
    }
    let _ = writeln!(
        dot,
        "  subgraph \"cluster_{}\" {{\n    label=\"block {:?}\";",
        path.iter().map(|i| i.to_string()).collect::<Vec<_>>().join("_"),
        path
    );
    let id = |n: NodeIndex| {
        format!("\"b{}_n{}\"", path.iter().map(|i| i.to_string()).collect::<Vec<_>>().join("_"), n.index())
    };
    for n in g.node_indices() {
        let _ = writeln!(dot, "    {} [label=\"{}\"];", id(n), g[n].replace('"', "'"));
    }
    for e in g.edge_references() {
        if *e.weight() == "pipe" {
            let _ = writeln!(dot, "    {} -> {} [style=dotted, label=\"pipe order\"];", id(e.source()), id(e.target()));
        }
    }
    for &Found { u, v, from: (i, p), to: (j, q), carried, handshake, why } in &found {
        let redundant = implied(&g, u, v);
        let _ = writeln!(
            dot,
            "    {} -> {} [label=\"{}{} {}\"{}];",
            id(u),
            id(v),
            why,
            if carried { " carried" } else { "" },
            if redundant {
                "implied".to_string()
            } else if handshake {
                "unitFlag".to_string()
            } else {
                format!("{}_{}", p.name(), q.name())
            },
            if redundant || handshake { ", style=dashed, color=gray" } else { ", color=red" }
        );
        deps.push(Dep { block: path.to_vec(), from: (i, p), to: (j, q), carried, redundant, handshake, why });
        if redundant || handshake {
            continue;
        }
        let flag = |set: bool, at: At| Flag { set, src: p, dst: q, id: 0, at };
        let set = flag(true, At::After(at(i)));
        let wait = flag(false, At::Before(at(j)));
        if carried {
            let loop_path = path.to_vec();
            let pre = flag(true, At::Before(loop_path.clone()));
            let post = flag(false, At::After(loop_path));
            pairs.push((set, wait, (0, 0), Some((pre, post))));
        } else {
            pairs.push((set, wait, (0, 0), None));
        }
    }
    let _ = writeln!(dot, "  }}");
    for (i, it) in items.iter().enumerate() {
        match it {
            Item::Loop(body) => block(body, &at(i), true, deps, pairs, dot),
            Item::If(regions) => {
                for (r, body) in regions.iter().enumerate() {
                    let mut region = at(i);
                    region.push(r);
                    block(body, &region, false, deps, pairs, dot);
                }
            }
            Item::Op(_) => {}
        }
    }
}

/// Computes the flags of `program` (and the dependence graph as DOT).
pub fn synchronize(program: &[Item]) -> Result<Sync, SyncError> {
    let mut sync = Sync::default();
    let mut pairs: Vec<Pair> = Vec::new();
    let mut dot = String::from("digraph sync {\n  node [shape=box, fontname=monospace];\n");
    block(program, &[], false, &mut sync.deps, &mut pairs, &mut dot);
    dot.push_str("}\n");
    sync.dot = dot;
    for pair in &mut pairs {
        let (start, end) = match (&pair.0.at, &pair.1.at, &pair.3) {
            (_, _, Some((pre, _))) => {
                let At::Before(l) = &pre.at else { continue };
                span(program, l)
            }
            (At::After(a), At::Before(b), None) => (span(program, a).1, span(program, b).0),
            _ => (0, 0),
        };
        pair.2 = (start, end);
    }
    pairs.sort_by_key(|p| p.2);
    let mut busy: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (mut set, mut wait, (start, end), extra) in pairs {
        let ends = busy.entry(set.event()).or_default();
        let id = match ends.iter().position(|&e| e < start) {
            Some(i) => {
                ends[i] = end;
                i
            }
            None => {
                ends.push(end);
                ends.len() - 1
            }
        };
        if id >= 8 {
            return Err(SyncError::EventIds { event: set.event() });
        }
        set.id = id as u32;
        wait.id = id as u32;
        if let Some((mut pre, mut post)) = extra {
            pre.id = id as u32;
            post.id = id as u32;
            sync.flags.push(pre);
            sync.flags.push(set);
            sync.flags.push(wait);
            sync.flags.push(post);
        } else {
            sync.flags.push(set);
            sync.flags.push(wait);
        }
    }
    Ok(sync)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(pipe: Pipe, reads: &[u32], writes: &[u32], label: &str) -> Item {
        Item::Op(Access { pipe, reads: reads.to_vec(), writes: writes.to_vec(), label: label.into(), unit_flag: false })
    }

    fn unit(item: Item) -> Item {
        match item {
            Item::Op(a) => Item::Op(Access { unit_flag: true, ..a }),
            other => other,
        }
    }

    fn events(s: &Sync) -> Vec<(bool, String, At)> {
        s.flags.iter().map(|f| (f.set, f.event(), f.at.clone())).collect()
    }

    // Resources: 0 = GM A, 1 = L1 A, 2 = L0A, 3 = L0B, 4 = L0C, 5 = GM C, 6 = L1 B, 7 = GM B.
    fn gemm() -> Vec<Item> {
        vec![
            op(Pipe::Mte2, &[0], &[1], "nd2nz A"),
            op(Pipe::Mte2, &[7], &[6], "nd2nz B"),
            op(Pipe::Mte1, &[1], &[2], "load A"),
            op(Pipe::Mte1, &[6], &[3], "load B"),
            op(Pipe::M, &[2, 3], &[4], "mmad"),
            op(Pipe::Fix, &[4], &[5], "fixpipe"),
        ]
    }

    #[test]
    fn straight_line_gemm_keeps_four_pairs() {
        let s = synchronize(&gemm()).unwrap();
        let kept: Vec<_> = s.deps.iter().filter(|d| !d.redundant).map(|d| (d.from.0, d.to.0, d.why)).collect();
        assert_eq!(kept, vec![(0, 2, "RAW"), (1, 3, "RAW"), (3, 4, "RAW"), (4, 5, "RAW")]);
        // load A -> mmad is implied by load A -> load B (MTE1 order) -> mmad.
        assert!(s.deps.iter().any(|d| d.from.0 == 2 && d.to.0 == 4 && d.redundant));
        assert_eq!(
            events(&s),
            vec![
                (true, "MTE2_MTE1".into(), At::After(vec![0])),
                (false, "MTE2_MTE1".into(), At::Before(vec![2])),
                (true, "MTE2_MTE1".into(), At::After(vec![1])),
                (false, "MTE2_MTE1".into(), At::Before(vec![3])),
                (true, "MTE1_M".into(), At::After(vec![3])),
                (false, "MTE1_M".into(), At::Before(vec![4])),
                (true, "M_FIX".into(), At::After(vec![4])),
                (false, "M_FIX".into(), At::Before(vec![5])),
            ]
        );
        // Overlapping MTE2_MTE1 pairs get distinct ids.
        let ids: Vec<u32> = s.flags.iter().filter(|f| f.event() == "MTE2_MTE1").map(|f| f.id).collect();
        assert_eq!(ids, vec![0, 0, 1, 1]);
        assert!(s.dot.starts_with("digraph sync"), "{}", s.dot);
    }

    #[test]
    fn a_missing_or_wrong_edge_would_be_caught() {
        // Removing the WAR conflict (the mmad no longer reads L0A) removes exactly that edge.
        let mut p = gemm();
        p[4] = op(Pipe::M, &[3], &[4], "mmad");
        let s = synchronize(&p).unwrap();
        assert!(!s.deps.iter().any(|d| d.from.0 == 2 && d.to.0 == 4));
        // Without the MTE1 pipe-order path the load A -> mmad edge is needed.
        let p2 = vec![
            op(Pipe::Mte2, &[0], &[1], "nd2nz A"),
            op(Pipe::Mte1, &[1], &[2], "load A"),
            op(Pipe::M, &[2], &[4], "mmad"),
        ];
        let s2 = synchronize(&p2).unwrap();
        let kept: Vec<_> = s2.deps.iter().filter(|d| !d.redundant).map(|d| (d.from.0, d.to.0)).collect();
        assert_eq!(kept, vec![(0, 1), (1, 2)]);
    }

    #[test]
    fn loops_get_carried_war_with_prologue_and_epilogue() {
        // for k { load A (MTE1 writes L0A); mmad (M reads L0A) }: iteration k+1's load must
        // wait for iteration k's mmad (WAR), and the mmad for the load (RAW).
        let p = vec![
            op(Pipe::Mte2, &[0], &[1], "nd2nz A"),
            Item::Loop(vec![op(Pipe::Mte1, &[1], &[2], "load A"), op(Pipe::M, &[2], &[4], "mmad")]),
            op(Pipe::Fix, &[4], &[5], "fixpipe"),
        ];
        let s = synchronize(&p).unwrap();
        let ev = events(&s);
        assert!(ev.contains(&(true, "MTE2_MTE1".into(), At::After(vec![0]))));
        assert!(ev.contains(&(false, "MTE2_MTE1".into(), At::Before(vec![1]))));
        assert!(ev.contains(&(true, "M_FIX".into(), At::After(vec![1]))));
        assert!(ev.contains(&(true, "MTE1_M".into(), At::After(vec![1, 0]))));
        assert!(ev.contains(&(false, "MTE1_M".into(), At::Before(vec![1, 1]))));
        // Carried WAR: set after the mmad, wait before the load, prologue set, epilogue wait.
        assert!(ev.contains(&(true, "M_MTE1".into(), At::After(vec![1, 1]))));
        assert!(ev.contains(&(false, "M_MTE1".into(), At::Before(vec![1, 0]))));
        assert!(ev.contains(&(true, "M_MTE1".into(), At::Before(vec![1]))));
        assert!(ev.contains(&(false, "M_MTE1".into(), At::After(vec![1]))));
        assert_eq!(s.flags.len(), 10, "{ev:?}");
        assert!(s.deps.iter().any(|d| d.carried && !d.redundant && d.why == "WAR"));
    }

    /// `load A; if { mmad (overwrite) } else { mmad (accumulate) }; fixpipe`: the branch is
    /// one item from outside, so the MTE1 → M wait goes before the `scf.if` and the M → FIX
    /// set after it — both reached on either path.
    #[test]
    fn a_branch_syncs_as_one_item_on_every_path() {
        let p = vec![
            op(Pipe::Mte2, &[0], &[1], "nd2nz A"),
            op(Pipe::Mte1, &[1], &[2], "load A"),
            Item::If(vec![vec![op(Pipe::M, &[2], &[4], "mmad")], vec![op(Pipe::M, &[2, 4], &[4], "mmad acc")]]),
            op(Pipe::Fix, &[4], &[5], "fixpipe"),
        ];
        let s = synchronize(&p).unwrap();
        assert_eq!(
            events(&s),
            vec![
                (true, "MTE2_MTE1".into(), At::After(vec![0])),
                (false, "MTE2_MTE1".into(), At::Before(vec![1])),
                (true, "MTE1_M".into(), At::After(vec![1])),
                (false, "MTE1_M".into(), At::Before(vec![2])),
                (true, "M_FIX".into(), At::After(vec![2])),
                (false, "M_FIX".into(), At::Before(vec![3])),
            ]
        );
    }

    /// Tiles in a loop, each a K loop of Mmads and a Fixpipe on one L0C: with the unitFlag on
    /// every Mmad and the Fixpipe the M -> FIX and carried FIX -> M dependences are the
    /// handshake's (no event), the others keep theirs; with the flag on one side only, or on
    /// one Mmad of several, the events stay.
    #[test]
    fn the_unit_flag_handshake_replaces_only_the_m_fix_and_fix_m_events() {
        let tiles = |mmad: &dyn Fn(Item) -> Item, fix: &dyn Fn(Item) -> Item| {
            vec![Item::Loop(vec![
                op(Pipe::Mte1, &[1], &[2], "load A"),
                mmad(op(Pipe::M, &[2, 3], &[4], "mmad")),
                Item::Loop(vec![op(Pipe::Mte1, &[1], &[2], "load A"), mmad(op(Pipe::M, &[2, 3, 4], &[4], "mmad acc"))]),
                fix(op(Pipe::Fix, &[4], &[5], "fixpipe")),
            ])]
        };
        let names = |s: &Sync| -> BTreeSet<String> { s.flags.iter().map(Flag::event).collect() };
        let both = synchronize(&tiles(&unit, &unit)).unwrap();
        assert_eq!(names(&both), ["M_MTE1", "MTE1_M"].map(String::from).into());
        let handshakes: Vec<_> =
            both.deps.iter().filter(|d| d.handshake).map(|d| (d.from.1, d.to.1, d.carried)).collect();
        assert!(handshakes.contains(&(Pipe::M, Pipe::Fix, false)), "{handshakes:?}");
        assert!(handshakes.contains(&(Pipe::Fix, Pipe::M, true)), "{handshakes:?}");
        assert!(both.dot.contains("unitFlag"));
        let none = synchronize(&tiles(&|i| i, &|i| i)).unwrap();
        assert!(names(&none).is_superset(&["M_FIX", "FIX_M"].map(String::from).into()), "{:?}", names(&none));
        for one_sided in [synchronize(&tiles(&unit, &|i| i)).unwrap(), synchronize(&tiles(&|i| i, &unit)).unwrap()] {
            assert_eq!(names(&one_sided), names(&none));
            assert!(!one_sided.deps.iter().any(|d| d.handshake));
        }
        // The loop's Mmads without the flag: the loop is not all handshake on M.
        let mut mixed = tiles(&unit, &unit);
        if let Item::Loop(body) = &mut mixed[0] {
            body[2] = Item::Loop(vec![op(Pipe::Mte1, &[1], &[2], "load A"), op(Pipe::M, &[2, 3, 4], &[4], "mmad acc")]);
        }
        assert!(names(&synchronize(&mixed).unwrap()).contains("M_FIX"));
    }

    /// Dependences inside one region get their pair inside that region; the two regions are
    /// exclusive, so their pairs may share an event id.
    #[test]
    fn pairs_inside_a_region_stay_inside_it() {
        let p = vec![Item::If(vec![
            vec![op(Pipe::Mte1, &[1], &[2], "load A"), op(Pipe::M, &[2], &[4], "mmad")],
            vec![op(Pipe::Mte1, &[6], &[2], "load A'"), op(Pipe::M, &[2], &[4], "mmad'")],
        ])];
        let s = synchronize(&p).unwrap();
        assert_eq!(
            events(&s),
            vec![
                (true, "MTE1_M".into(), At::After(vec![0, 0, 0])),
                (false, "MTE1_M".into(), At::Before(vec![0, 0, 1])),
                (true, "MTE1_M".into(), At::After(vec![0, 1, 0])),
                (false, "MTE1_M".into(), At::Before(vec![0, 1, 1])),
            ]
        );
        assert!(s.flags.iter().all(|f| f.id == 0), "{:?}", s.flags);
    }

    /// `for k { load A; if (k == 0) mmad else mmad acc }`: the next iteration's load must wait
    /// for this iteration's mmad (carried WAR on L0A) whichever branch ran: set after the
    /// `scf.if`, wait before the load, plus the prologue set and the epilogue wait.
    #[test]
    fn a_branch_in_a_loop_gets_the_back_edge_sync() {
        let p = vec![
            Item::Loop(vec![
                op(Pipe::Mte1, &[1], &[2], "load A"),
                Item::If(vec![vec![op(Pipe::M, &[2], &[4], "mmad")], vec![op(Pipe::M, &[2, 4], &[4], "mmad acc")]]),
            ]),
            op(Pipe::Fix, &[4], &[5], "fixpipe"),
        ];
        let ev = events(&synchronize(&p).unwrap());
        for want in [
            (true, "MTE1_M".into(), At::After(vec![0, 0])),
            (false, "MTE1_M".into(), At::Before(vec![0, 1])),
            (true, "M_MTE1".into(), At::After(vec![0, 1])),
            (false, "M_MTE1".into(), At::Before(vec![0, 0])),
            (true, "M_MTE1".into(), At::Before(vec![0])),
            (false, "M_MTE1".into(), At::After(vec![0])),
            (true, "M_FIX".into(), At::After(vec![0])),
            (false, "M_FIX".into(), At::Before(vec![1])),
        ] {
            assert!(ev.contains(&want), "missing {want:?} in {ev:?}");
        }
        assert_eq!(ev.len(), 8, "{ev:?}");
    }
}
