//! `flow-field`: flockstep's command line and viewer with this crate's sim
//! registered — `flow-field record LESSON -o run.fsr`, `flow-field verify run.fsr`,
//! `flow-field view LESSON`. Built for wasm32 it is flockstep's web viewer with
//! the sim registered, as `flockstep`'s own binary is.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    if let Err(m) = flow_field::register() {
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
    let _ = flow_field::register();
    let _ = flockstep::viewer::window::run(flockstep::viewer::app::App::new());
}
