//! The engine's integration tests, as the modules of one test program: one binary to link
//! instead of one per file, so that the README's `cargo test --profile testing` builds quickly
//! on a fresh clone. `cargo test --test it -- uci::` runs one module's tests. Each module
//! drives the built `betacut` binary or the library from outside, as a user or a GUI would;
//! `common` holds the process harness they share and the one `betacut bench` run they check.

mod common;

mod annotate;
mod bench;
mod board_properties;
mod book;
mod cli;
mod docs;
mod epd;
mod eval_symmetry;
mod net_files;
mod nnue_properties;
mod packaging;
mod perft_suites;
mod platform;
mod polyglot_keys;
mod protocol_properties;
mod search;
mod syzygy;
mod uci;
mod xboard;
