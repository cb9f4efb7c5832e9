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
//! `layout_passes::lower_to_loops::racecheck`): the racecheck of the loop back end.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

thread_local! {
    /// (block index, block count) of the call running on this thread.
    static CURRENT: Cell<(i64, i64)> = const { Cell::new((0, 1)) };
    /// The block that last wrote each GM byte (by address) during this thread's launch.
    static WRITERS: RefCell<HashMap<usize, i64>> = RefCell::new(HashMap::new());
    /// Whether a launch of [`run_blocks`] is running (writes outside one are not tracked).
    static IN_LAUNCH: Cell<bool> = const { Cell::new(false) };
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
    if !IN_LAUNCH.with(Cell::get) {
        return;
    }
    let me = CURRENT.with(|c| c.get().0);
    let start = (base as usize).wrapping_add(byte as usize);
    let mut other = None;
    WRITERS.with(|w| {
        let Ok(mut w) = w.try_borrow_mut() else { return };
        for i in 0..bytes.max(0) as usize {
            if let Some(previous) = w.insert(start.wrapping_add(i), me) {
                if previous != me && other.is_none() {
                    other = Some(previous);
                }
            }
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
