//! The calendar queue: any consistent heuristic and tie-break, in exactly the heap's order, with small sorting networks for its buckets.

use super::*;

/// The open list as a calendar queue (Brown, 1988) for any consistent
/// heuristic and any tie-break ([`calendar_applies`]): a ring of slices of
/// `f16`, each 2^`shift` wide. With a consistent heuristic `f` never
/// decreases along the pops, and a push lands at most one move's cost plus
/// 1 above the `f` being expanded (the move changes `h` by at most 1), so a
/// ring spanning `max step cost + 2` whole units holds every live slice
/// without wrapping onto itself.
///
/// A slice ahead of the cursor is an unsorted array a push appends to.
/// When the pops reach it, a slice of at most 16 entries (`WHOLE`) is
/// sorted whole; a larger one is dealt into 64 narrower buckets (pushes
/// into the cursor's slice go there too). The slice or bucket being
/// drained is put once into the order of its full keys (a short one by
/// keys packed in a `u64` each, up to 8 by a sorting network; a long one
/// reversed if pushed in that order, or sorted by packed keys if all of
/// one `f`) and popped from its end, and a push into it is inserted in
/// key order (one above all of it goes to a second list, in key order:
/// most often appended; the bucket takes that list, reversed, once
/// empty). Slices and buckets are drained in order and each bucket in key
/// order, so the pops are exactly the heap's.
/// A push is an append, and a pop a share of sorting a bucket of two or
/// three entries (the default rule's buckets are 1/1024 of a unit).
/// `tests/path.rs` checks that a search on it tells exactly the heap's
/// story.
#[derive(Clone, Debug, Default)]
pub struct Calendar {
    /// The slices ahead of the cursor, unsorted: slice `s` (of `f16 >>
    /// shift`) is at `(s − origin) & mask`. The ring grows to an index when
    /// first used, so a short query on fresh memory touches a few slices.
    pub(super) ring: Vec<Vec<OpenEntry>>,
    /// A bit per ring slice that holds an entry.
    pub(super) words: Vec<u64>,
    /// The cursor's slice, dealt into buckets by the next [`FINE_BITS`]
    /// bits of `f16`, unsorted (push order).
    pub(super) fine: Vec<Vec<OpenEntry>>,
    /// A bit per bucket that holds an entry.
    pub(super) fine_bits: u64,
    /// The bucket being drained, sorted by key from largest to smallest
    /// (the next pop is the last entry).
    pub(super) now: Vec<OpenEntry>,
    /// `now`'s bucket in the cursor's slice.
    pub(super) at: u32,
    /// The slice of the query's first push.
    pub(super) origin: u64,
    pub(super) mask: usize,
    pub(super) shift: u32,
    /// The slice being drained (the first push's, before any pop).
    pub(super) cursor: u64,
    pub(super) len: usize,
    pub(super) started: bool,
    /// The most entries held at once in this query.
    pub(super) peak: usize,
    /// Entries of the bucket being drained with keys above all of `now`'s,
    /// from smallest to largest: a push of a new largest key (FIFO ties
    /// push each behind the last of its `f`) is appended here rather than
    /// inserted at `now`'s front, which would move every entry.
    /// `now` takes them, reversed, once it is empty.
    pub(super) later: Vec<OpenEntry>,
    /// [`Calendar::sort_long`]'s packed keys.
    pub(super) keys: Vec<u64>,
    /// [`Calendar::sort_long`]'s sorted bucket, then `now`'s old memory.
    pub(super) spare: Vec<OpenEntry>,
    /// How many long buckets each way of [`Calendar::sort_long`] sorted
    /// (reversed, packed, whole keys), for the tests to see each taken.
    #[cfg(test)]
    pub(super) long_sorts: [u32; 3],
}

/// Sorts `v` by key from largest to smallest (the next pop last).
#[inline(always)]
pub(super) fn by_key(v: &mut [OpenEntry]) {
    v.sort_unstable_by_key(|e| core::cmp::Reverse(e.key));
}

/// Sorts `v`, at most [`SHORT`] entries of one slice `2^shift` wide in
/// push order, as [`by_key`] does, without a branch on the keys: each
/// entry's `f` within the slice, tie key and place are packed in a `u64`
/// (places order the push counters the same way), a sorting network
/// orders them, and the entries are gathered in reverse. An insertion
/// sort's branches on the keys are mispredicted often; the network's
/// mins and maxes have none to mispredict.
#[inline(always)]
pub(super) fn sort_small(v: &mut Vec<OpenEntry>, spare: &mut Vec<OpenEntry>, shift: u32) {
    const _: () = assert!(SLICES + 16 - RING + 32 + 3 <= 64 && SHORT <= 8);
    let n = v.len();
    debug_assert!(n <= SHORT && shift <= SLICES + 16 - RING);
    if n < 2 {
        return;
    }
    let low = (1u64 << shift) - 1;
    let mut k = [u64::MAX; 8];
    for (i, e) in v.iter().enumerate() {
        k[i] = packed(e, low, 3, i);
    }
    if n <= 4 {
        network(&mut k, &NET4);
    } else {
        network(&mut k, &NET8);
    }
    gather(v, spare, &k[..n], 3);
}

/// `e`'s key within one slice in a `u64`: its `f` there (`f16 & low`),
/// its tie key, then its place `i` in push order in `place` bits (places
/// order the push counters the same way).
#[inline(always)]
pub(super) fn packed(e: &OpenEntry, low: u64, place: u32, i: usize) -> u64 {
    (e.f16() & low) << (32 + place) | (e.key as u64 >> 32) << place | i as u64
}

/// Puts `v` in the order of `sorted`, its entries' packed keys from
/// smallest to largest, reversed (the next pop last): each entry is found
/// by its place, the key's low `place` bits. `spare` takes `v`'s memory.
#[inline(always)]
pub(super) fn gather(
    v: &mut Vec<OpenEntry>,
    spare: &mut Vec<OpenEntry>,
    sorted: &[u64],
    place: u32,
) {
    let mask = (1u64 << place) - 1;
    spare.clear();
    spare.extend(sorted.iter().rev().map(|&k| v[(k & mask) as usize]));
    core::mem::swap(v, spare);
}

/// A sorting network of four (the optimal one, five comparators, in three
/// layers).
pub(super) const NET4: [(u8, u8); 5] = [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)];

/// A sorting network of eight (the optimal one, 19 comparators, in six
/// layers).
#[rustfmt::skip]
pub(super) const NET8: [(u8, u8); 19] = [
    (0, 2), (1, 3), (4, 6), (5, 7), // one line a layer: these four at once
    (0, 4), (1, 5), (2, 6), (3, 7),
    (0, 1), (2, 3), (4, 5), (6, 7),
    (2, 4), (3, 5),
    (1, 4), (3, 6),
    (1, 2), (3, 4), (5, 6),
];

/// Applies the comparators `net` to `k` (each a min and a max: no branch).
#[inline(always)]
pub(super) fn network<const N: usize>(k: &mut [u64; 8], net: &[(u8, u8); N]) {
    for &(a, b) in net {
        let (a, b) = (a as usize, b as usize);
        let (x, y) = (k[a], k[b]);
        k[a] = x.min(y);
        k[b] = x.max(y);
    }
}

/// `e`'s bucket in its slice of a calendar whose slices are `2^shift` wide.
#[inline(always)]
pub(super) fn fine_bucket(e: &OpenEntry, shift: u32) -> usize {
    (e.f16() >> (shift - FINE_BITS)) as usize & (FINE - 1)
}

/// The most slices a calendar's span may need at a unit's width (as a
/// power of two): wider spans (weights over about 450) run on the heap.
pub(super) const SLICES: u32 = 12;

/// The calendar's ring length, a power of two: a slice is `span / RING`
/// wide (1/16 of a unit for the default rule).
pub(super) const RING: u32 = 8;

/// A slice's buckets, as a power of two (64: one bit each in a `u64`;
/// more buckets would leave fewer entries to sort in each, but cost more
/// to deal into and to scan than that saves).
pub(super) const FINE_BITS: u32 = 6;

/// A slice's buckets.
pub(super) const FINE: usize = 1 << FINE_BITS;

/// The length from which a push into the bucket being drained is first
/// compared with its next pop (below, a binary search is as cheap).
pub(super) const LONG: usize = 16;

/// The most entries of a drained bucket sorted by [`sort_small`], without
/// first looking for rising keys or one `f` ([`Calendar::sort_long`]).
pub(super) const SHORT: usize = 8;

/// The most entries a slice may hold to be sorted whole rather than
/// dealt into its buckets: with sorts on packed keys ([`sort_small`],
/// [`Calendar::sort_packed`]), a slice this short is sorted more cheaply
/// whole than dealt and sorted bucket by bucket.
pub(super) const WHOLE: usize = 16;

impl Calendar {
    /// The slice width (as a shift of `f16`) for a search, if its `f` range
    /// fits [`SLICES`] slices a unit wide.
    pub(super) fn shift_for(cfg: &SearchConfig) -> Option<u32> {
        let span_bits = 64 - (f_span(cfg) - 1).leading_zeros(); // f_span ≥ 3
        (span_bits <= SLICES).then_some(span_bits + 16 - RING)
    }

    /// An empty calendar with slices `2^shift` wide (`shift` ≥ 10).
    pub(super) fn with_shift(shift: u32) -> Calendar {
        let n = 1usize << RING.max(6);
        Calendar {
            mask: n - 1,
            shift,
            words: vec![0; n / 64],
            fine: vec![Vec::new(); FINE],
            ..Calendar::default()
        }
    }

    /// An entry's bucket in its slice.
    #[inline(always)]
    pub(super) fn bucket(&self, e: &OpenEntry) -> u32 {
        fine_bucket(e, self.shift) as u32
    }

    /// Ring index `i`'s slice, the ring grown to it if need be.
    #[inline(always)]
    pub(super) fn slice(&mut self, i: usize) -> &mut Vec<OpenEntry> {
        if i >= self.ring.len() {
            self.ring.resize_with(i + 1, Vec::new);
        }
        &mut self.ring[i]
    }

    /// How many slices on from ring index `i` the next held one is.
    #[inline]
    pub(super) fn next_held(&self, i: usize) -> usize {
        let n = self.words.len();
        let (mut w, b) = (i / 64, i % 64);
        let bits = self.words[w] & (!0u64 << b);
        if bits != 0 {
            return w * 64 + bits.trailing_zeros() as usize - i;
        }
        let mut dist = 64 - b;
        loop {
            w = (w + 1) % n;
            if self.words[w] != 0 {
                return dist + self.words[w].trailing_zeros() as usize;
            }
            dist += 64;
        }
    }

    /// Moves the cursor to the next slice holding entries and deals them
    /// into the buckets (which are empty), keeping their push order; or,
    /// if it holds at most [`WHOLE`] entries, makes them all `now`, sorted,
    /// and returns true.
    pub(super) fn advance(&mut self) -> bool {
        let at = (self.cursor - self.origin) as usize & self.mask;
        let ahead = self.next_held(at);
        self.cursor += ahead as u64;
        let i = (at + ahead) & self.mask;
        self.words[i / 64] &= !(1 << (i % 64));
        let mut slice = core::mem::take(&mut self.ring[i]);
        if slice.len() <= WHOLE {
            core::mem::swap(&mut self.now, &mut slice);
            self.ring[i] = slice; // `now`'s empty memory
            self.at = FINE as u32 - 1;
            if self.now.len() <= SHORT {
                sort_small(&mut self.now, &mut self.spare, self.shift);
            } else {
                self.sort_packed();
            }
            return true;
        }
        // The shift, the bits and the buckets held in locals, so that no
        // push makes the loop load them again through `self` (the buckets
        // as an array, which a masked index needs no bounds check for).
        let fine: &mut [Vec<OpenEntry>; FINE] = (&mut self.fine[..])
            .try_into()
            .expect("Calendar::with_shift makes FINE buckets");
        let (shift, mut bits) = (self.shift, self.fine_bits);
        for e in &slice {
            let j = fine_bucket(e, shift);
            fine[j].push(*e);
            bits |= 1 << j;
        }
        self.fine_bits = bits;
        slice.clear();
        self.ring[i] = slice; // empty, its memory kept
        false
    }

    /// Puts `e`, whose key falls at `at` in `now`, into the bucket being
    /// drained: at `at`; or, if its key is above all of `now` (`at` is 0,
    /// as [`OpenQueue::push`] finds with one compare), into `later`,
    /// however short `now` is. With FIFO ties, each push onto the plateau
    /// of one `f` that an octile search crosses on open maps is such a
    /// push, and taking it at `now`'s front would move all of `now` each
    /// time. Not inlined: kept out of the push, whose common cases stay
    /// small without it.
    #[inline(never)]
    pub(super) fn insert_at(&mut self, at: usize, e: OpenEntry) {
        if at != 0 {
            self.now.insert(at, e);
            return;
        }
        // Above all of `now`: `later` takes it in key order, most often
        // at its end.
        if self.later.last().is_none_or(|l| l.key < e.key) {
            self.later.push(e);
        } else {
            let at = self.later.partition_point(|x| x.key < e.key);
            self.later.insert(at, e);
        }
    }

    /// Refills the empty `now` from `later`.
    #[cold]
    #[inline(never)]
    pub(super) fn take_later(&mut self) {
        core::mem::swap(&mut self.now, &mut self.later);
        self.now.reverse();
    }

    /// Makes the next bucket holding entries `now`, sorted.
    #[inline]
    pub(super) fn refill(&mut self) {
        if self.fine_bits == 0 && self.advance() {
            return;
        }
        let j = self.fine_bits.trailing_zeros();
        self.fine_bits &= !(1 << j);
        self.at = j;
        core::mem::swap(&mut self.now, &mut self.fine[j as usize]);
        if self.now.len() <= SHORT {
            sort_small(&mut self.now, &mut self.spare, self.shift);
        } else {
            self.sort_long();
        }
    }

    /// Sorts `now`, at most [`WHOLE`] entries of one slice in push order,
    /// as [`by_key`] does: by packed keys, as [`sort_small`] (here, with a
    /// place of 12 bits), whose sort moves 8 bytes a step rather than 32
    /// and compares one word rather than two.
    #[inline(never)]
    pub(super) fn sort_packed(&mut self) {
        const _: () = assert!(SLICES + 16 - RING + 32 + 12 <= 64 && WHOLE <= 1 << 12);
        debug_assert!(self.now.len() <= WHOLE);
        let low = (1u64 << self.shift) - 1;
        let placed = self.now.iter().enumerate();
        self.keys.clear();
        self.keys.extend(placed.map(|(i, e)| packed(e, low, 12, i)));
        self.keys.sort_unstable();
        gather(&mut self.now, &mut self.spare, &self.keys, 12);
    }

    /// Sorts `now`, a bucket of more than [`SHORT`] entries in push order,
    /// by key from largest to smallest. Push order is key order when the
    /// entries were pushed with one `f` and tie key (FIFO ties): reversed,
    /// then. If they share one `f` (as a long bucket most often does), by
    /// their tie keys and places packed in a `u64` each (places order the
    /// push counters the same way), then gathered: larger-g ties fill long
    /// buckets of one `f`, and a sort on packed keys moves one `u64` a step
    /// rather than a whole entry, and compares one word rather than a
    /// 128-bit key's two.
    #[inline(never)]
    pub(super) fn sort_long(&mut self) {
        let now = &self.now;
        let (f, n) = (now[0].f16(), now.len());
        let (mut rising, mut tied) = (true, n <= u32::MAX as usize);
        for w in now.windows(2) {
            rising &= w[0].key < w[1].key;
            tied &= w[1].f16() == f;
        }
        #[cfg(test)]
        {
            self.long_sorts[if rising {
                0
            } else if tied {
                1
            } else {
                2
            }] += 1;
        }
        if rising {
            self.now.reverse();
        } else if tied {
            // One `f`: the tie key and a place of 32 bits (`packed` less
            // its `f`, for buckets of up to 2³² entries).
            self.keys.clear();
            let placed = now.iter().enumerate();
            self.keys
                .extend(placed.map(|(i, e)| e.key as u64 & !(u32::MAX as u64) | i as u64));
            self.keys.sort_unstable();
            gather(&mut self.now, &mut self.spare, &self.keys, 32);
        } else {
            by_key(&mut self.now);
        }
    }
}

impl OpenQueue for Calendar {
    #[inline(always)]
    fn push(&mut self, e: OpenEntry) {
        let slice = e.f16() >> self.shift;
        if !self.started {
            (self.cursor, self.origin) = (slice, slice);
            self.at = self.bucket(&e);
            self.started = true;
        }
        debug_assert!(slice >= self.cursor && slice - self.cursor <= self.mask as u64);
        self.len += 1;
        self.peak = self.peak.max(self.len);
        if slice != self.cursor {
            let i = (slice - self.origin) as usize & self.mask;
            self.words[i / 64] |= 1 << (i % 64);
            self.slice(i).push(e);
            return;
        }
        let j = self.bucket(&e);
        // Below `at` only while a whole slice is drained (`at` is then the
        // last bucket).
        debug_assert!(j >= self.at || self.at == FINE as u32 - 1);
        if j <= self.at {
            // In a long bucket (ties on whole `f`), a push is most often the
            // next pop (larger-g ties: one more step from here): no search.
            let n = self.now.len();
            if n > LONG && self.now[n - 1].key > e.key {
                self.now.push(e);
            } else if self.now.first().is_none_or(|x| x.key <= e.key) {
                // Above all of `now` (its first key is its largest),
                // found without a search: most pushes with FIFO ties.
                self.insert_at(0, e);
            } else {
                let at = self.now.partition_point(|x| x.key > e.key);
                self.insert_at(at, e);
            }
        } else {
            self.fine[j as usize].push(e);
            self.fine_bits |= 1 << j;
        }
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<OpenEntry> {
        if self.len == 0 {
            return None;
        }
        if self.now.is_empty() {
            if self.later.is_empty() {
                self.refill();
            } else {
                self.take_later();
            }
        }
        self.len -= 1;
        self.now.pop()
    }
    fn entries(&self) -> Vec<OpenEntry> {
        let all = self
            .ring
            .iter()
            .chain(&self.fine)
            .chain([&self.now, &self.later]);
        all.flatten().copied().collect()
    }
    /// The query's peak of entries (the slices' spare capacity, which
    /// depends on earlier queries, is not counted).
    fn bytes(&self) -> usize {
        self.peak * size_of::<OpenEntry>()
    }
    /// Empties the slices and buckets still holding entries, found by their
    /// bits (a short query's clear is short too); their memory is kept.
    fn clear(&mut self) {
        let words = if self.len == 0 { 0 } else { self.words.len() };
        for w in 0..words {
            while self.words[w] != 0 {
                let b = self.words[w].trailing_zeros() as usize;
                self.ring[w * 64 + b].clear();
                self.words[w] &= !(1 << b);
            }
        }
        while self.fine_bits != 0 {
            let j = self.fine_bits.trailing_zeros();
            self.fine[j as usize].clear();
            self.fine_bits &= !(1 << j);
        }
        self.now.clear();
        self.later.clear();
        self.cursor = 0;
        self.peak = 0;
        self.len = 0;
        self.started = false;
    }
}
