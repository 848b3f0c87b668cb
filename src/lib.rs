//! ilaj — a troubleshooting knowledge base for people who train neural networks.
//!
//! The library holds everything; `main.rs` only wires configuration to it.

#![forbid(unsafe_code)]

pub mod cli;
pub mod cmd;
pub mod content;
pub mod db;
pub mod estimator;
pub mod eval;
pub mod i18n;
pub mod reading;
pub mod search;
pub mod traceback;
pub mod web;
