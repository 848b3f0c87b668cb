//! `ilaj keys create|list|revoke`: API keys for chatbots.

use std::io::Write;

use super::{CmdError, with_store};
use crate::cli::KeysCommand;
use crate::db::{self, ApiKey, Store};

pub async fn run(command: KeysCommand) -> Result<(), CmdError> {
    match command {
        KeysCommand::Create { db, name } => {
            let (record, key) = with_store(&db, async move |store: &dyn Store| {
                Ok(db::keys::create(store, &name).await?)
            })
            .await?;
            println!("{key}");
            eprintln!(
                "API key {} (`{}`) created. It is shown only this once: store it now.",
                record.id, record.name
            );
        }
        KeysCommand::List { db } => {
            let keys = with_store(&db, async |store: &dyn Store| {
                Ok(store.list_api_keys().await?)
            })
            .await?;
            print_keys(&keys, &mut std::io::stdout().lock())?;
        }
        KeysCommand::Revoke { db, key } => {
            let revoked = with_store(&db, async |store: &dyn Store| {
                Ok(db::keys::revoke(store, &key).await?)
            })
            .await?;
            let record = revoked
                .ok_or_else(|| CmdError::Usage(format!("no API key with name or id `{key}`")))?;
            println!("revoked API key {} (`{}`)", record.id, record.name);
        }
    }
    Ok(())
}

fn print_keys(keys: &[ApiKey], out: &mut impl Write) -> std::io::Result<()> {
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
