//! Does the schedule of the double-buffered K loop let the pipes overlap? The lowered kernel's
//! program tree and the flags [`sync::synchronize`] places are replayed with vector clocks
//! (the model's synccheck, docs/sanitizer.md: each pipe in order, a WaitFlag joins the clock of
//! its SetFlag): op `u` is *ordered before* `v` when `v`'s clock covers `u`. Two ops not
//! ordered either way may run at the same time on the device.
//!
//! Slices are numbered by the Mmads of one C tile (an op belongs to the slice of the next
//! Mmad; a Fixpipe ends the tile). Single-buffered (examples/gemm_dynamic_k.mlir), the L1 copy
//! of slice s + 1 waits for the L1 → L0 copy of slice s (WAR on L1) and that copy of s + 1 for
//! the Mmad of s (WAR on L0A/L0B). Double-buffered, neither: the copies of slice s + 1 are
//! ordered after nothing of slice s.

use std::collections::{BTreeMap, VecDeque};

use super::flags::{functions, program};
use super::sync::{self, At, Flag, Item, Pipe};

const PIPES: [Pipe; 5] = [Pipe::Mte2, Pipe::Mte1, Pipe::M, Pipe::Fix, Pipe::Mte3];

fn lane(p: Pipe) -> usize {
    PIPES.iter().position(|&q| q == p).unwrap()
}

/// One executed op: its pipe, its C tile and K slice, and its pipe's clock after it.
#[derive(Debug)]
struct Done {
    pipe: Pipe,
    tile: usize,
    slice: usize,
    clock: [u64; 5],
}

struct Replay<'f> {
    flags: &'f [Flag],
    trips: usize,
    clocks: [[u64; 5]; 5],
    queues: BTreeMap<(Pipe, Pipe, u32), VecDeque<[u64; 5]>>,
    done: Vec<Done>,
    tile: usize,
    slice: usize,
}

impl Replay<'_> {
    fn flag(&mut self, f: &Flag) {
        let key = (f.src, f.dst, f.id);
        if f.set {
            let c = self.clocks[lane(f.src)];
            self.queues.entry(key).or_default().push_back(c);
        } else {
            let c = self.queues.get_mut(&key).and_then(|q| q.pop_front());
            let c = c.unwrap_or_else(|| panic!("WaitFlag<{}>({}) with no SetFlag: deadlock", f.event(), f.id));
            let d = &mut self.clocks[lane(f.dst)];
            for i in 0..5 {
                d[i] = d[i].max(c[i]);
            }
        }
    }

    fn at(&mut self, at: &At) {
        let flags = self.flags;
        for f in flags.iter().filter(|f| &f.at == at) {
            self.flag(f);
        }
    }

    /// Runs `items` (loops `trips` times, the then-region of every branch).
    fn run(&mut self, items: &[Item], path: &[usize]) {
        for (i, item) in items.iter().enumerate() {
            let mut p = path.to_vec();
            p.push(i);
            self.at(&At::Before(p.clone()));
            match item {
                Item::Op(a) => {
                    let l = lane(a.pipe);
                    self.clocks[l][l] += 1;
                    let (tile, slice) = (self.tile, self.slice);
                    self.done.push(Done { pipe: a.pipe, tile, slice, clock: self.clocks[l] });
                    match a.pipe {
                        Pipe::M => self.slice += 1,
                        Pipe::Fix => (self.tile, self.slice) = (self.tile + 1, 0),
                        _ => {}
                    }
                }
                Item::Loop(body) => (0..self.trips).for_each(|_| self.run(body, &p)),
                Item::If(regions) => {
                    let mut region = p.clone();
                    region.push(0);
                    self.run(&regions[0], &region);
                }
            }
            self.at(&At::After(p));
        }
    }
}

fn ordered(u: &Done, v: &Done) -> bool {
    let l = lane(u.pipe);
    v.clock[l] >= u.clock[l]
}

/// The replay of `source` lowered (after `layout-multi-buffer` when `double`), every loop run
/// three times (3 × 3 tiles of C, 1 + 3 or 1 + 6 K slices each).
fn replay(source: &str, double: bool) -> Vec<Done> {
    let context = layout_dialect::create_context().expect("context");
    context.get_or_load_dialect("arith");
    context.get_or_load_dialect("scf");
    let module = layout_dialect::parse_source(&context, source).expect("parse");
    if double {
        assert!(matches!(crate::multi_buffer::multi_buffer(module.as_operation()), Ok(n) if n >= 1));
    }
    super::lower(module.as_operation()).expect("lowered");
    let func = functions(module.as_operation()).into_iter().next().unwrap();
    let items = program(func);
    let s = sync::synchronize(&items).unwrap();
    let mut r = Replay {
        flags: &s.flags,
        trips: 3,
        clocks: [[0; 5]; 5],
        queues: BTreeMap::new(),
        done: vec![],
        tile: 0,
        slice: 0,
    };
    r.run(&items, &[]);
    assert!(r.queues.values().all(|q| q.is_empty()), "a flag is still set at the end: {:?}", r.queues);
    r.done
}

/// Whether some op on `p` of slice s is ordered before some op on `q` of slice s + 1 (same
/// tile, s ≥ 1: slice 0 is peeled before the loop and synchronised with it as a whole).
fn behind(done: &[Done], p: Pipe, q: Pipe) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for u in done.iter().filter(|u| u.pipe == p && u.slice >= 1) {
        for v in done.iter().filter(|v| v.pipe == q && v.tile == u.tile && v.slice == u.slice + 1) {
            if ordered(u, v) && !out.contains(&(u.tile, u.slice)) {
                out.push((u.tile, u.slice));
            }
        }
    }
    out
}

#[test]
fn double_buffering_lets_the_copies_of_the_next_slice_overlap() {
    let source =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/gemm_dynamic_k.mlir")).unwrap();
    let single = replay(&source, false);
    let double = replay(&source, true);
    let slices = |d: &[Done]| d.iter().filter(|o| o.pipe == Pipe::M).count();
    assert_eq!((slices(&single), slices(&double)), (9 * 4, 9 * 7));
    // Single-buffered: both copies of slice s + 1 wait for slice s, in every tile and slice.
    assert_eq!(behind(&single, Pipe::Mte1, Pipe::Mte2).len(), 9 * 2);
    assert_eq!(behind(&single, Pipe::M, Pipe::Mte1).len(), 9 * 2);
    // The L1 copy never waits for the Mmad of the slice before, in either form.
    assert_eq!(behind(&single, Pipe::M, Pipe::Mte2), []);
    // Double-buffered: nothing of slice s orders the copies of slice s + 1.
    for (p, q) in [(Pipe::Mte1, Pipe::Mte2), (Pipe::M, Pipe::Mte1), (Pipe::M, Pipe::Mte2)] {
        assert_eq!(behind(&double, p, q), [], "{} of slice s before {} of slice s + 1", p.name(), q.name());
    }
    // ... but two slices back (the same buffer) it does: the flags are there, not lost.
    let two_back = double.iter().filter(|u| u.pipe == Pipe::Mte1 && u.slice >= 1).any(|u| {
        double.iter().any(|v| v.pipe == Pipe::Mte2 && v.tile == u.tile && v.slice == u.slice + 2 && ordered(u, v))
    });
    assert!(two_back);
}

/// Whether the Fixpipe of some C tile t is ordered before some Mmad of tile t + `ahead`.
fn fixpipe_before(done: &[Done], ahead: usize) -> bool {
    done.iter()
        .filter(|u| u.pipe == Pipe::Fix)
        .any(|u| done.iter().any(|v| v.pipe == Pipe::M && v.tile == u.tile + ahead && ordered(u, v)))
}

/// The loop over a block's C tiles with a second L0C accumulator (the generator's 64 × 64
/// tiles, two-level K): single-buffered, the first Mmad of tile t + 1 waits for the Fixpipe of
/// tile t (it overwrites what the Fixpipe reads); double-buffered, no Mmad of tile t + 1 is
/// ordered after that Fixpipe, those of tile t + 2 (the same accumulator) are.
#[test]
fn a_second_accumulator_lets_the_fixpipe_overlap_the_next_tile() {
    use layout_algebra::ascend::Target;
    let tiles = |stages| gemm_gen::Tiles { m1: 64, n1: 64, k1: 128, k0: 64, stages };
    let single = replay(&crate::multi_buffer::tests::generated(Target::A2, tiles(1)), false);
    let double = replay(&crate::multi_buffer::tests::generated(Target::A2, tiles(2)), true);
    let fixpipes = |d: &[Done]| d.iter().filter(|o| o.pipe == Pipe::Fix).count();
    // 3 trips of the tile loop; unrolled, each trip runs two tiles.
    assert_eq!((fixpipes(&single), fixpipes(&double)), (3, 6));
    assert!(fixpipe_before(&single, 1));
    assert!(!fixpipe_before(&double, 1), "a Fixpipe orders the Mmads of the next tile");
    assert!(fixpipe_before(&double, 2), "the flags of the shared accumulator are there");
}
