//! `seek-flee`: flockstep's command line and viewer with this crate's sim
//! registered — `seek-flee record LESSON -o run.fsr`, `seek-flee verify run.fsr`,
//! `seek-flee view LESSON`. Built for wasm32 it is flockstep's web viewer with
//! the sim registered, as `flockstep`'s own binary is.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    if let Err(m) = seek_flee::register() {
        eprintln!("error: {m}");
        return std::process::ExitCode::from(2);
    }
    flockstep::cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {
    flockstep::viewer::web::report_panics();
    // Registering a sim with a fixed number and name cannot fail here:
    // nothing else is registered in this binary.
    let _ = seek_flee::register();
    let _ = flockstep::viewer::window::run(flockstep::viewer::app::App::new());
}
