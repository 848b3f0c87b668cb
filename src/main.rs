#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = ilaj::cli::Cli::parse();
    ilaj::cmd::init_tracing(cli.log_format);
    ilaj::cmd::run(cli)
}
