//! The `flockstep` binary: all of it lives in [`flockstep::cli`].

fn main() -> std::process::ExitCode {
    flockstep::cli::main()
}
