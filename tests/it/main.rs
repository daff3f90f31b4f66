//! ginlab's integration tests, one module a concern, built as one test
//! binary: each binary under `tests/` links the whole library and its
//! dependencies again, so one binary instead of thirty-odd keeps CI's build
//! short (docs/DESIGN.md, "Tests"). `tests/alloc.rs` stays its own binary:
//! it installs a counting global allocator for the whole process.
//!
//! Run one module with `cargo test --test it MODULE::` (for example
//! `cargo test --test it solver::`).

mod cmd;
mod jobs;
mod oracle;

mod attacks;
mod bot_limits;
mod bots;
mod chart;
mod cli;
mod compare;
mod docs;
mod eaai_adapter;
mod engine;
mod fuzz;
mod golden;
mod inputs;
mod job;
mod logs;
mod matrix;
mod play;
mod playouts;
mod profiles;
mod ratings;
mod readout;
mod record_jobs;
mod records;
mod resume;
mod sandbox;
mod sim;
mod solver;
mod table_records;
mod tables;
mod tournament;
mod tune;
mod worlds;
