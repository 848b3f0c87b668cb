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
    /// Read a pasted error on stdin and print the articles that fix it.
    Match(MatchArgs),
    /// Run the evaluation sets through the API and print exact@1, family@1 and MRR@5.
    Eval(EvalArgs),
}

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Language of the answer (ar, hi, fr, en).
    #[arg(long, default_value = "en")]
    pub lang: String,
    /// Print the API's JSON body instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// Number of results.
    #[arg(long, default_value_t = 5)]
    pub limit: usize,
    /// Folder holding the articles.
    #[arg(long, env = "ILAJ_CONTENT", default_value = "content")]
    pub content: PathBuf,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Folder holding pastes-dev.jsonl and queries-dev.jsonl.
    #[arg(long, default_value = "../shared/eval")]
    pub eval_dir: PathBuf,
    /// Folder holding the articles.
    #[arg(long, env = "ILAJ_CONTENT", default_value = "content")]
    pub content: PathBuf,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ILAJ_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Folder holding the articles.
    #[arg(long, env = "ILAJ_CONTENT", default_value = "content")]
    pub content: PathBuf,
    /// Seconds between checks of the content folder for changes (0: never reload).
    #[arg(long, env = "ILAJ_RELOAD_SECONDS", default_value_t = 2)]
    pub reload_seconds: u64,
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
        Command::Match(args) => match_stdin(args),
        Command::Eval(args) => eval(args),
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
    let state = match web::AppState::new(report.library) {
        Ok(state) => state,
        Err(error) => {
            tracing::error!(%error, "cannot start");
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!(%error, "cannot start the async runtime");
            return ExitCode::FAILURE;
        }
    };
    if args.reload_seconds > 0 {
        let interval = std::time::Duration::from_secs(args.reload_seconds);
        runtime.spawn(web::watch_content(
            state.clone(),
            args.content.clone(),
            interval,
        ));
    }
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

/// Loads the content and builds the engine, logging content problems.
fn load_state(content: &Path) -> Result<web::AppState, String> {
    let report = content::load_dir(content).map_err(|e| e.to_string())?;
    for problem in &report.problems {
        tracing::warn!(%problem, "content problem");
    }
    web::AppState::new(report.library).map_err(|e| e.to_string())
}

fn match_stdin(args: MatchArgs) -> ExitCode {
    let lang: crate::i18n::Lang = match args.lang.parse() {
        Ok(lang) => lang,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::from(2);
        }
    };
    let mut bytes = Vec::new();
    if let Err(error) = std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes) {
        eprintln!("cannot read stdin: {error}");
        return ExitCode::FAILURE;
    }
    let text = String::from_utf8_lossy(&bytes);
    if text.len() > web::MAX_TEXT_BYTES {
        eprintln!(
            "the paste is {} bytes; the limit is {}",
            text.len(),
            web::MAX_TEXT_BYTES
        );
        return ExitCode::FAILURE;
    }
    let state = match load_state(&args.content) {
        Ok(state) => state,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = state
        .engine()
        .match_paste(&text, lang, args.limit.clamp(1, 20));
    let mut out = std::io::stdout().lock();
    let written = if args.json {
        serde_json::to_writer_pretty(&mut out, &outcome)
            .map_err(std::io::Error::other)
            .and_then(|()| writeln!(out))
    } else {
        print_outcome(&outcome, &mut out)
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

fn print_outcome(
    outcome: &crate::search::MatchOutcome,
    out: &mut impl Write,
) -> std::io::Result<()> {
    writeln!(out, "kind: {}", outcome.diagnosis.kind.as_str())?;
    for sentence in &outcome.diagnosis.explanation {
        writeln!(out, "- {sentence}")?;
    }
    if let Some(url) = &outcome.diagnosis.calculator_url {
        writeln!(out, "calculator: {url}")?;
    }
    for (rank, hit) in outcome.results.iter().enumerate() {
        let section = hit
            .section
            .as_ref()
            .map(|s| s.url.as_str())
            .unwrap_or(&hit.url);
        writeln!(
            out,
            "{}. [{}] {} ({:.2})\n   {section}",
            rank + 1,
            hit.lang,
            hit.title,
            hit.score
        )?;
    }
    Ok(())
}

fn eval(args: EvalArgs) -> ExitCode {
    let state = match load_state(&args.content) {
        Ok(state) => state,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let library = state.library();
    let router = web::router(state);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(crate::eval::run(&router, &library, &args.eval_dir)) {
        Ok(report) => {
            print!("{}", report.table());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{error}");
            ExitCode::FAILURE
        }
    }
}
