//! The bucket queue: O(1) pushes and pops for FIFO ties under a whole-valued consistent heuristic, in exactly the heap's order.

use super::*;

/// The open list as a ring of FIFO buckets, one per whole `f`, for the
/// case where it pops in exactly the heap's order at O(1) a step: FIFO
/// tie-break and a consistent heuristic with whole values (Manhattan or
/// zero, weight 1). Then `f` never decreases along the search and a push
/// lands at most `max step cost + 1` above the `f` being expanded, so
/// `max step cost + 2` buckets suffice; within a bucket, push order is
/// `seq` order — the heap's key order. `tests/path.rs` checks that both
/// containers expand the same cells in the same order.
#[derive(Clone, Debug, Default)]
pub struct Buckets {
    /// Per bucket: `(g, cell, x, y)` — the bucket is the entry's `f`, and
    /// FIFO order its `seq`, so the key need not be stored (16 bytes, not 32).
    pub(super) ring: Vec<std::collections::VecDeque<(u64, u32, u16, u16)>>,
    /// The `f` of the bucket at the cursor: the last popped `f` (or the
    /// first pushed, before any pop). It only moves forward.
    pub(super) cursor_f: u64,
    pub(super) len: usize,
    pub(super) started: bool,
    /// Entries' worth of memory the buckets hold now, and at most so far.
    pub(super) cap: usize,
    pub(super) peak_cap: usize,
}

impl Buckets {
    pub(super) fn with_span(span: usize) -> Buckets {
        Buckets {
            ring: (0..span).map(|_| Default::default()).collect(),
            cursor_f: 0,
            len: 0,
            started: false,
            cap: 0,
            peak_cap: 0,
        }
    }
}

impl OpenQueue for Buckets {
    #[inline(always)]
    fn push(&mut self, e: OpenEntry) {
        let f = e.f16() >> 16;
        if !self.started {
            self.cursor_f = f;
            self.started = true;
        }
        debug_assert!(f >= self.cursor_f && f - self.cursor_f < self.ring.len() as u64);
        let n = self.ring.len() as u64;
        let bucket = &mut self.ring[(f % n) as usize];
        let before = bucket.capacity();
        bucket.push_back((e.g, e.cell, e.x, e.y));
        self.cap += bucket.capacity() - before;
        self.peak_cap = self.peak_cap.max(self.cap);
        self.len += 1;
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<OpenEntry> {
        if self.len == 0 {
            return None;
        }
        let n = self.ring.len() as u64;
        loop {
            let bucket = &mut self.ring[(self.cursor_f % n) as usize];
            if let Some((g, cell, x, y)) = bucket.pop_front() {
                self.len -= 1;
                if bucket.is_empty() {
                    // Give a drained bucket's memory back, so the ring holds
                    // about what the heap would, not every bucket's peak.
                    self.cap -= bucket.capacity();
                    bucket.shrink_to_fit();
                    self.cap += bucket.capacity();
                }
                let key = ((self.cursor_f as u128) << 16) << 64;
                return Some(OpenEntry { key, g, cell, x, y });
            }
            self.cursor_f += 1;
        }
    }
    fn entries(&self) -> Vec<OpenEntry> {
        let n = self.ring.len() as u64;
        (0..n)
            .flat_map(|i| {
                let f = self.cursor_f + i;
                self.ring[(f % n) as usize]
                    .iter()
                    .map(move |&(g, cell, x, y)| OpenEntry {
                        key: ((f as u128) << 16) << 64,
                        g,
                        cell,
                        x,
                        y,
                    })
            })
            .collect()
    }
    fn clear(&mut self) {
        for b in &mut self.ring {
            b.clear();
        }
        self.cursor_f = 0;
        self.len = 0;
        self.started = false;
        self.peak_cap = self.cap;
    }
    /// The most bytes the buckets have held at once.
    fn bytes(&self) -> usize {
        self.peak_cap * 16
            + self.ring.capacity() * size_of::<std::collections::VecDeque<(u64, u32, u16, u16)>>()
    }
}
