//! Path deltas (frame kind 6, format 2): a search state as what changed
//! since the tick before, by field.
//!
//! A tick of A* closes one cell, lowers `g` and relinks a few neighbours,
//! pops one open-list entry and pushes a few: a handful of numbers out of
//! a state that holds every cell's cost and parent. A whole-state frame
//! lets zstd find the unchanged stretches; this names the changes instead.
//!
//! Layout (numbers are [`super::delta`]'s zig-zag LEB128 varints of their
//! bits unless said otherwise): the tick; the search count (equal to the
//! state before's); then per search
//!
//! | part | holds |
//! |---|---|
//! | scalars | `seq`, `current` (0 none, else cell + 1), `expanded`, `status` (0 searching, 1 found then the cost, 2 unreachable) |
//! | `g` | the number of changed cells, then per cell (in index order) the gap since the last changed cell (the first: its index) and the new value minus the old (wrapping) |
//! | `link` | the same, with the new byte raw |
//! | open list | its length, the number of changed positions, then per position (in order) the gap since the last changed position and the entry: 0 then a new entry (key as `f`, tie key and `seq`, then `g`, cell, x, y), or `1 + p`: the entry at position `p` of the list before (a heap moves entries; the writer looks one level up and down and at the last position first) |
//!
//! A state whose searches or arrays changed shape is written whole instead
//! (kind 1).

use super::delta::{Varints, put_varint};
use crate::sim::path::{Heap, OpenEntry, PathState, SearchState, Status};

/// Writes the delta of `cur` against `prev`; false (and `out` as it was)
/// when their shapes differ.
pub fn residuals(cur: &PathState, prev: &PathState, out: &mut Vec<u8>) -> bool {
    if cur.searches.len() != prev.searches.len()
        || cur
            .searches
            .iter()
            .zip(&prev.searches)
            .any(|(c, p)| c.g.len() != p.g.len() || c.link.len() != p.link.len())
    {
        return false;
    }
    put(out, cur.tick);
    put(out, cur.searches.len() as u64);
    for (c, p) in cur.searches.iter().zip(&prev.searches) {
        scalars(c, out);
        changes(&c.g, &p.g, out, |out, new, old| {
            put_varint(out, new.wrapping_sub(*old) as i64)
        });
        changes(&c.link, &p.link, out, |out, new, _| out.push(*new));
        open(&c.open.0, &p.open.0, out);
    }
    true
}

fn put(out: &mut Vec<u8>, v: u64) {
    put_varint(out, v as i64);
}

fn scalars(s: &SearchState, out: &mut Vec<u8>) {
    put(out, u64::from(s.seq));
    put(out, s.current.map_or(0, |c| u64::from(c) + 1));
    put(out, u64::from(s.expanded));
    match s.status {
        Status::Searching => put(out, 0),
        Status::Found(cost) => {
            put(out, 1);
            put(out, cost);
        }
        Status::Unreachable => put(out, 2),
    }
}

/// The changed elements of two arrays of one length: count, then each as
/// its gap and `value(new, old)`.
fn changes<T: PartialEq>(
    cur: &[T],
    prev: &[T],
    out: &mut Vec<u8>,
    mut value: impl FnMut(&mut Vec<u8>, &T, &T),
) {
    let changed: Vec<usize> = (0..cur.len()).filter(|&i| cur[i] != prev[i]).collect();
    put(out, changed.len() as u64);
    let mut next = 0;
    for i in changed {
        put(out, (i - next) as u64);
        value(out, &cur[i], &prev[i]);
        next = i + 1;
    }
}

/// Where an entry now at position `i` of a binary heap most likely was:
/// a pop moves the last entry to the root and entries up a level as it
/// sifts down, a push moves entries down a level as it sifts up.
fn moved_from(i: usize, prev_len: usize) -> [usize; 4] {
    [
        (i.max(1) - 1) / 2,
        2 * i + 1,
        2 * i + 2,
        prev_len.max(1) - 1,
    ]
}

fn open(cur: &[OpenEntry], prev: &[OpenEntry], out: &mut Vec<u8>) {
    let changed: Vec<usize> = (0..cur.len())
        .filter(|&i| prev.get(i) != Some(&cur[i]))
        .collect();
    put(out, cur.len() as u64);
    put(out, changed.len() as u64);
    let mut next = 0;
    for i in changed {
        put(out, (i - next) as u64);
        next = i + 1;
        let e = &cur[i];
        // The likely places first, then anywhere (a few dozen entries
        // change a tick, so the scan stays cheap).
        let from = moved_from(i, prev.len())
            .into_iter()
            .find(|&p| prev.get(p) == Some(e))
            .or_else(|| prev.iter().position(|p| p == e));
        match from {
            Some(p) => put(out, p as u64 + 1),
            None => {
                put(out, 0);
                put(out, (e.key >> 64) as u64);
                put(out, u64::from((e.key >> 32) as u32));
                put(out, u64::from(e.key as u32));
                put(out, e.g);
                put(out, u64::from(e.cell));
                put(out, u64::from(e.x));
                put(out, u64::from(e.y));
            }
        }
    }
}

/// Rebuilds the state a delta was taken of, from the state before.
pub(crate) fn apply(raw: &[u8], prev: &PathState) -> Result<PathState, String> {
    let mut r = Varints::new(raw, 0);
    let tick = r.next_u64()?;
    let n = r.next_u64()?;
    if n != prev.searches.len() as u64 {
        return Err(format!(
            "a path delta of {n} searches against a state of {}",
            prev.searches.len()
        ));
    }
    let mut searches = Vec::with_capacity(prev.searches.len());
    for p in &prev.searches {
        let mut s = p.clone();
        read_scalars(&mut r, &mut s)?;
        read_changes(&mut r, &mut s.g, |r, old| {
            Ok(old.wrapping_add(r.next_u64()?))
        })?;
        read_changes(&mut r, &mut s.link, |r, _| r.byte())?;
        s.open = Heap(read_open(&mut r, &p.open.0)?);
        searches.push(s);
    }
    if r.at() != raw.len() {
        return Err(format!("{} bytes after the path delta", raw.len() - r.at()));
    }
    Ok(PathState { tick, searches })
}

fn small(v: u64, what: &str) -> Result<u32, String> {
    u32::try_from(v).map_err(|_| format!("a path delta's {what} of {v}"))
}

fn read_scalars(r: &mut Varints, s: &mut SearchState) -> Result<(), String> {
    s.seq = small(r.next_u64()?, "seq")?;
    s.current = match r.next_u64()? {
        0 => None,
        c => Some(small(c - 1, "current cell")?),
    };
    s.expanded = small(r.next_u64()?, "expansion count")?;
    s.status = match r.next_u64()? {
        0 => Status::Searching,
        1 => Status::Found(r.next_u64()?),
        2 => Status::Unreachable,
        t => return Err(format!("a path delta's status {t}")),
    };
    Ok(())
}

fn read_changes<T: Copy>(
    r: &mut Varints,
    values: &mut [T],
    mut value: impl FnMut(&mut Varints, T) -> Result<T, String>,
) -> Result<(), String> {
    let count = r.next_u64()?;
    let mut next = 0u64;
    for _ in 0..count {
        let i = next
            .checked_add(r.next_u64()?)
            .filter(|&i| i < values.len() as u64)
            .ok_or("a path delta changes a cell past the map")? as usize;
        values[i] = value(r, values[i])?;
        next = i as u64 + 1;
    }
    Ok(())
}

fn read_open(r: &mut Varints, prev: &[OpenEntry]) -> Result<Vec<OpenEntry>, String> {
    let len = r.next_u64()?;
    let changed = r.next_u64()?;
    // Each change takes at least two bytes: a count beyond what is left
    // is damage, not a reason to allocate.
    if changed > len || len > prev.len() as u64 + changed || changed > r.remaining() as u64 {
        return Err(format!(
            "a path delta's open list of {len} with {changed} changes"
        ));
    }
    let mut open: Vec<Option<OpenEntry>> =
        (0..len as usize).map(|i| prev.get(i).copied()).collect();
    let mut next = 0u64;
    for _ in 0..changed {
        let i = next
            .checked_add(r.next_u64()?)
            .filter(|&i| i < len)
            .ok_or("a path delta changes an open-list position past its end")?
            as usize;
        open[i] = Some(match r.next_u64()? {
            0 => read_entry(r)?,
            p => *prev
                .get((p - 1) as usize)
                .ok_or("a path delta moves an open-list entry that was not there")?,
        });
        next = i as u64 + 1;
    }
    open.into_iter()
        .map(|e| e.ok_or_else(|| "a path delta leaves an open-list position empty".to_owned()))
        .collect()
}

fn read_entry(r: &mut Varints) -> Result<OpenEntry, String> {
    let f16 = r.next_u64()?;
    let tie = small(r.next_u64()?, "tie key")?;
    let seq = small(r.next_u64()?, "seq")?;
    let g = r.next_u64()?;
    let cell = small(r.next_u64()?, "cell")?;
    let x = u16::try_from(r.next_u64()?).map_err(|_| "a path delta's column past 65535")?;
    let y = u16::try_from(r.next_u64()?).map_err(|_| "a path delta's row past 65535")?;
    Ok(OpenEntry {
        key: (u128::from(f16) << 64) | (u128::from(tie) << 32) | u128::from(seq),
        g,
        cell,
        x,
        y,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{AnySim, AnyState};

    fn states(id: &str, ticks: usize) -> Vec<PathState> {
        let lesson = crate::testing::lesson(id, &[]);
        let mut sim = AnySim::new(&lesson.scenario).unwrap();
        let mut out = Vec::new();
        for _ in 0..ticks {
            sim.step();
            match sim.snapshot() {
                AnyState::Path(p) => out.push(p),
                _ => panic!("{id}: not a path lesson"),
            }
        }
        out
    }

    /// Every tick of a lesson with four searches, ties and 8-way moves
    /// rebuilds exactly, and a delta is a small part of the state.
    #[test]
    fn deltas_rebuild_every_tick() {
        for id in [
            "path-heuristics",
            "path-ties",
            "path-eight-way",
            "path-no-closed-set",
        ] {
            let s = states(id, 120);
            let (mut delta, mut whole) = (0, 0);
            for w in s.windows(2) {
                let mut out = Vec::new();
                assert!(residuals(&w[1], &w[0], &mut out), "{id}");
                assert_eq!(
                    apply(&out, &w[0]).unwrap(),
                    w[1],
                    "{id}, tick {}",
                    w[1].tick
                );
                delta += out.len();
                whole += crate::replay::codec::encode(&w[1]).unwrap().len();
            }
            assert!(
                delta * 20 < whole,
                "{id}: {delta} bytes of deltas, {whole} of states"
            );
        }
    }

    /// Cut or damaged deltas are errors or some state, never a panic.
    #[test]
    fn damaged_deltas_never_panic() {
        let s = states("path-heuristics", 30);
        let mut out = Vec::new();
        assert!(residuals(&s[20], &s[19], &mut out));
        for cut in 0..out.len() {
            assert!(apply(&out[..cut], &s[19]).is_err(), "cut at {cut}");
        }
        let mut rng = crate::num::Pcg32::new(3, 3);
        for _ in 0..2000 {
            let mut bad = out.clone();
            let i = rng.below(bad.len() as u32) as usize;
            bad[i] = rng.next_u32() as u8;
            let _ = apply(&bad, &s[19]);
        }
        let mut huge = Vec::new();
        put(&mut huge, 1);
        put(&mut huge, s[19].searches.len() as u64);
        assert!(apply(&huge, &s[19]).is_err());
        // A search whose map changed size is written whole instead.
        let mut other = s[19].clone();
        other.searches[0].g.push(0);
        assert!(!residuals(&s[20], &other, &mut Vec::new()));
    }
}
