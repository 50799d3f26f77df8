//! `flow-field`: flockstep's command line and viewer with this crate's sim
//! registered — `flow-field record LESSON -o run.fsr`, `flow-field verify run.fsr`,
//! `flow-field view LESSON`, `flow-field params flow-field`. Built for wasm32 it is
//! flockstep's web viewer with the sim registered, as `flockstep`'s own
//! binary is.

flockstep::main!(flow_field::register);
