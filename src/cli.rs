//! The command line's shape: `ilaj serve`, `ilaj check`, … (clap types only; each command
//! lives in `cmd/`).

use std::marker::PhantomData;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::path::PathBuf;

use clap::{Arg, ArgMatches, Args, Parser, Subcommand};
use serde::Serialize;
use serde_json::Value;

use crate::db;
use crate::estimator::{self, EstimateInput, llm::LlmInput};
use crate::i18n::Lang;
use crate::reading::Situation;
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
    /// How log lines are written to stderr: `text` for people, `json` (one object a line) for
    /// log collectors.
    #[arg(long, global = true, env = "ILAJ_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the web server and the API.
    Serve(ServeArgs),
    /// Validate the content folder: prints `file:line: message` for every problem.
    Check(CheckArgs),
    /// Estimate GPU memory (the body of `POST /api/v1/estimate`): a nanoGPT run
    /// (--n-layer, --n-head, --n-embd), or a transformer with --model ID (a preset of
    /// `GET /api/v1/models`) or --config config.json.
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
    /// Serve the MCP tools and article resources on standard input/output, for local agents.
    Mcp(McpArgs),
}

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Folder holding the articles.
    #[arg(long, env = "ILAJ_CONTENT", default_value = "content")]
    pub content: PathBuf,
    /// The site's public address (https://…): answers then carry absolute links to it.
    #[arg(long, env = "ILAJ_PUBLIC_URL", value_parser = public_url)]
    pub public_url: Option<String>,
}

/// An `http(s)://host[/path]` address, kept without its trailing slash.
fn public_url(raw: &str) -> Result<String, String> {
    let url = raw.trim().trim_end_matches('/');
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or("must start with https:// or http://")?;
    let host = rest.split('/').next().unwrap_or_default();
    if host.is_empty() || url.contains(['?', '#', ' ']) {
        return Err("must be an address like https://ilaj.example (no query or fragment)".into());
    }
    Ok(url.to_owned())
}

#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Language of the answer (ar, hi, fr, en).
    #[arg(long, default_value = "en")]
    pub lang: Lang,
    /// Print the API's JSON body instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// Number of results.
    #[arg(long, default_value_t = 5)]
    pub limit: usize,
    /// Where an out-of-memory error struck, when you know (the answer to the question
    /// `ilaj match` asks when the paste does not say).
    #[arg(long, value_parser = parse_situation)]
    pub situation: Option<Situation>,
    /// Folder holding the articles.
    #[arg(long, env = "ILAJ_CONTENT", default_value = "content")]
    pub content: PathBuf,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Folder holding pastes-dev.jsonl and queries-dev.jsonl.
    #[arg(long, default_value = "eval")]
    pub eval_dir: PathBuf,
    /// Also write the ranking evidence of every dev result, with whether it was right, as
    /// JSON lines to this file (what the confidence model is fitted on).
    #[arg(long)]
    pub features: Option<PathBuf>,
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
    /// The site's public address (https://…): API answers then carry absolute links and a
    /// citation line. Without it, links are site paths.
    #[arg(long, env = "ILAJ_PUBLIC_URL", value_parser = public_url)]
    pub public_url: Option<String>,
    /// Seconds between reads of the votes for ranking, so votes cast on another server
    /// sharing the database count here too (0: only at start and after this server's votes).
    #[arg(long, env = "ILAJ_REFRESH_SECONDS", default_value_t = 10)]
    pub refresh_seconds: u64,
    /// Days of the query log (the content-gap report's daily sums) kept; older days are
    /// deleted every hour (0: keep everything).
    #[arg(long, env = "ILAJ_QUERY_LOG_RETENTION_DAYS", default_value_t = db::query_queue::DEFAULT_RETENTION_DAYS)]
    pub query_log_retention_days: u32,
    /// Bearer token /metrics asks for (better set in the environment).
    #[arg(long, env = "ILAJ_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// Serve /metrics on this address only (e.g. 127.0.0.1:9090), not on --addr. Without it
    /// and without --metrics-token there is no /metrics.
    #[arg(long, env = "ILAJ_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Folder holding the articles.
    #[arg(long, env = "ILAJ_CONTENT", default_value = "content")]
    pub content: PathBuf,
}

/// `ilaj estimate`: a flag for every field of the estimate's input.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    #[command(flatten)]
    pub fields: FieldFlags<EstimateInput>,
    /// The transformer estimator's fields; those it shares with nanoGPT's (`--batch-size`,
    /// `--precision`, …) are the same flags. `--config` takes a path to a config.json.
    #[command(flatten)]
    pub transformer: FieldFlags<LlmInput>,
    /// Print the API's JSON body instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// A flag for every field of an input type: `--n-layer 12` sets `n_layer`. The list of flags
/// is the type's own (its serialized default), so a field added to the input is a flag at
/// once, and the values go through the same parser as a query string or a form
/// ([`estimator::from_pairs`]). A boolean flag alone means `true`.
#[derive(Debug, Clone)]
pub struct FieldFlags<T> {
    /// `(field, value)` for each flag given, in the type's field order.
    pub pairs: Vec<(String, String)>,
    input: PhantomData<T>,
}

impl<T: Serialize + Default> FieldFlags<T> {
    fn defaults() -> serde_json::Map<String, Value> {
        match serde_json::to_value(T::default()) {
            Ok(Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        }
    }
}

impl<T: Serialize + Default> clap::FromArgMatches for FieldFlags<T> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let pairs = estimator::field_names::<T>()
            .into_iter()
            .filter_map(|name| {
                let value = matches.get_one::<String>(&name)?.clone();
                Some((name, value))
            })
            .collect();
        Ok(FieldFlags {
            pairs,
            input: PhantomData,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl<T: Serialize + Default> Args for FieldFlags<T> {
    fn augment_args(command: clap::Command) -> clap::Command {
        let defaults = Self::defaults();
        // A field another input type already made a flag of is that same flag.
        let taken: Vec<String> = command
            .get_arguments()
            .map(|a| a.get_id().to_string())
            .collect();
        let defaults = defaults
            .into_iter()
            .filter(|(name, _)| !taken.contains(name));
        command.args(defaults.map(|(name, default)| {
            let arg = Arg::new(name.clone())
                .long(name.replace('_', "-"))
                .value_name("VALUE");
            match default {
                Value::Bool(value) => arg
                    .num_args(0..=1)
                    .default_missing_value("true")
                    .help(format!("true | false [default: {value}]")),
                Value::Null => arg.help("[no default]"),
                Value::String(value) => arg.help(format!("[default: {value}]")),
                other => arg.help(format!("[default: {other}]")),
            }
        }))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

fn parse_situation(name: &str) -> Result<Situation, String> {
    Situation::stated(name).ok_or_else(|| format!("one of: {}", Situation::statable_names()))
}
