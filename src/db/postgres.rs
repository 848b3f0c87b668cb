//! The shared backend: PostgreSQL, for several ilaj servers behind a load balancer.
//!
//! The URL may choose a schema with `?options=-c%20search_path%3DNAME` (the tests give each
//! test its own schema that way).

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgRow};

use super::sqlite::{split_langs, unique_name};
use super::{
    ApiKey, Backend, DbError, FeedbackCounts, GapRow, NewFeedback, QueryRecord, Store, migrations,
};

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

fn api_key(row: &PgRow) -> Result<ApiKey, sqlx::Error> {
    Ok(ApiKey {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        created_at: row.try_get("created_at")?,
        last_used_at: row.try_get("last_used_at")?,
        revoked_at: row.try_get("revoked_at")?,
    })
}

fn counts(row: &PgRow, helpful: &str, not_helpful: &str) -> Result<FeedbackCounts, sqlx::Error> {
    let helpful: i64 = row.try_get(helpful)?;
    let not_helpful: i64 = row.try_get(not_helpful)?;
    Ok(FeedbackCounts {
        helpful: u64::try_from(helpful).unwrap_or(0),
        not_helpful: u64::try_from(not_helpful).unwrap_or(0),
    })
}

const KEY_COLUMNS: &str = "id, name, created_at, last_used_at, revoked_at";

#[async_trait]
impl Store for PostgresStore {
    fn backend(&self) -> Backend {
        Backend::Postgres
    }

    async fn record_feedback(&self, feedback: &NewFeedback) -> Result<i64, DbError> {
        let row = sqlx::query(
            "INSERT INTO feedback (article, lang, section, helpful, match_id, created_at)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(&feedback.article)
        .bind(feedback.lang.code())
        .bind(&feedback.section)
        .bind(feedback.helpful)
        .bind(&feedback.match_id)
        .bind(feedback.created_at)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("id")?)
    }

    async fn feedback_counts(&self, article: &str) -> Result<FeedbackCounts, DbError> {
        let row = sqlx::query(
            "SELECT COALESCE(SUM(CASE WHEN helpful THEN 1 ELSE 0 END), 0) AS helpful,
                    COALESCE(SUM(CASE WHEN helpful THEN 0 ELSE 1 END), 0) AS not_helpful
             FROM feedback WHERE article = $1",
        )
        .bind(article)
        .fetch_one(&self.pool)
        .await?;
        Ok(counts(&row, "helpful", "not_helpful")?)
    }

    async fn all_feedback_counts(&self) -> Result<Vec<(String, FeedbackCounts)>, DbError> {
        let rows = sqlx::query(
            "SELECT article,
                    SUM(CASE WHEN helpful THEN 1 ELSE 0 END) AS helpful,
                    SUM(CASE WHEN helpful THEN 0 ELSE 1 END) AS not_helpful
             FROM feedback GROUP BY article ORDER BY article",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get("article")?,
                    counts(row, "helpful", "not_helpful")?,
                ))
            })
            .collect()
    }

    async fn record_query(&self, record: &QueryRecord) -> Result<(), DbError> {
        let (top_article, top_score) = match &record.top {
            Some((id, score)) => (Some(id.as_str()), Some(*score)),
            None => (None, None),
        };
        sqlx::query(
            "INSERT INTO queries (match_id, endpoint, lang, kind, exception, fingerprint,
                                  top_article, top_score, result_count, latency_ms, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&record.match_id)
        .bind(record.endpoint.as_str())
        .bind(record.lang.code())
        .bind(&record.fingerprint.kind)
        .bind(&record.fingerprint.exception)
        .bind(&record.fingerprint.message)
        .bind(top_article)
        .bind(top_score)
        .bind(i64::from(record.result_count))
        .bind(i64::try_from(record.latency_ms).unwrap_or(i64::MAX))
        .bind(record.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn unmatched_fingerprints(
        &self,
        min_score: f64,
        limit: u32,
    ) -> Result<Vec<GapRow>, DbError> {
        let rows = sqlx::query(
            "SELECT kind, exception, fingerprint, COUNT(*) AS n,
                    string_agg(DISTINCT lang, ',') AS langs,
                    MAX(top_score) AS best_score, MAX(created_at) AS last_seen
             FROM queries
             WHERE top_score IS NULL OR top_score < $1
             GROUP BY kind, exception, fingerprint
             ORDER BY n DESC, last_seen DESC, fingerprint
             LIMIT $2",
        )
        .bind(min_score)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let count: i64 = row.try_get("n")?;
                let langs: Option<String> = row.try_get("langs")?;
                Ok(GapRow {
                    kind: row.try_get("kind")?,
                    exception: row.try_get("exception")?,
                    fingerprint: row.try_get("fingerprint")?,
                    count: u64::try_from(count).unwrap_or(0),
                    langs: split_langs(langs.as_deref()),
                    best_score: row.try_get("best_score")?,
                    last_seen: row.try_get("last_seen")?,
                })
            })
            .collect()
    }

    async fn query_count(&self) -> Result<u64, DbError> {
        let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM queries")
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    async fn insert_api_key(
        &self,
        name: &str,
        key_hash: &str,
        created_at: i64,
    ) -> Result<ApiKey, DbError> {
        let row = sqlx::query(&format!(
            "INSERT INTO api_keys (name, key_hash, created_at) VALUES ($1, $2, $3)
             RETURNING {KEY_COLUMNS}"
        ))
        .bind(name)
        .bind(key_hash)
        .bind(created_at)
        .fetch_one(&self.pool)
        .await
        .map_err(|e| unique_name(e, name))?;
        Ok(api_key(&row)?)
    }

    async fn list_api_keys(&self) -> Result<Vec<ApiKey>, DbError> {
        let rows = sqlx::query(&format!("SELECT {KEY_COLUMNS} FROM api_keys ORDER BY id"))
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(api_key).collect::<Result<_, _>>()?)
    }

    async fn api_key_by_hash(&self, key_hash: &str) -> Result<Option<ApiKey>, DbError> {
        let row = sqlx::query(&format!(
            "SELECT {KEY_COLUMNS} FROM api_keys WHERE key_hash = $1"
        ))
        .bind(key_hash)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(api_key).transpose()?)
    }

    async fn api_key_by_name(&self, name: &str) -> Result<Option<ApiKey>, DbError> {
        let row = sqlx::query(&format!(
            "SELECT {KEY_COLUMNS} FROM api_keys WHERE name = $1"
        ))
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(api_key).transpose()?)
    }

    async fn revoke_api_key(&self, id: i64, at: i64) -> Result<Option<ApiKey>, DbError> {
        let row = sqlx::query(&format!(
            "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2
             RETURNING {KEY_COLUMNS}"
        ))
        .bind(at)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(api_key).transpose()?)
    }

    async fn touch_api_key(&self, id: i64, at: i64) -> Result<(), DbError> {
        sqlx::query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2")
            .bind(at)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}
