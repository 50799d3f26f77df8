//! The `flockstep` binary: all of it lives in [`flockstep::cli`]. Built
//! for wasm32 (the web build, `web/build.sh`) it is the viewer alone, on
//! the lesson picker, started by macroquad's page loader.

flockstep::main!();
