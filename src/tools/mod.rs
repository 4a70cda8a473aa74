//! Tools built into the binary: perft, bench, EPD suites, training-data generation, the Texel
//! tuner, the network trainer, Polyglot books, the tablebase prober's command line and game
//! review (`annotate`).

pub mod annotate;
pub mod args;
pub mod book;
pub mod cli;
pub mod datagen;
pub mod epd;
pub mod input;
pub mod perft;
pub mod probe;
pub mod records;
pub mod train_cli;
pub mod trainer;
pub mod tuner;
