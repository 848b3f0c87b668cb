//! The commands of the command line, one module each. Every command returns a [`CmdError`],
//! mapped to a message and an exit code in one place ([`run`]); async commands share one
//! runtime.

mod check;
mod estimate;
mod eval;
mod keys;
mod matching;
mod mcp;
mod report;
mod serve;

use std::process::ExitCode;
use std::sync::Arc;

use crate::cli::{Cli, Command, DatabaseArgs, LogFormat};
use crate::content::{self, ContentError};
use crate::db::{self, DbError, Location, Store};
use crate::estimator::InvalidInput;
use crate::eval::EvalError;
use crate::search::SearchError;
use crate::web;

/// Exit code for input the program rejects, like clap's for bad arguments.
const EXIT_USAGE: u8 = 2;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum CmdError {
    /// Input the command cannot work with (exit 2).
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    InvalidInput(#[from] InvalidInput),
    #[error(transparent)]
    Content(#[from] ContentError),
    /// `ilaj check` found problems; they are printed already.
    #[error("{0} content problems")]
    ContentProblems(usize),
    #[error(transparent)]
    Search(#[from] SearchError),
    #[error(transparent)]
    Db(#[from] DbError),
    #[error(transparent)]
    Eval(#[from] EvalError),
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("server failed: {0}")]
    Serve(std::io::Error),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl CmdError {
    fn exit_code(&self) -> ExitCode {
        match self {
            CmdError::Usage(_) | CmdError::InvalidInput(_) => ExitCode::from(EXIT_USAGE),
            _ => ExitCode::FAILURE,
        }
    }
}

/// Runs the command; prints why it failed on stderr.
pub fn run(cli: Cli) -> ExitCode {
    let outcome = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Estimate(args) => estimate::run(&args),
        Command::Serve(args) => block_on(serve::run(args)),
        Command::Match(args) => block_on(matching::run(&args)),
        Command::Eval(args) => block_on(eval::run(&args)),
        Command::Report(args) => block_on(report::run(&args)),
        Command::Keys(command) => block_on(keys::run(command)),
        Command::Mcp(args) => block_on(mcp::run(args)),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(CmdError::ContentProblems(n)) => {
            tracing::debug!(problems = n, "content check failed");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("error: {error}");
            error.exit_code()
        }
    }
}

/// The one runtime of the process, for the commands that need one.
///
/// Its blocking threads (matches, searches, content reloads) are few and long-lived: glibc's
/// malloc gives each thread that allocates an arena of its own and hands little back, so the
/// default pool (up to 512 threads, each dropped after 10 idle seconds and replaced under the
/// next burst) let resident memory creep up under a steady load (issue 15).
fn block_on(work: impl Future<Output = Result<(), CmdError>>) -> Result<(), CmdError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(web::matching_permits() + BLOCKING_SPARE_THREADS)
        .thread_keep_alive(BLOCKING_KEEP_ALIVE)
        .build()
        .map_err(CmdError::Runtime)?
        .block_on(work)
}

/// Blocking threads beyond the matches' own: content reloads and their folder scans.
const BLOCKING_SPARE_THREADS: usize = 2;
const BLOCKING_KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(600);

/// Logs go to stderr, filtered by `RUST_LOG` (default: info for ilaj and requests), as text
/// or as one JSON object a line.
pub fn init_tracing(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,tower_http=info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// Opens (and migrates) the database the arguments name.
async fn open_store(args: &DatabaseArgs) -> Result<Arc<dyn Store>, CmdError> {
    let location = Location::resolve(args.database.as_deref(), args.data_dir.as_deref())?;
    let store = db::open(&location).await?;
    tracing::info!(database = %location.describe(), "database ready");
    Ok(store)
}

/// Runs `work` on the database, closing it afterwards whatever the outcome.
async fn with_store<T>(
    args: &DatabaseArgs,
    work: impl AsyncFnOnce(&dyn Store) -> Result<T, CmdError>,
) -> Result<T, CmdError> {
    let store = open_store(args).await?;
    let outcome = work(store.as_ref()).await;
    store.close().await;
    outcome
}

/// Prints each content problem (file:line: message) on stderr and fails when there is any:
/// what `ilaj check` reports, and what stops `ilaj eval` from measuring a partial engine.
fn fail_on_problems(problems: &[content::Problem]) -> Result<(), CmdError> {
    for problem in problems {
        eprintln!("{problem}");
    }
    match problems.len() {
        0 => Ok(()),
        n => Err(CmdError::ContentProblems(n)),
    }
}

/// Loads the content and builds the engine, logging content problems.
fn load_state(content: &std::path::Path) -> Result<web::AppState, CmdError> {
    let report = content::load_dir(content)?;
    for problem in &report.problems {
        tracing::warn!(%problem, "content problem");
    }
    Ok(web::AppState::new(report.library)?)
}
