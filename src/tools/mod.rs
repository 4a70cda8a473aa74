//! Tools built into the binary: perft, bench, EPD suites, training-data generation, the Texel
//! tuner, the network trainer, Polyglot books and the tablebase prober's command line.

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
