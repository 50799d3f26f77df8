//! The sim's golden replay, as a user's own test suite keeps one: the
//! lesson's run recorded in `recordings/seek-flee.fsr` and re-simulated by
//! today's code on every `cargo test`.

#[test]
fn the_lesson_replays_bit_for_bit() {
    seek_flee::register().unwrap();
    flockstep_core::assert_replay!("seek-flee", "lessons/seek-flee.toml");
}
