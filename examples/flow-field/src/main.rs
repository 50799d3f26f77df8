//! `flow-field`: flockstep's command line and viewer with this crate's sim
//! registered — `flow-field record lessons/flow-field-arena.toml -o run.fsr`,
//! `flow-field verify run.fsr`, `flow-field view lessons/flow-field-arena.toml`.

fn main() -> std::process::ExitCode {
    if let Err(m) = flow_field::register() {
        eprintln!("error: {m}");
        return std::process::ExitCode::from(2);
    }
    flockstep::cli::main()
}
