//! The SQL of the store, written once for both backends.
//!
//! SQLite and PostgreSQL read the same statements (sqlx's SQLite driver takes `$N`
//! placeholders too); what differs is named in one place, [`Dialect`]: the backend's name,
//! its aggregate for a comma-separated list and its two-argument maximum and minimum. [`store_impl!`] turns the one body below into
//! each backend's `Store` implementation, so the SQL and the row mapping exist once while sqlx
//! still checks each backend's types.

use super::Backend;

/// What differs between the backends' SQL.
pub(super) struct Dialect {
    pub backend: Backend,
    /// Distinct values of the `lang` column of a group, comma-separated.
    pub distinct_langs: &'static str,
    /// The larger and the smaller of two values (SQLite's scalar `MAX(a, b)`, PostgreSQL's
    /// `GREATEST`). Arguments are never NULL where they are used.
    pub greatest: &'static str,
    pub least: &'static str,
}

pub(super) const SQLITE: Dialect = Dialect {
    backend: Backend::Sqlite,
    distinct_langs: "group_concat(DISTINCT lang)",
    greatest: "MAX",
    least: "MIN",
};

pub(super) const POSTGRES: Dialect = Dialect {
    backend: Backend::Postgres,
    distinct_langs: "string_agg(DISTINCT lang, ',')",
    greatest: "GREATEST",
    least: "LEAST",
};

/// The columns of an `ApiKey`, spliced into the key statements at compile time.
macro_rules! key_columns {
    () => {
        "id, name, created_at, last_used_at, revoked_at"
    };
}

pub(super) const INSERT_FEEDBACK: &str =
    "INSERT INTO feedback (article, lang, section, helpful, match_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id";

pub(super) const FEEDBACK_COUNTS: &str =
    "SELECT COALESCE(SUM(CASE WHEN helpful THEN 1 ELSE 0 END), 0) AS helpful,
            COALESCE(SUM(CASE WHEN helpful THEN 0 ELSE 1 END), 0) AS not_helpful
     FROM feedback WHERE article = $1";

pub(super) const ALL_FEEDBACK_COUNTS: &str = "SELECT article,
            SUM(CASE WHEN helpful THEN 1 ELSE 0 END) AS helpful,
            SUM(CASE WHEN helpful THEN 0 ELSE 1 END) AS not_helpful
     FROM feedback GROUP BY article ORDER BY article";

pub(super) const FINGERPRINT_ID: &str =
    "SELECT id FROM fingerprints WHERE kind = $1 AND exception = $2 AND message = $3";

/// Nothing when another writer inserted the same fingerprint first: then read its id.
pub(super) const INSERT_FINGERPRINT: &str =
    "INSERT INTO fingerprints (kind, exception, message) VALUES ($1, $2, $3)
     ON CONFLICT (kind, exception, message) DO NOTHING RETURNING id";

/// Adds a batch's sums to a row of the query log, creating it if it is the first of its
/// fingerprint, language, answer and day. Scores may be NULL (no result): each side falls
/// back on the other, as the two-argument MAX of SQLite would return NULL.
pub(super) fn upsert_query_stat(dialect: &Dialect) -> String {
    let (max, min) = (dialect.greatest, dialect.least);
    format!(
        "INSERT INTO query_stats (day, fingerprint_id, lang, answer, queries, unscored,
                                  best_score, worst_score, latency_ms_sum, latency_ms_max,
                                  last_seen)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (day, fingerprint_id, lang, answer) DO UPDATE SET
             queries = query_stats.queries + excluded.queries,
             unscored = query_stats.unscored + excluded.unscored,
             best_score = {max}(COALESCE(query_stats.best_score, excluded.best_score),
                                COALESCE(excluded.best_score, query_stats.best_score)),
             worst_score = {min}(COALESCE(query_stats.worst_score, excluded.worst_score),
                                 COALESCE(excluded.worst_score, query_stats.worst_score)),
             latency_ms_sum = query_stats.latency_ms_sum + excluded.latency_ms_sum,
             latency_ms_max = {max}(query_stats.latency_ms_max, excluded.latency_ms_max),
             last_seen = {max}(query_stats.last_seen, excluded.last_seen)"
    )
}

/// Fingerprints answered `none` or `uncertain` (or, logged without a state, with a query
/// that had no result or a best score under `$1`): `none` first, then `uncertain`, then the
/// stateless ones; the most frequent first within each. The sums are grouped by id before the
/// texts are joined in, so a year of rows is grouped on integers. Sums are cast because
/// PostgreSQL sums `BIGINT`s into `NUMERIC`.
pub(super) fn unmatched(dialect: &Dialect) -> String {
    format!(
        "SELECT f.kind, f.exception, f.message AS fingerprint, g.n, g.langs, g.best_score,
                g.last_seen,
                CASE g.worst WHEN 0 THEN 'none' WHEN 1 THEN 'uncertain' END AS answer
         FROM (SELECT fingerprint_id, CAST(SUM(queries) AS BIGINT) AS n, {} AS langs,
                      MAX(best_score) AS best_score, MAX(last_seen) AS last_seen,
                      MIN(CASE answer WHEN 'none' THEN 0 WHEN 'uncertain' THEN 1 ELSE 2 END)
                          AS worst
               FROM query_stats
               WHERE answer IN ('none', 'uncertain')
                  OR (answer = 'unknown' AND (unscored > 0 OR worst_score < $1))
               GROUP BY fingerprint_id) g
         JOIN fingerprints f ON f.id = g.fingerprint_id
         ORDER BY g.worst, g.n DESC, g.last_seen DESC, f.message
         LIMIT $2",
        dialect.distinct_langs
    )
}

pub(super) const QUERY_COUNT: &str =
    "SELECT CAST(COALESCE(SUM(queries), 0) AS BIGINT) AS n FROM query_stats";

pub(super) const DELETE_QUERY_STATS_BEFORE: &str = "DELETE FROM query_stats WHERE day < $1";

/// Fingerprints none of the remaining days refers to (one pass over the sums, not one
/// lookup per fingerprint). Each server runs it in its query-log writer, between batches, so
/// it never races that server's own writes; across servers sharing PostgreSQL, a fingerprint
/// unseen for the whole retention period that comes back during another server's hourly
/// deletion can lose its text (its counts stay, unlisted in the report).
pub(super) const DELETE_UNUSED_FINGERPRINTS: &str = "DELETE FROM fingerprints
     WHERE id NOT IN (SELECT DISTINCT fingerprint_id FROM query_stats)";

pub(super) const INSERT_KEY: &str = concat!(
    "INSERT INTO api_keys (name, key_hash, created_at) VALUES ($1, $2, $3) RETURNING ",
    key_columns!()
);

pub(super) const LIST_KEYS: &str = concat!("SELECT ", key_columns!(), " FROM api_keys ORDER BY id");

pub(super) const KEY_BY_HASH: &str = concat!(
    "SELECT ",
    key_columns!(),
    " FROM api_keys WHERE key_hash = $1"
);

pub(super) const KEY_BY_NAME: &str =
    concat!("SELECT ", key_columns!(), " FROM api_keys WHERE name = $1");

pub(super) const REVOKE_KEY: &str = concat!(
    "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING ",
    key_columns!()
);

pub(super) const TOUCH_KEY: &str = "UPDATE api_keys SET last_used_at = $1 WHERE id = $2";

/// `"fr,ar"` → `["ar", "fr"]`.
pub(super) fn split_langs(langs: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = langs
        .unwrap_or_default()
        .split(',')
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Counts are stored as signed 64-bit integers in both backends.
pub(super) fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A unique-constraint failure on insert means the name is taken (hashes of random keys do
/// not collide).
pub(super) fn unique_name(error: sqlx::Error, name: &str) -> super::DbError {
    match &error {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            super::DbError::DuplicateKeyName(name.to_owned())
        }
        _ => super::DbError::Sqlx(error),
    }
}

/// `impl Store for $store` over a pool `self.pool` of rows `$row`, with `$dialect`'s SQL.
macro_rules! store_impl {
    ($store:ty, $row:ty, $dialect:expr) => {
        const _: () = {
            use async_trait::async_trait;
            use sqlx::Row;

            use $crate::db::query_log::aggregate;
            use $crate::db::sql::{self, split_langs, to_i64, unique_name};
            use $crate::db::{
                ApiKey, Backend, DbError, FeedbackCounts, GapRow, NewFeedback, QueryRecord, Store,
            };
            use $crate::search::AnswerState;

            fn api_key(row: &$row) -> Result<ApiKey, sqlx::Error> {
                Ok(ApiKey {
                    id: row.try_get("id")?,
                    name: row.try_get("name")?,
                    created_at: row.try_get("created_at")?,
                    last_used_at: row.try_get("last_used_at")?,
                    revoked_at: row.try_get("revoked_at")?,
                })
            }

            fn counts(row: &$row) -> Result<FeedbackCounts, sqlx::Error> {
                let helpful: i64 = row.try_get("helpful")?;
                let not_helpful: i64 = row.try_get("not_helpful")?;
                Ok(FeedbackCounts {
                    helpful: u64::try_from(helpful).unwrap_or(0),
                    not_helpful: u64::try_from(not_helpful).unwrap_or(0),
                })
            }

            #[async_trait]
            impl Store for $store {
                fn backend(&self) -> Backend {
                    $dialect.backend
                }

                async fn record_feedback(&self, feedback: &NewFeedback) -> Result<i64, DbError> {
                    let row = sqlx::query(sql::INSERT_FEEDBACK)
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
                    let row = sqlx::query(sql::FEEDBACK_COUNTS)
                        .bind(article)
                        .fetch_one(&self.pool)
                        .await?;
                    Ok(counts(&row)?)
                }

                async fn all_feedback_counts(
                    &self,
                ) -> Result<Vec<(String, FeedbackCounts)>, DbError> {
                    let rows = sqlx::query(sql::ALL_FEEDBACK_COUNTS)
                        .fetch_all(&self.pool)
                        .await?;
                    rows.iter()
                        .map(|row| Ok((row.try_get("article")?, counts(row)?)))
                        .collect()
                }

                async fn record_queries(&self, records: &[QueryRecord]) -> Result<(), DbError> {
                    let stats = aggregate(records);
                    if stats.is_empty() {
                        return Ok(());
                    }
                    let upsert = sql::upsert_query_stat(&$dialect);
                    let mut tx = self.pool.begin().await?;
                    for stat in &stats {
                        let existing = sqlx::query(sql::FINGERPRINT_ID)
                            .bind(&stat.kind)
                            .bind(&stat.exception)
                            .bind(&stat.fingerprint)
                            .fetch_optional(&mut *tx)
                            .await?;
                        let row = match existing {
                            Some(row) => row,
                            None => match sqlx::query(sql::INSERT_FINGERPRINT)
                                .bind(&stat.kind)
                                .bind(&stat.exception)
                                .bind(&stat.fingerprint)
                                .fetch_optional(&mut *tx)
                                .await?
                            {
                                Some(row) => row,
                                // Another server inserted it since the first look.
                                None => {
                                    sqlx::query(sql::FINGERPRINT_ID)
                                        .bind(&stat.kind)
                                        .bind(&stat.exception)
                                        .bind(&stat.fingerprint)
                                        .fetch_one(&mut *tx)
                                        .await?
                                }
                            },
                        };
                        let fingerprint_id: i64 = row.try_get("id")?;
                        sqlx::query(&upsert)
                            .bind(stat.day)
                            .bind(fingerprint_id)
                            .bind(stat.lang.code())
                            .bind(stat.answer)
                            .bind(to_i64(stat.queries))
                            .bind(to_i64(stat.unscored))
                            .bind(stat.best_score)
                            .bind(stat.worst_score)
                            .bind(to_i64(stat.latency_ms_sum))
                            .bind(to_i64(stat.latency_ms_max))
                            .bind(stat.last_seen)
                            .execute(&mut *tx)
                            .await?;
                    }
                    tx.commit().await?;
                    Ok(())
                }

                async fn delete_queries_before(&self, day: i64) -> Result<u64, DbError> {
                    let mut tx = self.pool.begin().await?;
                    let done = sqlx::query(sql::DELETE_QUERY_STATS_BEFORE)
                        .bind(day)
                        .execute(&mut *tx)
                        .await?;
                    if done.rows_affected() > 0 {
                        sqlx::query(sql::DELETE_UNUSED_FINGERPRINTS)
                            .execute(&mut *tx)
                            .await?;
                    }
                    tx.commit().await?;
                    Ok(done.rows_affected())
                }

                async fn unmatched_fingerprints(
                    &self,
                    min_score: f64,
                    limit: u32,
                ) -> Result<Vec<GapRow>, DbError> {
                    let rows = sqlx::query(&sql::unmatched(&$dialect))
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
                                answer: row
                                    .try_get::<Option<String>, _>("answer")?
                                    .as_deref()
                                    .and_then(AnswerState::parse),
                            })
                        })
                        .collect()
                }

                async fn query_count(&self) -> Result<u64, DbError> {
                    let n: i64 = sqlx::query(sql::QUERY_COUNT)
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
                    let row = sqlx::query(sql::INSERT_KEY)
                        .bind(name)
                        .bind(key_hash)
                        .bind(created_at)
                        .fetch_one(&self.pool)
                        .await
                        .map_err(|e| unique_name(e, name))?;
                    Ok(api_key(&row)?)
                }

                async fn list_api_keys(&self) -> Result<Vec<ApiKey>, DbError> {
                    let rows = sqlx::query(sql::LIST_KEYS).fetch_all(&self.pool).await?;
                    Ok(rows.iter().map(api_key).collect::<Result<_, _>>()?)
                }

                async fn api_key_by_hash(&self, key_hash: &str) -> Result<Option<ApiKey>, DbError> {
                    let row = sqlx::query(sql::KEY_BY_HASH)
                        .bind(key_hash)
                        .fetch_optional(&self.pool)
                        .await?;
                    Ok(row.as_ref().map(api_key).transpose()?)
                }

                async fn api_key_by_name(&self, name: &str) -> Result<Option<ApiKey>, DbError> {
                    let row = sqlx::query(sql::KEY_BY_NAME)
                        .bind(name)
                        .fetch_optional(&self.pool)
                        .await?;
                    Ok(row.as_ref().map(api_key).transpose()?)
                }

                async fn revoke_api_key(
                    &self,
                    id: i64,
                    at: i64,
                ) -> Result<Option<ApiKey>, DbError> {
                    let row = sqlx::query(sql::REVOKE_KEY)
                        .bind(at)
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?;
                    Ok(row.as_ref().map(api_key).transpose()?)
                }

                async fn touch_api_key(&self, id: i64, at: i64) -> Result<(), DbError> {
                    sqlx::query(sql::TOUCH_KEY)
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
        };
    };
}

pub(super) use store_impl;
