//! Multi-core launches on the CPU: a kernel launched with `blockDim = N` runs as N calls, one
//! per block, over one shared global-memory image (the memref arguments), in a shuffled but
//! seeded order ([`block_order`]), so a kernel whose result depends on the order of its blocks
//! (or whose blocks write the same bytes) is caught by a difference between seeds or by the
//! racecheck (docs/sanitizer.md).
//!
//! The loop lowering reads the block through two runtime functions
//! (`layout_passes::lower_to_loops::block::{BLOCK_IDX, BLOCK_NUM}`) which [`crate::Jit`]
//! registers: they return this thread's current block, set by [`run_blocks`] (0 of 1 outside it).

use std::cell::Cell;

thread_local! {
    /// (block index, block count) of the call running on this thread.
    static CURRENT: Cell<(i64, i64)> = const { Cell::new((0, 1)) };
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
    let result = block_order(dim, seed).into_iter().try_for_each(|b| {
        CURRENT.with(|c| c.set((i64::from(b), i64::from(dim))));
        body(b)
    });
    CURRENT.with(|c| c.set((0, 1)));
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
