use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = ilaj::cli::Cli::parse();
    ilaj::cli::init_tracing();
    ilaj::cli::run(cli)
}
