//! The replay container end to end: recordings of real lessons written to
//! memory and to disk, read back, seeked, verified, compared; and every way
//! a file can be damaged.

use flockstep::lesson::BUNDLED;
use flockstep::replay::run::{self, Source, Verdict};
use flockstep::replay::{End, Replay};
use flockstep::sim::{AnySim, Cell, Input};
use std::collections::BTreeMap;
use std::io::Cursor;

fn source(id: &str, sets: &[&str]) -> Source {
    let b = BUNDLED.iter().find(|b| b.id == id).unwrap();
    Source {
        file: b.path.to_owned(),
        text: b.source.to_owned(),
        overrides: sets.iter().map(|s| s.to_string()).collect(),
    }
}

fn record(id: &str, sets: &[&str], ticks: u64, key: u32) -> Vec<u8> {
    let (bytes, rec) = run::record(
        Vec::new(),
        &source(id, sets),
        ticks,
        Some(key),
        &BTreeMap::new(),
        |_| {},
    )
    .unwrap();
    assert_eq!(rec.bytes, bytes.len() as u64);
    assert_eq!(rec.last_tick, ticks);
    bytes
}

fn open(bytes: &[u8]) -> Result<Replay<Cursor<&[u8]>>, flockstep::replay::ReplayError> {
    Replay::from_reader(Cursor::new(bytes), "mem.fsr")
}

/// The states of a lesson, simulated directly.
fn simulate(id: &str, sets: &[&str], ticks: u64) -> Vec<flockstep::sim::AnyState> {
    let lesson = source(id, sets).lesson().unwrap();
    let mut sim = AnySim::new(&lesson.scenario).unwrap();
    let mut out = vec![sim.snapshot()];
    for _ in 0..ticks {
        sim.step();
        out.push(sim.snapshot());
    }
    out
}

#[test]
fn every_tick_reads_back_in_any_order() {
    for id in [
        "flock-weights",
        "line-chase-arc",
        "path-dijkstra-astar-greedy",
        "flock-aquarium",
    ] {
        let bytes = record(id, &[], 70, 16);
        let states = simulate(id, &[], 70);
        let mut r = open(&bytes).unwrap();
        assert_eq!(r.end, End::Complete);
        assert_eq!((r.first_tick, r.last_tick), (0, Some(70)));
        assert_eq!(r.keyframes.len(), 5);
        assert_eq!(r.meta.lesson_id, id);
        // Forwards, backwards and jumping about.
        let order: Vec<u64> = (0..=70)
            .chain((0..=70).rev())
            .chain([33, 2, 69, 16, 15, 17, 0, 70])
            .collect();
        for t in order {
            let (s, info) = r.state_at(t).unwrap();
            assert_eq!(info.tick, t);
            assert!(s == states[t as usize], "{id}: tick {t}");
        }
        assert_eq!(r.check_all().unwrap(), 71);
        assert!(
            r.state_at(71)
                .unwrap_err()
                .to_string()
                .contains("no such tick")
        );
    }
}

#[test]
fn verify_passes_and_names_the_first_changed_field() {
    let bytes = record("flock-weights", &[], 40, 16);
    let mut r = open(&bytes).unwrap();
    assert_eq!(
        run::verify(&mut r, |_| {}).unwrap(),
        Verdict::Match { first: 0, last: 40 }
    );
    // The same lesson with a different cohesion weight diverges: diff names it.
    let other = record("flock-weights", &["w_cohesion=2"], 40, 16);
    let mut a = open(&bytes).unwrap();
    let mut b = open(&other).unwrap();
    let Verdict::Diverged(d) = run::diff(&mut a, &mut b).unwrap() else {
        panic!("no divergence")
    };
    assert!(d.tick >= 1);
    assert!(d.total > 0);
    assert!(
        d.fields[0].path.starts_with("boids[") || d.fields[0].path.starts_with("model"),
        "{:?}",
        d.fields[0]
    );
    // A replay compared with itself matches.
    let mut c = open(&bytes).unwrap();
    let mut e = open(&bytes).unwrap();
    assert_eq!(
        run::diff(&mut c, &mut e).unwrap(),
        Verdict::Match { first: 0, last: 40 }
    );
    // A shorter run of the same lesson differs only in length.
    let short = record("flock-weights", &[], 30, 16);
    let mut s = open(&short).unwrap();
    let mut f = open(&bytes).unwrap();
    assert_eq!(
        run::diff(&mut s, &mut f).unwrap(),
        Verdict::Length {
            old_last: 30,
            new_last: 40
        }
    );
}

#[test]
fn inputs_are_recorded_and_replayed() {
    let inputs = BTreeMap::from([
        (
            3,
            vec![Input::MoveGoal {
                to: Cell::new(1, 1),
            }],
        ),
        (
            9,
            vec![Input::MoveGoal {
                to: Cell::new(0, 4),
            }],
        ),
    ]);
    let src = source("path-open-list", &[]);
    let (bytes, _) = run::record(Vec::new(), &src, 20, Some(8), &inputs, |_| {}).unwrap();
    let mut r = open(&bytes).unwrap();
    let (_, f3) = r.state_at(3).unwrap();
    assert_eq!(f3.inputs, inputs[&3]);
    assert_eq!(
        run::verify(&mut r, |_| {}).unwrap(),
        Verdict::Match { first: 0, last: 20 }
    );
    // Without the inputs the run differs from tick 3 on.
    let (plain, _) = run::record(Vec::new(), &src, 20, Some(8), &BTreeMap::new(), |_| {}).unwrap();
    let (mut a, mut b) = (open(&plain).unwrap(), open(&bytes).unwrap());
    let Verdict::Diverged(d) = run::diff(&mut a, &mut b).unwrap() else {
        panic!()
    };
    assert_eq!(d.tick, 3);
    // An input that does not fit the sim is refused before it is recorded.
    let bad = BTreeMap::from([(
        2,
        vec![Input::MoveTarget {
            target: 0,
            to: Cell::new(0, 0),
        }],
    )]);
    assert!(
        run::record(Vec::new(), &src, 5, None, &bad, |_| {})
            .unwrap_err()
            .contains("does not apply")
    );
}

#[test]
fn every_truncation_reads_its_complete_prefix() {
    let bytes = record("line-chase-arc", &[], 30, 8);
    let full = open(&bytes).unwrap();
    let data_start = full.data_start;
    let states = simulate("line-chase-arc", &[], 30);
    let mut last_seen = None;
    for cut in 0..bytes.len() {
        match open(&bytes[..cut]) {
            Err(e) => {
                assert!((cut as u64) < data_start, "cut {cut}: {e}");
                assert!(e.offset.is_some(), "cut {cut}: {e}");
            }
            Ok(mut r) => {
                assert!(matches!(r.end, End::Truncated { .. }), "cut {cut}");
                if let Some(last) = r.last_tick {
                    assert!(last_seen.is_none_or(|l| l <= last));
                    last_seen = Some(last);
                    let (s, _) = r.state_at(last).unwrap();
                    assert!(s == states[last as usize]);
                    assert_eq!(r.check_all().unwrap(), last + 1);
                }
            }
        }
    }
    assert_eq!(last_seen, Some(30));
}

#[test]
fn every_flipped_byte_is_an_error_with_its_offset() {
    let bytes = record("path-open-list", &[], 12, 4);
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x10;
        let e = match open(&b) {
            Err(e) => e,
            Ok(mut r) => match r.check_all() {
                Err(e) => e,
                Ok(n) => panic!(
                    "byte {i}: flipped and still {n} good frames, end {:?}",
                    r.end
                ),
            },
        };
        let o = e
            .offset
            .unwrap_or_else(|| panic!("byte {i}: no offset in {e}"));
        assert!(o <= i as u64 + 64, "byte {i}: reported at {o}: {e}");
    }
}

#[test]
fn foreign_and_mangled_files_are_named_as_such() {
    let bytes = record("line-error-term", &[], 3, 8);
    let msg = |b: &[u8]| open(b).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(msg(&[]).contains("empty"));
    assert!(msg(&[0; 300]).contains("all zeros"));
    assert!(msg(b"[lesson]\nid = 'x'\n").contains("wrong magic"));
    let mut crlf = bytes.clone();
    crlf.remove(4);
    assert!(msg(&crlf).contains("text mode"), "{}", msg(&crlf));
    let mut seven = bytes.clone();
    seven[0] &= 0x7f;
    assert!(msg(&seven).contains("7-bit"));
    let mut newer = bytes.clone();
    newer[8] = 2;
    let c = crc(&newer[..60]);
    newer[60..64].copy_from_slice(&c.to_le_bytes());
    assert!(msg(&newer).contains("newer"), "{}", msg(&newer));
    let mut codec = bytes.clone();
    codec[12] = 9;
    let c = crc(&codec[..60]);
    codec[60..64].copy_from_slice(&c.to_le_bytes());
    assert!(msg(&codec).contains("unknown payload codec 9"));
    let mut head = bytes.clone();
    head[30] ^= 1;
    assert!(msg(&head).contains("header checksum"));
}

fn crc(b: &[u8]) -> u32 {
    // CRC-32C, bitwise (the reader uses the crc32c crate).
    let mut c = !0u32;
    for &x in b {
        c ^= u32::from(x);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0x82F6_3B78
            } else {
                c >> 1
            };
        }
    }
    !c
}
