//! The integration tests, one binary: each module drives the real router, index and database.

#[macro_use]
mod helpers;

mod api_articles;
mod api_match;
mod browser;
mod catalog;
mod cli_check;
mod cli_eval;
mod db_growth;
mod db_query_log;
mod db_report;
mod db_store;
mod estimate_api;
mod estimate_cli;
mod eval;
mod feedback_api;
mod feedback_pages;
mod keys_api;
mod mcp;
mod metrics;
mod openapi;
mod pages;
mod quoting;
mod ranking_feedback;
mod reload;
mod replicas;
mod seeds;
mod typed_search;
