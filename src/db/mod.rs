//! Persistence: feedback, the query log behind the content-gap report, and API keys.
//!
//! One [`Store`] trait implemented for both backends ([`SqliteStore`], [`PostgresStore`])
//! from one copy of the SQL (`sql.rs`), through sqlx. The embedded default is an SQLite file in WAL mode inside a local data
//! folder; a `postgres://` URL lets several servers behind a load balancer share one database.
//! Migrations (`migrations/<backend>/`) are embedded in the binary and applied by [`open`].
//!
//! Times are Unix milliseconds (UTC) everywhere: one integer type reads the same from both
//! backends and needs no date library in the storage layer.

pub mod feedback;
pub mod keys;
mod migrations;
mod postgres;
pub mod query_log;
pub mod query_queue;
pub mod report;
mod sql;
mod sqlite;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use serde::Serialize;

pub use feedback::{FeedbackCounts, NewFeedback};
pub use keys::ApiKey;
pub use postgres::PostgresStore;
pub use query_log::{Endpoint, QueryRecord};
pub use report::{ArticleVotes, GapRow, Report, ReportOptions};
pub use sqlite::SqliteStore;

/// File name of the embedded database inside the data folder.
pub const SQLITE_FILE: &str = "ilaj.sqlite";
/// Data folder used when neither `--database` nor `ILAJ_DATA_DIR` says otherwise.
pub const DEFAULT_DATA_DIR: &str = "data";

/// The storage layer's one error type.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(
        "unsupported database URL `{0}`: use sqlite://PATH, sqlite::memory: or postgres://USER:PASSWORD@HOST/DB"
    )]
    UnsupportedUrl(String),
    #[error("cannot create the data folder {}: {source}", path.display())]
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("database error: {0}")]
    Sqlx(#[from] sqlx::Error),
    #[error("cannot apply the database migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("an API key named `{0}` already exists")]
    DuplicateKeyName(String),
    #[error("invalid API key name: {0}")]
    InvalidKeyName(String),
    #[error("the system's random source failed: {0}")]
    Random(String),
}

/// Which backend a store talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Everything ilaj keeps. Both backends implement it from the same SQL (`sql.rs`); callers hold an
/// `Arc<dyn Store>` and never know which.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    fn backend(&self) -> Backend;

    /// Stores one vote; returns its id.
    async fn record_feedback(&self, feedback: &NewFeedback) -> Result<i64, DbError>;
    /// Votes for an article group, all languages together.
    async fn feedback_counts(&self, article: &str) -> Result<FeedbackCounts, DbError>;
    /// Votes of every group that has any, by group id.
    async fn all_feedback_counts(&self) -> Result<Vec<(String, FeedbackCounts)>, DbError>;

    /// Adds a batch of matches and searches to the query log's daily sums, in one
    /// transaction.
    async fn record_queries(&self, records: &[QueryRecord]) -> Result<(), DbError>;
    /// Adds one match or search to the query log.
    async fn record_query(&self, record: &QueryRecord) -> Result<(), DbError> {
        self.record_queries(std::slice::from_ref(record)).await
    }
    /// Deletes the query log's days before `day` (days since the epoch, UTC); returns how
    /// many rows went.
    async fn delete_queries_before(&self, day: i64) -> Result<u64, DbError>;
    /// Fingerprints whose queries found no good match (answered `none` or `uncertain`, or,
    /// without a state, no result or a top score below `min_score`), most frequent first.
    async fn unmatched_fingerprints(
        &self,
        min_score: f64,
        limit: u32,
    ) -> Result<Vec<GapRow>, DbError>;
    /// How many queries the log holds (those of the days kept).
    async fn query_count(&self) -> Result<u64, DbError>;

    /// Stores a new key's hash. Fails with [`DbError::DuplicateKeyName`] if the name is taken.
    async fn insert_api_key(
        &self,
        name: &str,
        key_hash: &str,
        created_at: i64,
    ) -> Result<ApiKey, DbError>;
    async fn list_api_keys(&self) -> Result<Vec<ApiKey>, DbError>;
    async fn api_key_by_hash(&self, key_hash: &str) -> Result<Option<ApiKey>, DbError>;
    /// Marks the key revoked (if it is not already); `None` when no key has that id.
    async fn revoke_api_key(&self, id: i64, at: i64) -> Result<Option<ApiKey>, DbError>;
    async fn api_key_by_name(&self, name: &str) -> Result<Option<ApiKey>, DbError>;
    async fn touch_api_key(&self, id: i64, at: i64) -> Result<(), DbError>;

    /// Waits for the connections to close (and SQLite to checkpoint its WAL).
    async fn close(&self);
}

/// Where the database lives, as given by `--database`, `DATABASE_URL` or the defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// An SQLite file, created (with its folder) when missing.
    SqliteFile(PathBuf),
    /// A private in-memory SQLite database: gone when the process ends.
    SqliteMemory,
    /// A PostgreSQL connection URL.
    Postgres(String),
}

impl Location {
    /// Reads a URL: `sqlite://PATH`, `sqlite:PATH`, `sqlite::memory:`, `postgres://…` or
    /// `postgresql://…`.
    pub fn parse(url: &str) -> Result<Location, DbError> {
        let url = url.trim();
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Location::Postgres(url.to_owned()));
        }
        let Some(rest) = url.strip_prefix("sqlite:") else {
            return Err(DbError::UnsupportedUrl(redact(url)));
        };
        if rest == ":memory:" || rest == "//:memory:" {
            return Ok(Location::SqliteMemory);
        }
        let path = rest.strip_prefix("//").unwrap_or(rest);
        // Query options (`?mode=rwc`) are ilaj's to choose; drop any given.
        let path = path.split('?').next().unwrap_or_default();
        if path.is_empty() {
            return Err(DbError::UnsupportedUrl(redact(url)));
        }
        Ok(Location::SqliteFile(PathBuf::from(path)))
    }

    /// The explicit URL if any, else `$ILAJ_DATA_DIR/ilaj.sqlite`, else `./data/ilaj.sqlite`.
    pub fn resolve(url: Option<&str>, data_dir: Option<&Path>) -> Result<Location, DbError> {
        match url.filter(|u| !u.trim().is_empty()) {
            Some(url) => Location::parse(url),
            None => {
                let dir = data_dir.unwrap_or(Path::new(DEFAULT_DATA_DIR));
                Ok(Location::SqliteFile(dir.join(SQLITE_FILE)))
            }
        }
    }

    /// For logs: the file, or the PostgreSQL URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Location::SqliteFile(path) => format!("sqlite file {}", path.display()),
            Location::SqliteMemory => "sqlite in memory".to_owned(),
            Location::Postgres(url) => format!("postgres {}", redact(url)),
        }
    }
}

/// Opens (creating if needed) the database and applies pending migrations.
pub async fn open(location: &Location) -> Result<Arc<dyn Store>, DbError> {
    Ok(match location {
        Location::SqliteFile(path) => Arc::new(SqliteStore::open_file(path).await?),
        Location::SqliteMemory => Arc::new(SqliteStore::open_memory().await?),
        Location::Postgres(url) => Arc::new(PostgresStore::connect(url).await?),
    })
}

/// Now, in Unix milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Unix milliseconds as an RFC 3339 UTC time to the second, for people.
pub fn format_time(ms: i64) -> String {
    let format =
        time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]:[second]Z");
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(format).ok())
        .unwrap_or_else(|| ms.to_string())
}

/// A URL with its password replaced, so it can be logged or echoed in an error.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.chars().take(200).collect();
    };
    let (authority, tail) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let authority = match authority.rsplit_once('@') {
        Some((user_info, host)) => match user_info.split_once(':') {
            Some((user, _password)) => format!("{user}:***@{host}"),
            None => format!("{user_info}@{host}"),
        },
        None => authority.to_owned(),
    };
    format!("{scheme}://{authority}{tail}")
        .chars()
        .take(200)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_name_a_file_or_memory() {
        assert_eq!(
            Location::parse("sqlite://data/x.sqlite").unwrap(),
            Location::SqliteFile("data/x.sqlite".into())
        );
        assert_eq!(
            Location::parse("sqlite:///tmp/x.db?mode=rwc").unwrap(),
            Location::SqliteFile("/tmp/x.db".into())
        );
        assert_eq!(
            Location::parse("sqlite:x.db").unwrap(),
            Location::SqliteFile("x.db".into())
        );
        assert_eq!(
            Location::parse("sqlite::memory:").unwrap(),
            Location::SqliteMemory
        );
    }

    #[test]
    fn postgres_urls_are_kept_whole() {
        let url = "postgresql://u:p@localhost:5432/ilaj?sslmode=disable";
        assert_eq!(
            Location::parse(url).unwrap(),
            Location::Postgres(url.into())
        );
    }

    #[test]
    fn other_schemes_are_refused_without_echoing_passwords() {
        let error = Location::parse("mysql://root:hunter2@db/ilaj").unwrap_err();
        let message = error.to_string();
        assert!(message.contains("unsupported database URL"), "{message}");
        assert!(!message.contains("hunter2"), "{message}");
        assert!(Location::parse("sqlite://").is_err());
        assert!(Location::parse("/var/ilaj.db").is_err());
    }

    #[test]
    fn default_location_is_the_sqlite_file_in_the_data_folder() {
        assert_eq!(
            Location::resolve(None, None).unwrap(),
            Location::SqliteFile(PathBuf::from("data").join("ilaj.sqlite"))
        );
        assert_eq!(
            Location::resolve(Some(" "), Some(Path::new("/srv/ilaj"))).unwrap(),
            Location::SqliteFile(PathBuf::from("/srv/ilaj/ilaj.sqlite"))
        );
    }

    #[test]
    fn descriptions_hide_the_password() {
        let location = Location::parse("postgres://ilaj:s3cret@db.local:5432/ilaj").unwrap();
        assert_eq!(
            location.describe(),
            "postgres postgres://ilaj:***@db.local:5432/ilaj"
        );
    }

    #[test]
    fn times_print_as_utc() {
        assert_eq!(format_time(0), "1970-01-01 00:00:00Z");
        assert_eq!(format_time(1_795_000_000_123), "2026-11-18 11:06:40Z");
    }
}
