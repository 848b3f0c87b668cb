//! The shared backend: PostgreSQL, for several ilaj servers behind a load balancer.
//!
//! The URL may choose a schema with `?options=-c%20search_path%3DNAME` (the tests give each
//! test its own schema that way).

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

use super::{Backend, DbError, migrations};

/// How long start-up waits for the database before failing.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct PostgresStore {
    pool: PgPool,
}

impl PostgresStore {
    /// Connects and migrates. Migrations take an advisory lock, so servers starting together
    /// apply each one once.
    pub async fn connect(url: &str) -> Result<PostgresStore, DbError> {
        let options = PgConnectOptions::from_str(url)?;
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(CONNECT_TIMEOUT)
            .connect_with(options)
            .await?;
        migrations::migrator(Backend::Postgres)
            .await?
            .run(&pool)
            .await?;
        Ok(PostgresStore { pool })
    }
}

super::sql::store_impl!(PostgresStore, sqlx::postgres::PgRow, super::sql::POSTGRES);
