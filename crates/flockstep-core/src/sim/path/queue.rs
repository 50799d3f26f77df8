//! The open list's entries and the queue contract, and the 4-ary heap: a lesson's open list (its array is part of the state) and the plain run's fallback.

use super::*;

/// The open-list key's serde form: a decimal string where the format is
/// read by people (JSON), the number itself where it is binary.
pub(super) mod wide_key {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(key: &u128, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.collect_str(key)
        } else {
            s.serialize_u128(*key)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        if d.is_human_readable() {
            let s = String::deserialize(d)?;
            s.parse()
                .map_err(|_| D::Error::custom(format!("`{s}` is not an open-list key")))
        } else {
            u128::deserialize(d)
        }
    }
}

/// An open-list entry, ordered by its key alone: a total order, since the
/// key ends with the unique push counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct OpenEntry {
    /// `f16 · 2⁶⁴ + tie · 2³² + seq`: `f` (16 fractional bits), then the
    /// 32-bit tie-break key (see [`TieBreak`]; `g` and `h` saturate at
    /// 2³² − 1 there, beyond which ties fall back to `seq`), then the push
    /// counter. Text formats (`flockstep dump --json`) write it as a
    /// decimal string, since it exceeds the 64 bits a JSON number holds
    /// exactly; binary ones (replays, the state hash) as a `u128`.
    #[serde(with = "wide_key")]
    pub key: u128,
    /// The `g` it was pushed with (a copy with a larger `g` than the cell
    /// now holds is stale).
    pub g: u64,
    /// The cell index (`y · width + x`).
    pub cell: u32,
    /// The cell's column.
    pub x: u16,
    /// The cell's row.
    pub y: u16,
}

impl OpenEntry {
    /// `f` in 16-bit fixed point.
    pub fn f16(&self) -> u64 {
        (self.key >> 64) as u64
    }

    /// Whether the cell now holds a lower `g` than this entry was pushed
    /// with (`g` is the search's per-cell costs).
    pub fn is_stale(&self, g: &[u64]) -> bool {
        g[self.cell as usize] < self.g
    }

    /// The push counter.
    pub fn seq(&self) -> u32 {
        self.key as u32
    }
}

/// Children per node of the open list's heap: a 4-ary heap is shallower
/// than a binary one, and siblings sit next to each other in memory.
pub(super) const ARITY: usize = 4;

/// Pushes onto the 4-ary min-heap (sift-up moving a hole, not swapping).
#[inline]
pub(super) fn heap_push(heap: &mut Vec<OpenEntry>, e: OpenEntry) {
    let mut i = heap.len();
    heap.push(e);
    while i > 0 {
        let parent = (i - 1) / ARITY;
        if heap[parent].key <= e.key {
            break;
        }
        heap[i] = heap[parent];
        i = parent;
    }
    heap[i] = e;
}

/// Pops the smallest entry of the 4-ary min-heap.
#[inline]
pub(super) fn heap_pop(heap: &mut Vec<OpenEntry>) -> Option<OpenEntry> {
    let last = heap.pop()?;
    if heap.is_empty() {
        return Some(last);
    }
    let top = heap[0];
    let n = heap.len();
    let mut i = 0;
    loop {
        let first = ARITY * i + 1;
        if first >= n {
            break;
        }
        let mut c = first;
        for j in first + 1..(first + ARITY).min(n) {
            if heap[j].key < heap[c].key {
                c = j;
            }
        }
        if last.key <= heap[c].key {
            break;
        }
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = last;
    Some(top)
}

/// An open list: push entries, pop the one with the smallest key.
pub trait OpenQueue: Default {
    /// Adds an entry.
    fn push(&mut self, e: OpenEntry);
    /// Removes the entry with the smallest key.
    fn pop(&mut self) -> Option<OpenEntry>;
    /// Every entry held, in no particular order.
    fn entries(&self) -> Vec<OpenEntry>;
    /// The most bytes it has held at once (its peak).
    fn bytes(&self) -> usize;
    /// Empties it for a new query, keeping its memory.
    fn clear(&mut self);
}

/// The open list as a 4-ary min-heap on [`OpenEntry`] keys: any key order,
/// any tie-break; its array is part of a lesson's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Heap(pub Vec<OpenEntry>);

impl OpenQueue for Heap {
    #[inline]
    fn push(&mut self, e: OpenEntry) {
        heap_push(&mut self.0, e);
    }
    #[inline]
    fn pop(&mut self) -> Option<OpenEntry> {
        heap_pop(&mut self.0)
    }
    fn entries(&self) -> Vec<OpenEntry> {
        self.0.clone()
    }
    fn bytes(&self) -> usize {
        self.0.capacity() * size_of::<OpenEntry>()
    }
    fn clear(&mut self) {
        self.0.clear();
    }
}
