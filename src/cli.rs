//! The command line: `ilaj serve`, `ilaj check`, … Each command calls library code.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::content::{self, LoadReport};
use crate::web;

#[derive(Debug, Parser)]
#[command(
    name = "ilaj",
    version,
    about = "Fixes for neural-network training errors, in Arabic, Hindi and French"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the web server and the API.
    Serve(ServeArgs),
    /// Validate the content folder: prints `file:line: message` for every problem.
    Check(CheckArgs),
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ILAJ_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Folder holding the articles.
    #[arg(long, env = "ILAJ_CONTENT", default_value = "content")]
    pub content: PathBuf,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Folder holding the articles.
    #[arg(long, env = "ILAJ_CONTENT", default_value = "content")]
    pub content: PathBuf,
}

/// Logs go to stderr, filtered by `RUST_LOG` (default: info for ilaj and requests).
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,tower_http=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Serve(args) => serve(args),
        Command::Check(args) => check(&args.content),
    }
}

fn serve(args: ServeArgs) -> ExitCode {
    let report = match content::load_dir(&args.content) {
        Ok(report) => report,
        Err(error) => {
            tracing::error!(%error, "cannot start");
            return ExitCode::FAILURE;
        }
    };
    for problem in &report.problems {
        tracing::warn!(%problem, "content problem");
    }
    tracing::info!(
        articles = report.library.len(),
        files = report.files_read,
        "content loaded"
    );
    let state = web::AppState::new(report.library);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!(%error, "cannot start the async runtime");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(web::serve(args.addr, state)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, addr = %args.addr, "server failed");
            ExitCode::FAILURE
        }
    }
}

fn check(dir: &Path) -> ExitCode {
    let report = match content::load_dir(dir) {
        Ok(report) => report,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let mut stdout = std::io::stdout().lock();
    let _ = print_check_report(&report, &mut stdout);
    for problem in &report.problems {
        eprintln!("{problem}");
    }
    if report.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn print_check_report(report: &LoadReport, out: &mut impl Write) -> std::io::Result<()> {
    for article in report.library.articles() {
        writeln!(
            out,
            "{}\t{}\t{} sections\t{}",
            article.lang,
            article.id,
            article.sections.len(),
            article.source.display()
        )?;
    }
    writeln!(
        out,
        "{} articles in {} groups from {} files; {} problems",
        report.library.len(),
        report.library.group_ids().count(),
        report.files_read,
        report.problems.len()
    )
}
