//! The `flockstep` binary: all of it lives in [`flockstep::cli`]. Built
//! for wasm32 (the web build, `web/build.sh`) it is the viewer alone, on
//! the lesson picker, started by macroquad's page loader.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    flockstep::cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {
    flockstep::viewer::web::report_panics();
    // Starts the page's animation loop and returns; errors cannot happen
    // here (there is no display to look for).
    let _ = flockstep::viewer::window::run(flockstep::viewer::app::App::new());
}
