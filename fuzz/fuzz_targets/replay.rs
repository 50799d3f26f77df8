//! The replay reader on arbitrary bytes: opening, scanning, seeking,
//! decoding every frame and naming its fields must return errors, never
//! panic, hang or allocate without bound.
#![no_main]

use flockstep::replay::{Replay, fields};
use flockstep::sim::AnyState;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

fuzz_target!(|data: &[u8]| {
    let Ok(mut r) = Replay::from_reader(Cursor::new(data), "fuzz.fsr") else {
        return;
    };
    for f in r.frames() {
        if f.is_err() {
            break;
        }
    }
    let _ = r.check_all();
    if let Some(last) = r.last_tick {
        for t in [last, r.first_tick, last / 2 + r.first_tick / 2] {
            if let Ok((state, _)) = r.state_at(t) {
                let n = match &state {
                    AnyState::Line(s) => fields::leaves(s).len(),
                    AnyState::Flock(s) => fields::leaves(s).len(),
                    AnyState::Path(s) => fields::leaves(s).len(),
                };
                assert!(n > 0);
            }
        }
    }
});
