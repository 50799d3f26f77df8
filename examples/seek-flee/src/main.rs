//! `seek-flee`: flockstep's command line and viewer with this crate's sim
//! registered — `seek-flee record LESSON -o run.fsr`, `seek-flee verify run.fsr`,
//! `seek-flee view LESSON`, `seek-flee params seek-flee`. Built for wasm32 it is
//! flockstep's web viewer with the sim registered, as `flockstep`'s own
//! binary is.

flockstep::main!(seek_flee::register);
