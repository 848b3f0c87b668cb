#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = ilaj::cli::Cli::parse();
    ilaj::cmd::init_tracing();
    ilaj::cmd::run(cli)
}
