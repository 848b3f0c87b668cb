//! The command line: `ilaj serve`, `ilaj check`, … Each command calls library code.

use std::io::Write;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand};

use crate::content::{self, LoadReport};
use crate::db::{self, Location, Report, ReportOptions, Store};
use crate::estimator::{self, Attention, EstimateInput, LayerOps, Optimizer, Phase, Precision};
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
    /// Estimate the GPU memory of a nanoGPT training run (the body of `POST /api/v1/estimate`).
    Estimate(EstimateArgs),
    /// Read a pasted error on stdin and print the articles that fix it.
    Match(MatchArgs),
    /// Run the evaluation sets through the API and print exact@1, family@1 and MRR@5.
    Eval(EvalArgs),
    /// Content-gap report: frequent errors with no good match, most and least helpful articles.
    Report(ReportArgs),
    /// Manage API keys for chatbots.
    #[command(subcommand)]
    Keys(KeysCommand),
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
    #[arg(long, default_value = "eval")]
    pub eval_dir: PathBuf,
    /// Folder holding the articles.
    #[arg(long, env = "ILAJ_CONTENT", default_value = "content")]
    pub content: PathBuf,
}

#[derive(Debug, Args)]
pub struct DatabaseArgs {
    /// Database URL: sqlite://PATH or postgres://USER:PASSWORD@HOST/DB [default: an SQLite
    /// file in the data folder, created on first start]
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database: Option<String>,
    /// Folder of the embedded SQLite database [default: data]
    #[arg(long, env = "ILAJ_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// Rows per list.
    #[arg(long, default_value_t = db::report::DEFAULT_LIMIT)]
    pub limit: u32,
    /// A query whose best result scores below this found no good match.
    #[arg(long, default_value_t = db::report::DEFAULT_MIN_SCORE)]
    pub min_score: f64,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key; it is printed once and stored only as a hash.
    Create {
        #[command(flatten)]
        db: DatabaseArgs,
        /// Who the key is for (unique; not all digits).
        #[arg(long)]
        name: String,
    },
    /// List keys: id, name, created, last used, revoked.
    List {
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// Revoke a key by name or id; requests with it are refused from then on.
    Revoke {
        #[command(flatten)]
        db: DatabaseArgs,
        /// The key's name or id.
        key: String,
    },
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "ILAJ_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Folder holding the articles.
    #[arg(long, env = "ILAJ_CONTENT", default_value = "content")]
    pub content: PathBuf,
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// API requests per minute for each anonymous client address.
    #[arg(long, env = "ILAJ_RATE_LIMIT_ANONYMOUS", default_value_t = NonZeroU32::new(web::DEFAULT_ANONYMOUS_PER_MINUTE).unwrap_or(NonZeroU32::MIN))]
    pub rate_limit_anonymous: NonZeroU32,
    /// API requests per minute for each API key.
    #[arg(long, env = "ILAJ_RATE_LIMIT_KEY", default_value_t = NonZeroU32::new(web::DEFAULT_KEY_PER_MINUTE).unwrap_or(NonZeroU32::MIN))]
    pub rate_limit_key: NonZeroU32,
    /// Token for the admin page /admin/report (better set in the environment); without one
    /// the page does not exist.
    #[arg(long, env = "ILAJ_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
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

/// The fields of `POST /api/v1/estimate`; unset ones take its defaults.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    #[arg(long)]
    pub n_layer: u64,
    #[arg(long)]
    pub n_head: u64,
    #[arg(long)]
    pub n_embd: u64,
    #[arg(long)]
    pub vocab_size: Option<u64>,
    #[arg(long)]
    pub block_size: Option<u64>,
    #[arg(long)]
    pub batch_size: Option<u64>,
    #[arg(long)]
    pub gradient_accumulation_steps: Option<u64>,
    /// fp32 | amp_bf16 | amp_fp16 | pure_bf16
    #[arg(long)]
    pub precision: Option<Precision>,
    /// adamw | adamw_fused | sgd_momentum | sgd
    #[arg(long)]
    pub optimizer: Option<Optimizer>,
    /// flash | manual
    #[arg(long)]
    pub attention: Option<Attention>,
    /// native | scratch
    #[arg(long)]
    pub layer_ops: Option<LayerOps>,
    #[arg(long)]
    pub dropout: Option<f64>,
    /// `--compile` alone means true.
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub compile: Option<bool>,
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub activation_checkpointing: Option<bool>,
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub tied_embeddings: Option<bool>,
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    pub bias: Option<bool>,
    /// train | eval
    #[arg(long)]
    pub phase: Option<Phase>,
    #[arg(long)]
    pub gpu_memory_gib: Option<f64>,
    /// Print the API's JSON body instead of a table.
    #[arg(long)]
    pub json: bool,
}

impl EstimateArgs {
    pub fn input(&self) -> EstimateInput {
        let d = EstimateInput::new(self.n_layer, self.n_head, self.n_embd);
        EstimateInput {
            vocab_size: self.vocab_size.unwrap_or(d.vocab_size),
            block_size: self.block_size.unwrap_or(d.block_size),
            batch_size: self.batch_size.unwrap_or(d.batch_size),
            gradient_accumulation_steps: self
                .gradient_accumulation_steps
                .unwrap_or(d.gradient_accumulation_steps),
            precision: self.precision.unwrap_or(d.precision),
            optimizer: self.optimizer.unwrap_or(d.optimizer),
            attention: self.attention.unwrap_or(d.attention),
            layer_ops: self.layer_ops.unwrap_or(d.layer_ops),
            dropout: self.dropout.unwrap_or(d.dropout),
            compile: self.compile.unwrap_or(d.compile),
            activation_checkpointing: self
                .activation_checkpointing
                .unwrap_or(d.activation_checkpointing),
            tied_embeddings: self.tied_embeddings.unwrap_or(d.tied_embeddings),
            bias: self.bias.unwrap_or(d.bias),
            phase: self.phase.unwrap_or(d.phase),
            gpu_memory_gib: self.gpu_memory_gib.unwrap_or(d.gpu_memory_gib),
            ..d
        }
    }
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
        Command::Estimate(args) => estimate(&args),
        Command::Match(args) => match_stdin(args),
        Command::Eval(args) => eval(args),
        Command::Report(args) => report(&args),
        Command::Keys(command) => keys(command),
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
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            tracing::error!(%error, "cannot start the async runtime");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let Some(store) = open_store(&args.db).await else {
            return ExitCode::FAILURE;
        };
        let services = web::Services {
            store: Some(Arc::clone(&store)),
            rate_limits: Some(web::RateLimits {
                anonymous_per_minute: args.rate_limit_anonymous,
                key_per_minute: args.rate_limit_key,
            }),
            admin_token: args.admin_token.clone(),
        };
        let state = match web::AppState::with_services(report.library, services) {
            Ok(state) => state,
            Err(error) => {
                tracing::error!(%error, "cannot start");
                return ExitCode::FAILURE;
            }
        };
        state.refresh_feedback_factors().await;
        if args.reload_seconds > 0 {
            let interval = std::time::Duration::from_secs(args.reload_seconds);
            tokio::spawn(web::watch_content(
                state.clone(),
                args.content.clone(),
                interval,
            ));
        }
        let outcome = web::serve(args.addr, state).await;
        store.close().await;
        match outcome {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                tracing::error!(%error, addr = %args.addr, "server failed");
                ExitCode::FAILURE
            }
        }
    })
}

/// Opens the database the arguments name (migrating it), logging why when it cannot.
async fn open_store(args: &DatabaseArgs) -> Option<Arc<dyn Store>> {
    let location = match Location::resolve(args.database.as_deref(), args.data_dir.as_deref()) {
        Ok(location) => location,
        Err(error) => {
            tracing::error!(%error, "cannot open the database");
            return None;
        }
    };
    match db::open(&location).await {
        Ok(store) => {
            tracing::info!(database = %location.describe(), "database ready");
            Some(store)
        }
        Err(error) => {
            tracing::error!(%error, database = %location.describe(), "cannot open the database");
            None
        }
    }
}

/// Runs a database command on a fresh runtime, closing the database afterwards.
fn with_store<F>(args: &DatabaseArgs, work: F) -> ExitCode
where
    F: AsyncFnOnce(&dyn Store) -> Result<(), String>,
{
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let Some(store) = open_store(args).await else {
            return ExitCode::FAILURE;
        };
        let outcome = work(store.as_ref()).await;
        store.close().await;
        match outcome {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("{message}");
                ExitCode::FAILURE
            }
        }
    })
}

fn report(args: &ReportArgs) -> ExitCode {
    if !args.min_score.is_finite() {
        eprintln!("--min-score must be a number");
        return ExitCode::FAILURE;
    }
    let options = ReportOptions {
        limit: args.limit,
        min_score: args.min_score,
    };
    let json = args.json;
    with_store(&args.db, async move |store: &dyn Store| {
        let report = Report::build(store, options)
            .await
            .map_err(|e| e.to_string())?;
        let mut stdout = std::io::stdout().lock();
        let written = if json {
            serde_json::to_writer_pretty(&mut stdout, &report)
                .map_err(std::io::Error::other)
                .and_then(|()| writeln!(stdout))
        } else {
            report.write_text(&mut stdout)
        };
        written.map_err(|e| format!("cannot write the report: {e}"))
    })
}

fn keys(command: KeysCommand) -> ExitCode {
    match command {
        KeysCommand::Create { db, name } => with_store(&db, async move |store: &dyn Store| {
            let (record, key) = db::keys::create(store, &name)
                .await
                .map_err(|e| e.to_string())?;
            println!("{key}");
            eprintln!(
                "API key {} (`{}`) created. It is shown only this once: store it now.",
                record.id, record.name
            );
            Ok(())
        }),
        KeysCommand::List { db } => with_store(&db, async |store: &dyn Store| {
            let keys = store.list_api_keys().await.map_err(|e| e.to_string())?;
            let mut stdout = std::io::stdout().lock();
            print_keys(&keys, &mut stdout).map_err(|e| e.to_string())
        }),
        KeysCommand::Revoke { db, key } => {
            with_store(
                &db,
                async move |store: &dyn Store| match db::keys::revoke(store, &key)
                    .await
                    .map_err(|e| e.to_string())?
                {
                    Some(record) => {
                        println!("revoked API key {} (`{}`)", record.id, record.name);
                        Ok(())
                    }
                    None => Err(format!("no API key with name or id `{key}`")),
                },
            )
        }
    }
}

fn print_keys(keys: &[db::ApiKey], out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "id\tname\tcreated\tlast used\trevoked")?;
    let time = |t: Option<i64>| t.map_or_else(|| "-".to_owned(), db::format_time);
    for key in keys {
        writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}",
            key.id,
            key.name,
            db::format_time(key.created_at),
            time(key.last_used_at),
            time(key.revoked_at)
        )?;
    }
    Ok(())
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

/// Exit code for input the estimator rejects, like clap's for bad arguments.
const EXIT_INVALID_INPUT: u8 = 2;

fn estimate(args: &EstimateArgs) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match estimator::estimate(&args.input()) {
        Ok(estimate) => {
            let written = if args.json {
                serde_json::to_writer_pretty(&mut stdout, &estimate)
                    .map_err(std::io::Error::from)
                    .and_then(|()| writeln!(stdout))
            } else {
                print_estimate(&estimate, &mut stdout)
            };
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::FAILURE,
            }
        }
        Err(invalid) => {
            if args.json {
                let body = serde_json::json!({"error": {
                    "code": web::ApiError::from(invalid.clone()).code().name(), "message": invalid.message, "field": invalid.field}});
                let _ = writeln!(stdout, "{body}");
            } else {
                eprintln!("error: {invalid}");
            }
            ExitCode::from(EXIT_INVALID_INPUT)
        }
    }
}

fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / f64::from(1u32 << 30))
}

fn print_estimate(e: &estimator::Estimate, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "parameters: {:.2}M ({} with position embeddings)",
        e.parameters as f64 / 1e6,
        e.parameters_total
    )?;
    writeln!(out, "peak during {}:", e.peak_phase.replace('_', " "))?;
    let width = e.components.iter().map(|c| c.name.len()).max().unwrap_or(0);
    for component in e.components.iter().filter(|c| c.bytes > 0) {
        writeln!(
            out,
            "  {:<width$}  {:>11}",
            component.name.replace('_', " "),
            gib(component.bytes)
        )?;
    }
    let rows = [
        ("peak allocated", e.peak_allocated_bytes),
        ("reserved", e.reserved_bytes),
        ("nvidia-smi", e.nvidia_smi_bytes),
        ("GPU memory", e.gpu_memory_bytes),
    ];
    for (name, bytes) in rows {
        writeln!(out, "{name:<16}{:>11}", gib(bytes))?;
    }
    writeln!(
        out,
        "largest allocation: {} ({})",
        gib(e.largest_allocation_bytes),
        e.largest_allocation.replace('_', " ")
    )?;
    writeln!(out, "fits: {}", if e.fits { "yes" } else { "no" })?;
    writeln!(out, "largest batch_size that fits: {}", e.max_batch_size)?;
    if e.suggested_batch_size > 0 {
        writeln!(
            out,
            "to keep the effective batch of {}: batch_size {} × gradient_accumulation_steps {}",
            e.effective_batch_size, e.suggested_batch_size, e.suggested_gradient_accumulation_steps
        )?;
    }
    Ok(())
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
