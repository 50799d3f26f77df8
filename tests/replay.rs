//! The replay container end to end: recordings of real lessons written to
//! memory and to disk, read back, seeked, verified, compared; and every way
//! a file can be damaged.

use flockstep::replay::file::{FORMAT_MAJOR, OLDEST_MAJOR};
use flockstep::replay::run::{self, Source, Verdict};
use flockstep::replay::{End, Replay};
use flockstep::sim::{AnySim, Cell, Input};
use std::collections::BTreeMap;
use std::io::Cursor;

fn source(id: &str, sets: &[&str]) -> Source {
    flockstep::bundled::source(id, sets).unwrap()
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
        let e = r.state_at(71).unwrap_err();
        assert!(e.to_string().contains("no such tick"), "{e}");
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
        d.fields[0].path.starts_with("panes[0].boids[")
            || d.fields[0].path.starts_with("panes[0].model"),
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
    let e = run::record(Vec::new(), &src, 5, None, &bad, |_| {}).unwrap_err();
    let run::RunError::Input { tick: 2, error } = &e else {
        panic!("not an input error at tick 2: {e}");
    };
    assert_eq!(error.kind, flockstep::sim::SimErrorKind::Input);
    assert!(e.to_string().contains("does not apply"), "{e}");
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
        use flockstep::replay::ReplayErrorKind as K;
        assert!(
            matches!(
                e.kind,
                K::Corrupt | K::NotAReplay | K::Version | K::UnknownSim { .. } | K::Truncated
            ),
            "byte {i}: {e} is {:?}",
            e.kind
        );
        let o = e
            .offset
            .unwrap_or_else(|| panic!("byte {i}: no offset in {e}"));
        assert!(o <= i as u64 + 64, "byte {i}: reported at {o}: {e}");
    }
}

/// Format 2's rule-predicted frames (kinds 4 and 5) in a file whose
/// header says format 1 are corruption, named at the frame's kind byte.
#[test]
fn rule_predicted_frames_are_refused_in_a_format_1_file() {
    let mut bytes = record("flock-weights", &[], 4, 16);
    let mut r = open(&bytes).unwrap();
    assert_eq!(r.header.major, FORMAT_MAJOR);
    assert_eq!(r.check_all().unwrap(), 5);
    bytes[8] = 1;
    let c = crc32c::crc32c(&bytes[..60]);
    bytes[60..64].copy_from_slice(&c.to_le_bytes());
    let e = open(&bytes).and_then(|mut r| r.check_all()).unwrap_err();
    assert!(
        e.to_string()
            .contains("unknown frame kind 5 in a format 1 file"),
        "{e}"
    );
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
    newer[8] = FORMAT_MAJOR as u8 + 1;
    let c = crc32c::crc32c(&newer[..60]);
    newer[60..64].copy_from_slice(&c.to_le_bytes());
    assert!(msg(&newer).contains("newer"), "{}", msg(&newer));
    let mut older = bytes.clone();
    older[8] = OLDEST_MAJOR as u8 - 1;
    let c = crc32c::crc32c(&older[..60]);
    older[60..64].copy_from_slice(&c.to_le_bytes());
    assert!(
        msg(&older).contains("no longer supported"),
        "{}",
        msg(&older)
    );
    let mut codec = bytes.clone();
    codec[12] = 9;
    let c = crc32c::crc32c(&codec[..60]);
    codec[60..64].copy_from_slice(&c.to_le_bytes());
    assert!(msg(&codec).contains("unknown payload codec 9"));
    let mut head = bytes.clone();
    head[30] ^= 1;
    assert!(msg(&head).contains("header checksum"));
    // The same refusals as kinds a program can match.
    use flockstep::replay::ReplayErrorKind as K;
    let kind = |b: &[u8]| open(b).err().map(|e| e.kind);
    assert_eq!(kind(b"[lesson]\nid = 'x'\n"), Some(K::NotAReplay));
    assert_eq!(kind(&newer), Some(K::Version));
    assert_eq!(kind(&older), Some(K::Version));
    assert_eq!(kind(&codec), Some(K::Version));
    assert_eq!(kind(&head), Some(K::Corrupt));
    assert_eq!(kind(&bytes[..70]), Some(K::Truncated));
    let mut sim = bytes.clone();
    sim[22..24].copy_from_slice(&77u16.to_le_bytes());
    let c = crc32c::crc32c(&sim[..60]);
    sim[60..64].copy_from_slice(&c.to_le_bytes());
    assert_eq!(kind(&sim), Some(K::UnknownSim { id: 77 }));
    let e = open(&bytes).unwrap().state_at(99).unwrap_err();
    assert_eq!(e.kind, K::NoSuchTick { tick: 99 });
    let e = Replay::open(std::path::Path::new("/nonexistent/x.fsr"))
        .err()
        .unwrap();
    assert_eq!(e.kind, K::Io);
}

mod random_states {
    use super::*;
    use flockstep::num::{Angle, Fx, Pcg32, Vec3};
    use flockstep::replay::delta::{Decoder, Encoder};
    use flockstep::replay::file::{Header, Meta, Writer};
    use flockstep::sim::AnyState;
    use flockstep::sim::flock::{Attitude, Boid, FlockState, ModelState};

    /// Raw bits from every scale: zero, tiny, typical, huge, the extremes.
    fn bits(rng: &mut Pcg32) -> i64 {
        match rng.below(6) {
            0 => 0,
            1 => rng.range_i32(-1000, 1000) as i64,
            2 => rng.next_u64() as i64 >> rng.below(64),
            3 => [i64::MIN, i64::MAX, -1, 1][rng.below(4) as usize],
            _ => (rng.next_u64() as i64) >> 20,
        }
    }

    fn vec3(rng: &mut Pcg32) -> Vec3 {
        Vec3::new(
            Fx::from_bits(bits(rng)),
            Fx::from_bits(bits(rng)),
            Fx::from_bits(bits(rng)),
        )
    }

    /// The next state of a random walk: mostly small changes of the last
    /// one (as a sim makes), sometimes a jump, a new model or a new count.
    fn next(rng: &mut Pcg32, prev: Option<&FlockState>) -> FlockState {
        let fresh = prev.is_none() || rng.chance(1, 20);
        let n = match prev {
            Some(p) if !fresh => p.boids.len(),
            _ => rng.below(12) as usize,
        };
        let model = rng.below(3);
        let mut s = match prev {
            Some(p) if !fresh => p.clone(),
            _ => FlockState {
                tick: rng.next_u64(),
                rng: Pcg32::new(rng.next_u64(), 1),
                frame_rng: Pcg32::new(rng.next_u64(), 2),
                dt: Fx::from_bits(bits(rng)),
                boids: (0..n)
                    .map(|_| Boid {
                        pos: vec3(rng),
                        vel: vec3(rng),
                    })
                    .collect(),
                model: match model {
                    0 => ModelState::Heading {
                        heading: (0..n).map(|_| Angle(rng.next_u32())).collect(),
                    },
                    1 => ModelState::Gems {
                        attitude: (0..n)
                            .map(|_| Attitude {
                                pitch: Angle(rng.next_u32()),
                                yaw: Angle(rng.next_u32()),
                                roll: Angle(rng.next_u32()),
                            })
                            .collect(),
                    },
                    _ => ModelState::Weighted {
                        acc: (0..n).map(|_| vec3(rng)).collect(),
                    },
                },
            },
        };
        s.tick = s.tick.wrapping_add(1);
        let nudge = |rng: &mut Pcg32, v: Fx| {
            Fx::from_bits(v.to_bits().wrapping_add(rng.range_i32(-5000, 5000) as i64))
        };
        for b in &mut s.boids {
            if rng.chance(1, 10) {
                *b = Boid {
                    pos: vec3(rng),
                    vel: vec3(rng),
                };
            } else {
                b.vel = Vec3::new(
                    nudge(rng, b.vel.x),
                    nudge(rng, b.vel.y),
                    nudge(rng, b.vel.z),
                );
                b.pos = Vec3::new(
                    nudge(rng, b.pos.x),
                    nudge(rng, b.pos.y),
                    nudge(rng, b.pos.z),
                );
            }
        }
        match &mut s.model {
            ModelState::Heading { heading } => heading
                .iter_mut()
                .for_each(|h| h.0 = h.0.wrapping_add(rng.next_u32() >> 20)),
            ModelState::Gems { attitude } => attitude
                .iter_mut()
                .for_each(|a| a.roll.0 ^= rng.next_u32() >> 24),
            ModelState::Weighted { acc } => acc.iter_mut().for_each(|a| *a = vec3(rng)),
        }
        s
    }

    /// Encode → decode is the identity on random state sequences, through
    /// the payload codec and through whole files read back at random ticks.
    #[test]
    fn encode_then_decode_is_the_identity() {
        let mut rng = Pcg32::new(2026, 11);
        for case in 0..200 {
            let ticks = 1 + rng.below(40) as u64;
            let key = 1 + rng.below(10);
            let mut states: Vec<AnyState> = Vec::new();
            let mut prev: Option<FlockState> = None;
            for _ in 0..=ticks {
                let s = next(&mut rng, prev.as_ref());
                prev = Some(s.clone());
                states.push(AnyState::Flock(s));
            }
            let (mut enc, mut dec) = (Encoder::new(), Decoder::new());
            let mut out = Vec::new();
            for (t, s) in states.iter().enumerate() {
                let (kind, raw) = enc
                    .encode(s.clone(), (t as u32).is_multiple_of(key), &mut out)
                    .unwrap();
                assert_eq!(
                    dec.decode(kind, raw, &out).unwrap(),
                    s,
                    "case {case} tick {t}"
                );
            }
            let header = Header::new(
                flockstep::lesson::sims::by_name("flock").unwrap(),
                1 << 32,
                0,
                key,
            );
            let meta = Meta {
                flockstep: "test".into(),
                lesson_id: "random".into(),
                lesson_file: "random.toml".into(),
                lesson_source: String::new(),
                overrides: vec![],
            };
            let mut w = Writer::new(Vec::new(), &header, &meta).unwrap();
            for (t, s) in states.iter().enumerate() {
                w.frame(t as u64, &[], s.clone(), s.state_hash()).unwrap();
            }
            let (bytes, _) = w.finish().unwrap();
            let mut r = open(&bytes).unwrap();
            for _ in 0..10 {
                let t = rng.below(ticks as u32 + 1) as u64;
                assert_eq!(
                    r.state_at(t).unwrap().0,
                    states[t as usize],
                    "case {case} tick {t}"
                );
            }
        }
    }

    /// Line and path states (the codec's bytes path) with random inputs.
    #[test]
    fn sims_with_random_inputs_round_trip() {
        let mut rng = Pcg32::new(7, 7);
        for (id, cells) in [("path-ties", true), ("line-chase-arc", false)] {
            let src = source(id, &[]);
            let lesson = src.lesson().unwrap();
            let probe = AnySim::new(&lesson.scenario).unwrap();
            let mut inputs = BTreeMap::new();
            for t in 1..60u64 {
                if rng.chance(1, 6) {
                    let to = Cell::new(rng.below(6) as i32, rng.below(6) as i32);
                    let input = if cells {
                        Input::MoveGoal { to }
                    } else {
                        Input::MoveTarget { target: 0, to }
                    };
                    // Keep the ones the scenario accepts.
                    let mut s = probe.clone();
                    if s.apply(&input).is_ok() {
                        inputs.insert(t, vec![input]);
                    }
                }
            }
            assert!(inputs.len() > 3, "{id}: some inputs");
            let (bytes, _) = run::record(Vec::new(), &src, 60, Some(7), &inputs, |_| {}).unwrap();
            let mut r = open(&bytes).unwrap();
            assert_eq!(r.check_all().unwrap(), 61);
            assert_eq!(
                run::verify(&mut r, |_| {}).unwrap(),
                Verdict::Match { first: 0, last: 60 }
            );
        }
    }
}

/// The fuzzer's corpus (`fuzz/corpus/replay`, kept in the repository) as a
/// regression suite on every `cargo test`: each input opens, scans and
/// decodes as far as it can, and never panics. (The fuzzer itself runs with
/// checksums off; here they are on, as for users.)
#[test]
fn the_fuzz_corpus_never_panics() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/replay");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        if let Ok(mut r) = open(&bytes) {
            let _ = r.check_all();
            if let Some(last) = r.last_tick {
                let _ = r.state_at(last);
            }
        }
        n += 1;
    }
    assert!(n > 8, "the corpus is there");
}
