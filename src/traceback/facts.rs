//! The numbers inside out-of-memory messages, in bytes.
//!
//! Every generation of the messages (THC, 1.0–1.3 `cached`, 1.4–2.0 `reserved in total by
//! PyTorch`, 2.1 `total capacty`, ≥ 2.2 `of which … is free`, `allowed`, private pools, MPS,
//! DefaultCPUAllocator) is read by one set of keyword patterns over the whitespace-free text, so
//! hard wraps, even inside a number, change nothing. A number counts only once its unit is
//! printed, and a field whose keyword follows the number (`… free`) only once that keyword is
//! printed: a paste cut anywhere yields exactly the figures that were complete.
//!
//! A paste can hold several messages (a retry, a chained exception, a repost). The text is cut
//! into segments at each "out of memory" / allocator keyword; the segment with the most figures
//! wins (the last one on a tie: the final error), so figures of two messages are never mixed.

use super::size::size_to_bytes;
use super::{Facts, MAX_OTHER_PROCESSES, OtherProcess};
use regex::Regex;
use std::sync::LazyLock;

// ASCII classes (`[0-9]`, not `\d`) keep the automata small: Unicode digit classes under
// counted repetition take milliseconds each to compile.

/// A printed size: the number (a mangled decimal like `512.—` reads as 512) and its unit.
const SIZE: &str = r"([0-9]{1,30}(?:\.[0-9]{0,30})?)[—–]?(KiB|MiB|GiB|TiB|KB|MB|GB|TB|kB|bytes|B)";

struct SizeField {
    pattern: Regex,
    set: fn(&mut Facts, u64),
}

fn field(before: &str, after: &str, set: fn(&mut Facts, u64)) -> SizeField {
    let pattern = Regex::new(&format!("(?i:{before}){SIZE}(?i:{after})")).expect("valid regex");
    SizeField { pattern, set }
}

static SIZE_FIELDS: LazyLock<Vec<SizeField>> = LazyLock::new(|| {
    vec![
        field("triedtoallocate", "", |f, v| {
            f.tried_to_allocate_bytes = Some(v)
        }),
        // The caching allocator's warning (PyTorch ≥ 2.8): "memory allocation failed with OOM
        // on device 0 while trying to allocate 671088640 bytes (free: …, total: …)".
        field(
            "failedwithoomondevice[0-9]{1,6}whiletryingtoallocate",
            "",
            |f, v| f.tried_to_allocate_bytes = Some(v),
        ),
        field(r"\(?[gx]pu[0-9]{1,6};", "totalcapacity", |f, v| {
            f.total_capacity_bytes = Some(v)
        }),
        field("totalcapaci?tyof", "", |f, v| {
            f.total_capacity_bytes = Some(v)
        }),
        field("ofwhich", "", |f, v| f.free_bytes = Some(v)),
        field(";", "free", |f, v| f.free_bytes = Some(v)),
        field("thisprocesshas", "", |f, v| {
            f.process_in_use_bytes = Some(v)
        }),
        field("oftheallocatedmemory", "", |f, v| {
            f.allocated_by_pytorch_bytes = Some(v)
        }),
        field("", "isreservedbypytorch", |f, v| {
            f.reserved_unallocated_bytes = Some(v)
        }),
        field("", "alreadyallocated", |f, v| {
            f.already_allocated_bytes = Some(v)
        }),
        field("", "reservedintotal", |f, v| {
            f.reserved_total_bytes = Some(v)
        }),
        field(";", "cached", |f, v| f.cached_bytes = Some(v)),
        field("", "allowed;", |f, v| f.allowed_bytes = Some(v)),
        field("mpsallocated:", "", |f, v| f.mps_allocated_bytes = Some(v)),
        field("otherallocations:", "", |f, v| {
            f.other_allocations_bytes = Some(v)
        }),
        field("maxallowed:", "", |f, v| f.max_allowed_bytes = Some(v)),
        field("with", "allocatedinprivatepool", |f, v| {
            f.private_pools_bytes = Some(v)
        }),
    ]
});

static DEVICE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i:\([gx]pu)([0-9]{1,6});|(?i:[gx]pu)([0-9]{1,6})(?i:hasatotal)|(?i:withoomondevice)([0-9]{1,6})",
    )
    .expect("valid regex")
});

/// The allocator warning's free and total figures: plain byte counts, no unit printed.
static ALLOCATOR_WARNING_FREE_TOTAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"bytes\(free:([0-9]{1,20}),total:([0-9]{1,20})\)").expect("valid regex")
});

static OTHER_PROCESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"(?i:process)([0-9]{{1,10}})(?i:has){SIZE}")).expect("valid regex")
});

static SEGMENT_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)outof(?:the)?memory|defaultcpuallocator|posix_memalign|notenoughmemory|failedwithoomondevice",
    )
        .expect("valid regex")
});

/// Longest stretch of squashed text one message's figures can span.
const SEGMENT_CHARS: usize = 2500;
/// Segments examined at each end of a paste with many messages.
const SEGMENTS_EACH_END: usize = 16;

/// Facts from `squashed` (the paste with all whitespace removed, case kept).
pub(super) fn extract(squashed: &str) -> Facts {
    let starts = segment_starts(squashed);
    let mut best = Facts::default();
    let mut best_score = 0;
    let picked = if starts.len() > 2 * SEGMENTS_EACH_END {
        let mut v = starts[..SEGMENTS_EACH_END].to_vec();
        v.extend_from_slice(&starts[starts.len() - SEGMENTS_EACH_END..]);
        v
    } else {
        starts.clone()
    };
    for &start in &picked {
        let next = starts
            .iter()
            .copied()
            .find(|&s| s > start)
            .unwrap_or(squashed.len());
        let end = floor_char_boundary(squashed, next.min(start.saturating_add(SEGMENT_CHARS)));
        let Some(segment) = squashed.get(start..end) else {
            continue;
        };
        let facts = extract_segment(segment);
        let score = facts.count();
        if score > 0 && score >= best_score {
            best = facts;
            best_score = score;
        }
    }
    best
}

/// Segment starts: each keyword, except one within 24 characters of the previous start
/// (Windows' "DefaultCPUAllocator: not enough memory" is one message). Without any keyword the
/// whole paste is one segment (a hand-typed "Tried to allocate …").
fn segment_starts(squashed: &str) -> Vec<usize> {
    let mut starts: Vec<usize> = Vec::new();
    for m in SEGMENT_START.find_iter(squashed) {
        if starts.last().is_none_or(|&last| m.start() >= last + 24) {
            starts.push(m.start());
        }
    }
    if starts.is_empty() {
        starts.push(0);
    }
    starts
}

fn extract_segment(segment: &str) -> Facts {
    let mut facts = Facts::default();
    for field in SIZE_FIELDS.iter() {
        if let Some(bytes) = field
            .pattern
            .captures(segment)
            .and_then(|c| size_to_bytes(c.get(1)?.as_str(), c.get(2)?.as_str()))
        {
            (field.set)(&mut facts, bytes);
        }
    }
    facts.device = DEVICE.captures(segment).and_then(|c| {
        c.get(1)
            .or_else(|| c.get(2))
            .or_else(|| c.get(3))
            .and_then(|m| m.as_str().parse().ok())
    });
    if let Some(c) = ALLOCATOR_WARNING_FREE_TOTAL.captures(segment) {
        facts.free_bytes = c.get(1).and_then(|m| m.as_str().parse().ok());
        facts.total_capacity_bytes = c.get(2).and_then(|m| m.as_str().parse().ok());
    }
    for c in OTHER_PROCESS
        .captures_iter(segment)
        .take(MAX_OTHER_PROCESSES)
    {
        let pid = c.get(1).and_then(|m| m.as_str().parse().ok());
        let bytes = c
            .get(2)
            .zip(c.get(3))
            .and_then(|(n, u)| size_to_bytes(n.as_str(), u.as_str()));
        if let (Some(pid), Some(bytes)) = (pid, bytes) {
            facts.other_processes.push(OtherProcess { pid, bytes });
        }
    }
    facts
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(s: &str) -> Facts {
        extract(&s.chars().filter(|c| !c.is_whitespace()).collect::<String>())
    }

    #[test]
    fn reads_the_1_0_cached_message() {
        let f = facts(
            "RuntimeError: CUDA out of memory. Tried to allocate 16.00 GiB (GPU 0; 11.93 GiB total capacity; 4.00 GiB already allocated; 7.33 GiB free; 179.00 KiB cached)",
        );
        assert_eq!(f.tried_to_allocate_bytes, Some(17_179_869_184));
        assert_eq!(f.device, Some(0));
        assert_eq!(f.total_capacity_bytes, size_to_bytes("11.93", "GiB"));
        assert_eq!(f.already_allocated_bytes, Some(4_294_967_296));
        assert_eq!(f.free_bytes, size_to_bytes("7.33", "GiB"));
        assert_eq!(f.cached_bytes, Some(183_296));
        assert_eq!(f.reserved_total_bytes, None);
    }

    #[test]
    fn a_cut_message_keeps_only_complete_figures() {
        let f = facts(
            "CUDA out of memory. Tried to allocate 2.00 GiB (GPU 1; 14.76 GiB total capacity; 10.17 GiB already allocated; 1.78 GiB",
        );
        assert_eq!(f.tried_to_allocate_bytes, Some(2 << 30));
        assert_eq!(f.device, Some(1));
        assert_eq!(f.already_allocated_bytes, size_to_bytes("10.17", "GiB"));
        assert_eq!(f.free_bytes, None);
        let g = facts("Tried to allocate 6.1");
        assert_eq!(g, Facts::default());
    }

    #[test]
    fn picks_the_most_complete_of_several_messages() {
        let f = facts(
            "CUDA out of memory. Tried to allocate 2.00 MiB. CUDA out of memory. Tried to allocate 4.00 MiB. GPU 3 has a total capacity of 8.00 GiB of which 1.00 MiB is free.",
        );
        assert_eq!(f.tried_to_allocate_bytes, Some(4 << 20));
        assert_eq!(f.device, Some(3));
        assert_eq!(f.free_bytes, Some(1 << 20));
    }

    #[test]
    fn reads_the_caching_allocators_warning() {
        let f = facts(
            "[rank5]:[W1104 CUDACachingAllocator.cpp:3933] memory allocation failed with OOM on device 5\n  while trying to allocate 671088640 bytes (free: 513736704, total: 85095874560).",
        );
        assert_eq!(f.tried_to_allocate_bytes, Some(671_088_640));
        assert_eq!(f.free_bytes, Some(513_736_704));
        assert_eq!(f.total_capacity_bytes, Some(85_095_874_560));
        assert_eq!(f.device, Some(5));
    }

    #[test]
    fn windows_cpu_message_is_one_segment() {
        let f = facts(
            "RuntimeError: [enforce fail at ..\\c10\\core\\impl\\alloc_cpu.cpp:81] data. DefaultCPUAllocator: not enough memory: you tried to allocate 1073741824 bytes.",
        );
        assert_eq!(f.tried_to_allocate_bytes, Some(1_073_741_824));
    }
}
