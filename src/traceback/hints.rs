//! Whether the paste shows allocator or debugging settings already in force.
//!
//! PyTorch's own messages *suggest* `PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True` (the
//! variable is `PYTORCH_ALLOC_CONF` from 2.8 on; both names are read),
//! `max_split_size_mb` and `CUDA_LAUNCH_BLOCKING=1`; those suggestions (and people's "try
//! setting …") are removed first, then any remaining setting counts as set: an `export` line, a
//! command line, `os.environ[...] = ...`, `_set_allocator_settings(...)`. Matching works on the
//! lower-cased whitespace-free text, so quoting style and wraps do not matter.

use super::EnvHints;
use regex::Regex;
use std::sync::LazyLock;

static SUGGESTIONS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?:try|consider)(?:setting|passing|using|runningwith)(?:pytorch(?:_cuda)?_alloc_conf=)?",
        r"(?:expandable_segments:true|max_split_size_mb|cuda_launch_blocking=1)",
        r"|pleaseset(?:cuda_launch_blocking=1|pytorch(?:_cuda)?_alloc_conf)",
    ))
    .expect("valid regex")
});
static EXPANDABLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"expandable_segments["']?[:=]["']?true"#).expect("valid regex"));
static MAX_SPLIT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"max_split_size_mb["']?[:=]["']?[0-9]"#).expect("valid regex"));
static LAUNCH_BLOCKING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"cuda_launch_blocking["'\]]*[=:,]["']*1"#).expect("valid regex"));

/// Settings shown in `lower` (the paste squashed and lower-cased).
pub(super) fn detect(lower: &str) -> EnvHints {
    let shown = SUGGESTIONS.replace_all(lower, "");
    EnvHints {
        expandable_segments_set: EXPANDABLE.is_match(&shown),
        max_split_size_set: MAX_SPLIT.is_match(&shown),
        cuda_launch_blocking_set: LAUNCH_BLOCKING.is_match(&shown),
    }
}

#[cfg(test)]
mod tests {
    use super::super::normalize::squash_lower;
    use super::*;

    fn hints(s: &str) -> EnvHints {
        detect(&squash_lower(s))
    }

    #[test]
    fn suggestions_in_pytorch_messages_do_not_count() {
        let s = "If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation. If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation. For debugging consider passing CUDA_LAUNCH_BLOCKING=1.";
        assert_eq!(hints(s), EnvHints::default());
        let wrapped = "try setting PYTORCH_CUDA_ALLOC_CONF=expandable_se\ngments:True to avoid";
        assert_eq!(hints(wrapped), EnvHints::default());
    }

    #[test]
    fn settings_in_commands_and_code_count() {
        let h = hints(
            "$ export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True,max_split_size_mb:128\n$ CUDA_LAUNCH_BLOCKING=1 python train.py",
        );
        assert!(h.expandable_segments_set && h.max_split_size_set && h.cuda_launch_blocking_set);
        let py = hints(
            "os.environ['CUDA_LAUNCH_BLOCKING'] = \"1\"\nos.environ[\"PYTORCH_CUDA_ALLOC_CONF\"] = \"expandable_segments:True\"",
        );
        assert!(
            py.expandable_segments_set && py.cuda_launch_blocking_set && !py.max_split_size_set
        );
        assert!(!hints("expandable_segments:False").expandable_segments_set);
    }

    #[test]
    fn the_allocator_variable_counts_under_its_old_and_new_names() {
        let new = hints("$ export PYTORCH_ALLOC_CONF=expandable_segments:True\n$ python train.py");
        assert!(new.expandable_segments_set);
        let warning =
            "UserWarning: PYTORCH_CUDA_ALLOC_CONF is deprecated, use PYTORCH_ALLOC_CONF instead";
        assert_eq!(hints(warning), EnvHints::default());
        let suggestion =
            "try setting PYTORCH_ALLOC_CONF=expandable_segments:True to avoid fragmentation";
        assert_eq!(hints(suggestion), EnvHints::default());
    }
}
