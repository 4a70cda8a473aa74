//! Tools built into the binary: perft, bench, EPD suites, tuning-data generation, the Texel
//! tuner and the tablebase prober's command line.

pub mod bench;
pub mod cli;
pub mod datagen;
pub mod epd;
pub mod input;
pub mod perft;
pub mod probe;
pub mod tuner;
