//! The L2 cache of the model: which MTE2 reads of GM hit the on-chip L2. A read is named by
//! its footprint ([`Footprint`]: the GM tensor and the source-side fields of the call, so the
//! same tile read by two cores, or twice by one, is the same footprint; overlapping but
//! different tiles are different). The L2 is an LRU of footprints, `l2_bytes` large, visited
//! in schedule order ([`hits`]): the cores' reads interleaved one at a time, every core's n-th
//! read before any (n+1)-th, as if every core advanced at the same pace, the n-th round
//! starting at core n mod cores (so no core is always the first to read, and to miss, a
//! shared tile); a core's blocks run one after another. GM writes (Fixpipe) are not cached.
//! docs/cost-model.md §7.

use std::collections::{BTreeMap, HashMap};

/// What one GM read touches: the source tensor, the intrinsic and the values of its
/// source-side fields (sizes, source strides, source offset of this repeat).
pub type Footprint = Box<[i64]>;

/// An LRU cache of footprints of a given byte capacity.
#[derive(Debug)]
pub struct Lru {
    capacity: i64,
    used: i64,
    tick: u64,
    /// Footprint -> (last use, bytes).
    resident: HashMap<Footprint, (u64, i64)>,
    /// Last use -> footprint, oldest first.
    by_age: BTreeMap<u64, Footprint>,
}

impl Lru {
    pub fn new(capacity: i64) -> Self {
        Lru { capacity, used: 0, tick: 0, resident: HashMap::new(), by_age: BTreeMap::new() }
    }

    /// Reads `bytes` named `key`: whether they were resident. Either way they are the most
    /// recently used afterwards; the least recently used footprints leave until they fit. A
    /// read larger than the whole cache is never kept.
    pub fn access(&mut self, key: &Footprint, bytes: i64) -> bool {
        self.tick += 1;
        if let Some((age, _)) = self.resident.get_mut(key) {
            let old = std::mem::replace(age, self.tick);
            let k = self.by_age.remove(&old).unwrap_or_else(|| key.clone());
            self.by_age.insert(self.tick, k);
            return true;
        }
        if bytes > self.capacity {
            return false;
        }
        while self.used + bytes > self.capacity {
            let Some((_, oldest)) = self.by_age.pop_first() else { break };
            if let Some((_, b)) = self.resident.remove(&oldest) {
                self.used -= b;
            }
        }
        self.used += bytes;
        self.resident.insert(key.clone(), (self.tick, bytes));
        self.by_age.insert(self.tick, key.clone());
        false
    }
}

/// For each block, whether each of its GM reads (in program order) hits L2. `reads[b]`: block
/// b's reads as (footprint, bytes); block b runs on core b mod `cores`, after the blocks
/// b - cores, b - 2 cores, ... The cores' read sequences are interleaved one read at a time,
/// round n starting at core n mod `cores`.
pub fn hits(reads: &[&[(Footprint, i64)]], cores: usize, capacity: i64) -> Vec<Vec<bool>> {
    let cores = cores.max(1);
    // Per core: (block, read index) in the order the core issues them.
    let queues: Vec<Vec<(usize, usize)>> = (0..cores)
        .map(|c| (c..reads.len()).step_by(cores).flat_map(|b| (0..reads[b].len()).map(move |i| (b, i))).collect())
        .collect();
    let mut out: Vec<Vec<bool>> = reads.iter().map(|r| vec![false; r.len()]).collect();
    let mut lru = Lru::new(capacity);
    let longest = queues.iter().map(Vec::len).max().unwrap_or(0);
    for step in 0..longest {
        for c in 0..cores {
            if let Some(&(b, i)) = queues[(c + step) % cores].get(step) {
                let (key, bytes) = &reads[b][i];
                out[b][i] = lru.access(key, *bytes);
            }
        }
    }
    out
}
