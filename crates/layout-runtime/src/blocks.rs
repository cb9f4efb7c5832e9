//! Multi-core launches on the CPU: a kernel launched with `blockDim = N` runs as N calls, one
//! per block, over one shared global-memory image (the memref arguments), in a shuffled but
//! seeded order ([`block_order`]), so a kernel whose result depends on the order of its blocks
//! (or whose blocks write the same bytes) is caught by a difference between seeds or by the
//! racecheck (docs/sanitizer.md).
//!
//! The loop lowering reads the block through two runtime functions
//! (`layout_passes::lower_to_loops::block::{BLOCK_IDX, BLOCK_NUM}`) which [`crate::Jit`]
//! registers: they return this thread's current block, set by [`run_blocks`] (0 of 1 outside it).
//! Under `--sanitize` the lowering also reports every GM byte a copy stores ([`gm_write`],
//! `layout_passes::lower_to_loops::racecheck`): the racecheck of the loop back end. Atomic adds
//! ([`gm_atomic_add`]) of several blocks into the same bytes are no race; a plain write of a byte
//! another block wrote or added into, or an add into a byte another block wrote plainly, is.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

thread_local! {
    /// (block index, block count) of the call running on this thread.
    static CURRENT: Cell<(i64, i64)> = const { Cell::new((0, 1)) };
    /// Who wrote each GM byte (by address) during this thread's launch.
    static WRITERS: RefCell<HashMap<usize, Writers>> = RefCell::new(HashMap::new());
    /// Whether a launch of [`run_blocks`] is running (writes outside one are not tracked).
    static IN_LAUNCH: Cell<bool> = const { Cell::new(false) };
}

/// The blocks that wrote one GM byte: the last one, the last other one before it, and one that
/// wrote it plainly (not by an atomic add), if any.
#[derive(Clone, Copy, Debug)]
struct Writers {
    last: i64,
    other: Option<i64>,
    plain: Option<i64>,
}

impl Writers {
    /// Records a write by `me` (an atomic add when `atomic`); returns a block whose earlier
    /// write of this byte races with it.
    fn write(slot: Option<&mut Writers>, me: i64, atomic: bool) -> (Option<i64>, Writers) {
        let Some(w) = slot else {
            return (None, Writers { last: me, other: None, plain: (!atomic).then_some(me) });
        };
        let race = if atomic {
            w.plain.filter(|&p| p != me)
        } else if w.last != me {
            Some(w.last)
        } else {
            w.other.filter(|&o| o != me)
        };
        let mut next = *w;
        if next.last != me {
            next.other = Some(next.last);
            next.last = me;
        }
        if !atomic && next.plain.is_none() {
            next.plain = Some(me);
        }
        (race, next)
    }
}

/// The order the CPU drivers run blocks `0..dim` in: a Fisher–Yates shuffle driven by
/// `layout_npy::random::Rng::new(seed)`; every block exactly once.
pub fn block_order(dim: u32, seed: u64) -> Vec<u32> {
    let mut order: Vec<u32> = (0..dim).collect();
    let mut rng = layout_npy::random::Rng::new(seed ^ 0x6c61_756e_6368);
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    order
}

/// Runs `body(block)` for every block of a `dim`-block launch in [`block_order`], with the
/// current block set for the runtime functions; stops at the first error.
pub fn run_blocks<E>(dim: u32, seed: u64, mut body: impl FnMut(u32) -> Result<(), E>) -> Result<(), E> {
    WRITERS.with(|w| w.borrow_mut().clear());
    IN_LAUNCH.with(|l| l.set(true));
    let result = block_order(dim, seed).into_iter().try_for_each(|b| {
        CURRENT.with(|c| c.set((i64::from(b), i64::from(dim))));
        body(b)
    });
    CURRENT.with(|c| c.set((0, 1)));
    IN_LAUNCH.with(|l| l.set(false));
    WRITERS.with(|w| w.borrow_mut().clear());
    result
}

/// Calls `name` once per block of a `dim`-block launch (the loop back end's multi-core run):
/// the memref arguments are the one GM image every block reads and writes.
pub fn call_blocks(
    jit: &crate::Jit,
    name: &str,
    args: &mut [crate::Arg],
    dim: u32,
    seed: u64,
) -> Result<(), crate::Error> {
    run_blocks(dim, seed, |_| jit.call(name, args).map(|_| ()))
}

/// `__layout_block_idx`: the current block of this thread.
pub(crate) extern "C" fn current_block_idx() -> i64 {
    CURRENT.with(|c| c.get().0)
}

/// `__layout_block_num`: the block count of the current launch on this thread.
pub(crate) extern "C" fn current_block_num() -> i64 {
    CURRENT.with(|c| c.get().1)
}

/// `__layout_gm_write(message, length, base, byte, bytes)`: the current block stores `bytes`
/// bytes at byte `byte` of the GM buffer at `base`. A byte another block of the launch wrote
/// fails the call with the message (`{block}`, `{other}`, `{lo}`, `{hi}` filled in).
pub(crate) extern "C" fn gm_write(message: *const u8, length: i64, base: i64, byte: i64, bytes: i64) {
    record_write(message, length, (base, byte, bytes), false);
}

/// `__layout_gm_atomic_add(message, length, base, byte, bytes)`: as [`gm_write`] for an atomic
/// add, which races only with another block's plain write of the same bytes.
pub(crate) extern "C" fn gm_atomic_add(message: *const u8, length: i64, base: i64, byte: i64, bytes: i64) {
    record_write(message, length, (base, byte, bytes), true);
}

fn record_write(message: *const u8, length: i64, (base, byte, bytes): (i64, i64, i64), atomic: bool) {
    if !IN_LAUNCH.with(Cell::get) {
        return;
    }
    let me = CURRENT.with(|c| c.get().0);
    let start = (base as usize).wrapping_add(byte as usize);
    let mut other = None;
    WRITERS.with(|w| {
        let Ok(mut w) = w.try_borrow_mut() else { return };
        for i in 0..bytes.max(0) as usize {
            let at = start.wrapping_add(i);
            let (race, next) = Writers::write(w.get_mut(&at), me, atomic);
            w.insert(at, next);
            other = other.or(race);
        }
    });
    let (Some(other), false) = (other, message.is_null() || length < 0) else { return };
    // Safety: the kernel passes its constant message global of `length` bytes.
    let text = String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(message, length as usize) })
        .replace("{block}", &me.to_string())
        .replace("{other}", &other.to_string())
        .replace("{lo}", &byte.to_string())
        .replace("{hi}", &(byte + bytes).to_string());
    crate::jit::record_failure(text);
}

/// Replays writes `(block, atomic)` of one GM byte through the racecheck's bookkeeping and
/// returns the index of each write that races with an earlier one: the racecheck's rule in one
/// function the integration tests can reach (this lib's own unit tests do not run: `test = false`).
///
/// `[(0, true), (1, true)]` (two blocks adding) gives `[]`; `[(0, false), (1, true)]` gives `[1]`.
pub fn racing_writes(writes: &[(i64, bool)]) -> Vec<usize> {
    let mut slot: Option<Writers> = None;
    let mut out = Vec::new();
    for (i, &(me, atomic)) in writes.iter().enumerate() {
        let (race, next) = Writers::write(slot.as_mut(), me, atomic);
        if race.is_some() {
            out.push(i);
        }
        slot = Some(next);
    }
    out
}
