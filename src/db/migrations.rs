//! The migrations, embedded in the binary so `ilaj` runs from anywhere.
//!
//! sqlx's `migrate!` macro would embed them too, but it needs sqlx's `macros` feature, which
//! builds both database drivers a second time for the compiler; a list of `include_str!` costs
//! nothing. A test checks that the list and the folders agree.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};

use super::{Backend, DbError};

/// (version, description, SQL), in order.
type Embedded = &'static [(i64, &'static str, &'static str)];

const SQLITE: Embedded = &[
    (
        1,
        "init",
        include_str!("../../migrations/sqlite/0001_init.sql"),
    ),
    (
        2,
        "answer_state",
        include_str!("../../migrations/sqlite/0002_answer_state.sql"),
    ),
    (
        3,
        "query_stats",
        include_str!("../../migrations/sqlite/0003_query_stats.sql"),
    ),
];

const POSTGRES: Embedded = &[
    (
        1,
        "init",
        include_str!("../../migrations/postgres/0001_init.sql"),
    ),
    (
        2,
        "answer_state",
        include_str!("../../migrations/postgres/0002_answer_state.sql"),
    ),
    (
        3,
        "query_stats",
        include_str!("../../migrations/postgres/0003_query_stats.sql"),
    ),
];

#[derive(Debug)]
struct EmbeddedSource(Embedded);

impl MigrationSource<'static> for EmbeddedSource {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async move {
            Ok(self
                .0
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

fn embedded(backend: Backend) -> Embedded {
    match backend {
        Backend::Sqlite => SQLITE,
        Backend::Postgres => POSTGRES,
    }
}

pub async fn migrator(backend: Backend) -> Result<Migrator, DbError> {
    Ok(Migrator::new(EmbeddedSource(embedded(backend))).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(folder: &str) -> Vec<(i64, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("migrations")
            .join(folder);
        let mut found: Vec<(i64, String)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter_map(|name| {
                let stem = name.strip_suffix(".sql")?;
                let (version, description) = stem.split_once('_')?;
                Some((version.parse().ok()?, description.to_owned()))
            })
            .collect();
        found.sort();
        found
    }

    #[test]
    fn every_migration_file_is_embedded_in_order() {
        for (folder, backend) in [("sqlite", Backend::Sqlite), ("postgres", Backend::Postgres)] {
            let listed: Vec<(i64, String)> = embedded(backend)
                .iter()
                .map(|&(v, d, _)| (v, d.to_owned()))
                .collect();
            assert_eq!(listed, files(folder), "migrations/{folder}");
        }
    }

    #[test]
    fn both_backends_have_the_same_versions() {
        let versions = |e: Embedded| e.iter().map(|m| m.0).collect::<Vec<_>>();
        assert_eq!(versions(SQLITE), versions(POSTGRES));
    }
}
