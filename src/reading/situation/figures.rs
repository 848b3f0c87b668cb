//! Sizes: the figures of a CUDA out-of-memory message, and sizes a person typed in a sentence.

use std::sync::LazyLock;

use regex::Regex;

use crate::traceback::{Facts, Parsed};

pub(super) const MIB: u64 = 1 << 20;
pub(super) const GIB: u64 = 1 << 30;

/// Facts about the figures of a CUDA out-of-memory message.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemoryReading {
    /// Reserved by PyTorch but not handed to any tensor.
    pub reserved_unallocated: Option<u64>,
    /// Memory held by other processes (capacity − free − this process).
    pub others: Option<u64>,
    /// The request alone is larger than the whole GPU.
    pub request_exceeds_capacity: bool,
    /// A large share of what PyTorch reserved sits unused: fragmentation.
    pub fragmented: bool,
}

pub fn read_memory(facts: &Facts) -> MemoryReading {
    let unallocated = facts.reserved_unallocated_bytes.or_else(|| {
        let reserved = facts.reserved_total_bytes?;
        let allocated = facts.already_allocated_bytes?;
        Some(reserved.saturating_sub(allocated))
    });
    let reserved = facts
        .reserved_total_bytes
        .or_else(|| Some(facts.allocated_by_pytorch_bytes? + facts.reserved_unallocated_bytes?));
    // Fragmentation: a large share of what PyTorch reserved sits unused, or enough of it to
    // hold the request was unused and the request still failed (no block was big enough).
    // Not when the request is larger than all that was unused and free together: in one
    // piece, that memory would still not have held it.
    let beyond_unused_and_free = match (facts.tried_to_allocate_bytes, unallocated) {
        (Some(request), Some(unallocated)) => {
            request > unallocated.saturating_add(facts.free_bytes.unwrap_or(0))
        }
        _ => false,
    };
    let fragmented = !beyond_unused_and_free
        && match (unallocated, reserved) {
            (Some(unallocated), Some(reserved)) if reserved > 0 => {
                let share = unallocated as f64 / reserved as f64;
                // With a margin: unused memory barely the request's size is a card that is
                // simply full (blind waves 41 and 43: 7 such readings were wrong in 13).
                let request_fitted = facts
                    .tried_to_allocate_bytes
                    .is_some_and(|request| unallocated >= request.saturating_add(request / 4));
                (unallocated >= 256 * MIB && share >= 0.3)
                    || (request_fitted && unallocated >= 64 * MIB && share >= 0.15)
            }
            _ => false,
        };
    // Some drivers (Windows WDDM among them) report 0 bytes for the process itself: that
    // figure says nothing, and the memory PyTorch reserved stands for it.
    let reported_own = facts.process_in_use_bytes.filter(|&bytes| bytes > 0);
    let this_process = reported_own.or(reserved);
    let others = match (facts.total_capacity_bytes, facts.free_bytes, this_process) {
        (Some(total), Some(free), Some(own)) => {
            let others = total.saturating_sub(free).saturating_sub(own);
            (others >= GIB.max(total / 8)).then_some(others)
        }
        _ => None,
    }
    .or_else(|| {
        let listed: u64 = other_processes_listed(facts, reported_own, reserved).sum();
        (listed > 0).then_some(listed)
    });
    let request_exceeds_capacity = matches!(
        (facts.tried_to_allocate_bytes, facts.total_capacity_bytes),
        (Some(request), Some(total)) if request > total
    );
    MemoryReading {
        reserved_unallocated: unallocated,
        others,
        request_exceeds_capacity,
        fragmented,
    }
}

/// The memory of the processes the message lists, without the one that is this process.
///
/// PyTorch names this process "this process" only when its PID matches the driver's. In a
/// container the PIDs differ, and the process appears in the list as "Process N". When the
/// message has no "this process" figure (`reported_own`), the smallest listed process that
/// holds at least what PyTorch reserved is taken to be the process itself.
fn other_processes_listed(
    facts: &Facts,
    reported_own: Option<u64>,
    reserved: Option<u64>,
) -> impl Iterator<Item = u64> {
    let itself = match (reported_own, reserved) {
        (None, Some(reserved)) => facts
            .other_processes
            .iter()
            .enumerate()
            .filter(|(_, p)| p.bytes >= reserved)
            .min_by_key(|(_, p)| p.bytes)
            .map(|(k, _)| k),
        _ => None,
    };
    facts
        .other_processes
        .iter()
        .enumerate()
        .filter(move |(k, _)| Some(*k) != itself)
        .map(|(_, p)| p.bytes)
}

/// A size typed in words: "3 Go", "500 MiB", "5 जीबी", «3 جيجا». Bare "M" and "G" are left
/// out: "a 300M model" counts parameters.
static TYPED_SIZE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)(\d+(?:[.,]\d+)?)\s*(?:
            (gib|gb|go|gigas?)(?-u:\b) | (?:mib|mb|mo|megas?)(?-u:\b)
          | (जीबी|गीगा\p{Devanagari}*|جيجا\p{Arabic}*|جيقا\p{Arabic}*|جيغا\p{Arabic}*|غيغا\p{Arabic}*|كيكا\p{Arabic}*)
          | एमबी|मेगा\p{Devanagari}*|ميجا\p{Arabic}*|ميقا\p{Arabic}*|ميغا\p{Arabic}*)",
    )
    .expect("typed size pattern")
});

/// Words that say memory is free: the size beside one is what the card still has.
static FREE_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:free|libres?|dispo(?:nibles?)?|khali|available)(?-u:\b)|खाली|फ्री|बचा|فاضي\p{Arabic}*|متاح\p{Arabic}*|متوفر\p{Arabic}*|فارغ\p{Arabic}*",
    )
    .expect("free word pattern")
});

/// A short text with no traceback: what people write in a search box (with the glossary's
/// names of its concepts added under it, see `Reading::glossed`).
pub(super) fn is_typed_sentence(parsed: &Parsed, lower: &str) -> bool {
    const TYPED_BYTES: usize = 600;
    parsed.frames.is_empty() && lower.len() <= TYPED_BYTES
}

/// Typed words that say more memory is free than was asked for ("3 Go de libre et il
/// arrive pas a allouer 500 Mo"): the free memory is there but not in one piece, which is
/// fragmentation whatever words describe it. The free size is the one nearest a word for free.
pub(super) fn free_exceeds_request(lower: &str) -> bool {
    let sizes: Vec<(usize, f64)> = TYPED_SIZE
        .captures_iter(lower)
        .filter_map(|size| {
            let whole = size.get(0)?;
            let number = size.get(1)?.as_str().replace(',', ".");
            let gigabytes = size.get(2).is_some() || size.get(3).is_some();
            let megabytes: f64 = number.parse::<f64>().ok()? * if gigabytes { 1024.0 } else { 1.0 };
            Some((whole.start(), megabytes))
        })
        .collect();
    if sizes.len() < 2 {
        return false;
    }
    // A log puts one figure a line ("Device limit: 14.75 GiB" over "Free: 27 MiB"): only a
    // size on the free word's own line is the free one.
    let line_of = |at: usize| lower[..at].matches('\n').count();
    let free_at: Vec<usize> = FREE_WORD.find_iter(lower).map(|m| m.start()).collect();
    let distance_to_free = |at: usize| {
        free_at
            .iter()
            .filter(|&&f| line_of(f) == line_of(at))
            .map(|f| f.abs_diff(at))
            .min()
    };
    let Some(free) = sizes
        .iter()
        .filter_map(|&(at, size)| Some((distance_to_free(at)?, size)))
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, size)| size)
    else {
        return false;
    };
    sizes.iter().any(|&(_, size)| size < free)
}
