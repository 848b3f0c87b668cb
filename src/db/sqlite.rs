//! The embedded backend: one SQLite file in write-ahead-log mode, so readers never wait for
//! the writer and a crash loses nothing committed.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use super::{Backend, DbError, migrations};

/// How long a writer waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    /// Opens the file, creating it and its folder if missing, and migrates it.
    pub async fn open_file(path: &Path) -> Result<SqliteStore, DbError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| DbError::DataDir {
                path: dir.to_path_buf(),
                source,
            })?;
        }
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // In WAL mode NORMAL is durable across application crashes and only an OS crash
            // can lose the last transactions; FULL would fsync on every vote.
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(BUSY_TIMEOUT);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        Self::migrated(pool).await
    }

    /// A private database in memory, for tests and throw-away runs.
    pub async fn open_memory() -> Result<SqliteStore, DbError> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:")?;
        // Every connection to `:memory:` is its own database: keep exactly one, forever.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        Self::migrated(pool).await
    }

    async fn migrated(pool: SqlitePool) -> Result<SqliteStore, DbError> {
        migrations::migrator(Backend::Sqlite)
            .await?
            .run(&pool)
            .await?;
        Ok(SqliteStore { pool })
    }
}

super::sql::store_impl!(SqliteStore, sqlx::sqlite::SqliteRow, super::sql::SQLITE);
