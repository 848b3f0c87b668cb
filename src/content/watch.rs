//! Noticing that the content folder changed, by polling: one `stat` per file, no platform
//! watcher to set up, and it works the same on network drives and in containers.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// What identifies the folder's state: every article file's path, size and modification time.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Snapshot(Vec<(PathBuf, u64, Option<SystemTime>)>);

pub fn snapshot(dir: &Path) -> Snapshot {
    let mut entries = Vec::new();
    collect(dir, &mut entries);
    entries.sort();
    Snapshot(entries)
}

fn collect(dir: &Path, out: &mut Vec<(PathBuf, u64, Option<SystemTime>)>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in read.flatten() {
        let path = entry.path();
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        if metadata.is_dir() {
            collect(&path, out);
        } else {
            out.push((path, metadata.len(), metadata.modified().ok()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_changes_when_a_file_is_added_or_edited() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "one").unwrap();
        let first = snapshot(dir.path());
        assert_eq!(first, snapshot(dir.path()));
        std::fs::write(dir.path().join("a.md"), "one two").unwrap();
        let second = snapshot(dir.path());
        assert_ne!(first, second);
        std::fs::create_dir(dir.path().join("fr")).unwrap();
        std::fs::write(dir.path().join("fr/b.md"), "x").unwrap();
        assert_ne!(second, snapshot(dir.path()));
    }
}
