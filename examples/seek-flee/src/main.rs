//! `seek-flee`: flockstep's command line and viewer with this crate's sim
//! registered — `seek-flee record lessons/seek-flee.toml -o run.fsr`,
//! `seek-flee verify run.fsr`, `seek-flee view lessons/seek-flee.toml`.

fn main() -> std::process::ExitCode {
    if let Err(m) = seek_flee::register() {
        eprintln!("error: {m}");
        return std::process::ExitCode::from(2);
    }
    flockstep::cli::main()
}
