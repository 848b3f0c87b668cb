//! The input of the allocation explainer as clients send it (the body of `/api/v1/allocation`,
//! the allocation calculator's form): the figures of an out-of-memory message, named as
//! `diagnosis.facts` names them, in bytes or as PyTorch prints them (`"6.14 GiB"`).

use serde::{Deserialize, Serialize};

use super::allocation::{AllocationMatch, AllocationQuery, explain_allocation};
use super::input::{InvalidInput, Problem};
use crate::traceback::parse_size;

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AllocationInput {
    pub tried_to_allocate_bytes: Option<Size>,
    pub total_capacity_bytes: Option<Size>,
    pub free_bytes: Option<Size>,
    /// Echoed for the bar picture of the calculator; the explainer does not need them.
    pub reserved_unallocated_bytes: Option<Size>,
    pub process_in_use_bytes: Option<Size>,
    pub vocab_size: Option<u64>,
    pub block_size: Option<u64>,
    pub batch_size: Option<u64>,
    pub n_head: Option<u64>,
    pub tolerance_bytes: Option<u64>,
}

/// A size as a number of bytes or as text ("6.14 GiB", "6,14 Gio", "6592774799").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Size {
    Bytes(u64),
    Text(String),
}

/// The allocation explained: the query as understood, then the tensors it may be.
#[derive(Debug, Serialize)]
pub struct AllocationAnswer {
    pub tried_to_allocate_bytes: u64,
    pub total_capacity_bytes: Option<u64>,
    pub free_bytes: Option<u64>,
    pub reserved_unallocated_bytes: Option<u64>,
    pub process_in_use_bytes: Option<u64>,
    pub vocab_size: Option<u64>,
    pub block_size: Option<u64>,
    pub batch_size: Option<u64>,
    pub n_head: Option<u64>,
    pub matches: Vec<AllocationMatch>,
}

/// PyTorch prints "0 bytes is free": these figures may be zero; a request or a capacity may not.
const MAY_BE_ZERO: &[&str] = &[
    "free_bytes",
    "reserved_unallocated_bytes",
    "process_in_use_bytes",
];

fn bytes_of(field: &str, value: Option<&Size>) -> Result<Option<u64>, InvalidInput> {
    let zero_allowed = MAY_BE_ZERO.contains(&field);
    let bytes = match value {
        None => return Ok(None),
        Some(Size::Bytes(bytes)) => *bytes,
        Some(Size::Text(text)) => match parse_size(text) {
            Some(0) if !zero_allowed => None,
            parsed => parsed,
        }
        .ok_or_else(|| {
            InvalidInput::new(
                field,
                Problem::Invalid,
                format!("{field}: expected bytes or a size like \"6.14 GiB\""),
            )
        })?,
    };
    if bytes == 0 && !zero_allowed {
        return Err(InvalidInput::new(
            field,
            Problem::OutOfRange,
            format!("{field} must be at least 1 byte"),
        ));
    }
    Ok(Some(bytes))
}

impl AllocationInput {
    /// Checks the figures and explains the allocation.
    pub fn answer(&self) -> Result<AllocationAnswer, InvalidInput> {
        let tried = bytes_of(
            "tried_to_allocate_bytes",
            self.tried_to_allocate_bytes.as_ref(),
        )?
        .ok_or_else(|| {
            InvalidInput::new(
                "tried_to_allocate_bytes",
                Problem::Missing,
                "tried_to_allocate_bytes is required".to_owned(),
            )
        })?;
        let total = bytes_of("total_capacity_bytes", self.total_capacity_bytes.as_ref())?;
        let free = bytes_of("free_bytes", self.free_bytes.as_ref())?;
        let reserved_unallocated = bytes_of(
            "reserved_unallocated_bytes",
            self.reserved_unallocated_bytes.as_ref(),
        )?;
        let process_in_use = bytes_of("process_in_use_bytes", self.process_in_use_bytes.as_ref())?;
        for (field, value) in [
            ("vocab_size", self.vocab_size),
            ("block_size", self.block_size),
            ("batch_size", self.batch_size),
            ("n_head", self.n_head),
        ] {
            if value == Some(0) {
                return Err(InvalidInput::new(
                    field,
                    Problem::OutOfRange,
                    format!("{field} must be at least 1"),
                ));
            }
        }
        let query = AllocationQuery {
            bytes: tried,
            tolerance_bytes: self.tolerance_bytes,
            vocab_size: self.vocab_size,
            block_size: self.block_size,
            batch_size: self.batch_size,
            n_head: self.n_head,
            total_bytes: total,
            free_bytes: free,
        };
        Ok(AllocationAnswer {
            tried_to_allocate_bytes: tried,
            total_capacity_bytes: total,
            free_bytes: free,
            reserved_unallocated_bytes: reserved_unallocated,
            process_in_use_bytes: process_in_use,
            vocab_size: self.vocab_size,
            block_size: self.block_size,
            batch_size: self.batch_size,
            n_head: self.n_head,
            matches: explain_allocation(&query),
        })
    }
}
