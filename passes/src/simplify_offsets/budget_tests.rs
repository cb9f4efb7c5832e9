//! The per-tree node budget ([`MAX_TREE_NODES`]): on a long `arith.addi` chain the pass costs
//! memory linear in the chain's length (the reader used to keep every intermediate value's
//! whole tree, ~250 KB per link), splits the chain into trees within the budget, reports each
//! split, and still computes the same value. Work is measured as bytes allocated by this
//! thread during the pass, never as time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;

use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, WalkOrder, WalkResult},
    RegionLike, ValueLike,
};

use super::reader::MAX_TREE_NODES;
use super::simplify_offsets;
use crate::ir::{constant_int, op_name};

/// The system allocator, counting the bytes each thread asks for (Rust allocations only; MLIR's
/// C++ allocations are not seen, and are linear in the ops created anyway).
struct CountingAlloc;

thread_local! {
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

fn count(bytes: usize) {
    // `try_with`: no panic while a thread's locals are being torn down.
    let _ = ALLOCATED.try_with(|c| c.set(c.get() + bytes as u64));
}

// Safety: forwards to `System`; only adds a thread-local counter that never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static COUNTING: CountingAlloc = CountingAlloc;

pub(crate) fn allocated() -> u64 {
    ALLOCATED.with(Cell::get)
}

/// `func @chain(%a, %b) -> index` returning `a + n·b` as `n` chained `arith.addi`.
fn chain(n: usize) -> String {
    let mut text = String::from("func.func @chain(%a: index, %b: index) -> index {\n");
    let mut prev = "%a".to_string();
    for k in 0..n {
        text.push_str(&format!("  %x{k} = arith.addi {prev}, %b : index\n"));
        prev = format!("%x{k}");
    }
    text.push_str(&format!("  return {prev} : index\n}}\n"));
    text
}

/// The returned value of the (only) function of `module` at `%a`, `%b`, by interpreting its
/// `arith` ops in order (wrapping, as `index` arithmetic on a 64-bit target).
fn evaluate(module: &melior::ir::Module, a: i64, b: i64) -> Result<i64, String> {
    let func = module.body().first_operation().ok_or("no function")?;
    let body = func.region(0).map_err(|e| e.to_string())?.first_block().ok_or("no body")?;
    let mut env: HashMap<usize, i64> = HashMap::new();
    env.insert(body.argument(0).map_err(|e| e.to_string())?.to_raw().ptr as usize, a);
    env.insert(body.argument(1).map_err(|e| e.to_string())?.to_raw().ptr as usize, b);
    let mut op = body.first_operation();
    while let Some(o) = op {
        let name = op_name(&o);
        let arg = |i: usize| -> Result<i64, String> {
            let v = o.operand(i).map_err(|e| e.to_string())?;
            env.get(&(v.to_raw().ptr as usize)).copied().ok_or_else(|| format!("{name}: unknown operand {i}"))
        };
        let value = match name.as_str() {
            "func.return" => return arg(0),
            "arith.constant" => {
                let result = o.result(0).map_err(|e| e.to_string())?;
                constant_int(result.into()).ok_or("non-integer constant")?
            }
            "arith.addi" => arg(0)?.wrapping_add(arg(1)?),
            "arith.subi" => arg(0)?.wrapping_sub(arg(1)?),
            "arith.muli" => arg(0)?.wrapping_mul(arg(1)?),
            "arith.shli" => arg(0)?.wrapping_shl(u32::try_from(arg(1)?).map_err(|e| e.to_string())?),
            other => return Err(format!("unexpected op {other} in the simplified chain")),
        };
        env.insert(o.result(0).map_err(|e| e.to_string())?.to_raw().ptr as usize, value);
        op = o.next_in_block();
    }
    Err("no return".into())
}

fn count_ops(module: &melior::ir::Module, name: &str) -> usize {
    let mut n = 0;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        n += usize::from(op_name(&op) == name);
        WalkResult::Advance
    });
    n
}

/// 20,000 links: every tree stays within the budget, the chain is split every
/// `MAX_TREE_NODES + 1` links (each split reported with its size), each piece `x + 200·b` is
/// cheaper and rewritten, the function still returns `a + n·b`, and the pass allocates a
/// bounded number of bytes per link (the old reader allocated over 250 KB per link here).
#[test]
fn a_long_addi_chain_is_split_into_budgeted_trees_in_linear_memory() {
    // Large enough for the old reader's cost to show (it kept 2,000-node trees per value), small
    // enough for a debug build (~100 trees through the e-graph).
    const N: usize = 20_000;
    const BYTES_PER_LINK: u64 = 8_000;
    let context = super::tests::context();
    let module = layout_dialect::parse_source(&context, &chain(N)).expect("parse");
    let before = allocated();
    let summary = simplify_offsets(module.as_operation());
    let bytes = allocated() - before;
    assert!(
        bytes <= BYTES_PER_LINK * N as u64,
        "the pass allocated {bytes} bytes for {N} links ({} per link)",
        bytes / N as u64
    );
    // x_k has k + 1 additions until x_200 would have 201: split there, and so on.
    let split_every = MAX_TREE_NODES + 1;
    assert_eq!(summary.split.len(), N / split_every);
    assert!(summary.split.iter().all(|s| s.size == split_every), "{:?}", &summary.split[..3]);
    assert_eq!(summary.roots.len(), summary.split.len() + 1);
    assert_eq!(summary.rewritten(), summary.roots.len());
    assert!(summary.roots.iter().all(|r| !r.report.bound_hit && r.report.input.depth() <= MAX_TREE_NODES + 1));
    assert!(summary.errors.is_empty(), "{:?}", summary.errors);
    assert!(module.as_operation().verify());
    // The split values stay additions; each piece is now a multiplication and an addition.
    assert!(count_ops(&module, "arith.addi") < 3 * (summary.split.len() + 1), "{}", count_ops(&module, "arith.addi"));
    for (a, b) in [(7, 3), (-5, 11), (0, -2)] {
        assert_eq!(evaluate(&module, a, b), Ok(a + N as i64 * b), "a = {a}, b = {b}");
    }
}
