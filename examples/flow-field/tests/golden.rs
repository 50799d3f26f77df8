//! The lesson's golden replay: recorded once in
//! `recordings/flow-field-arena.fsr`, re-simulated on every `cargo test`.

#[test]
fn the_lesson_replays_bit_for_bit() {
    flow_field::register().unwrap();
    flockstep_core::assert_replay!("flow-field-arena", "lessons/flow-field-arena.toml");
}
