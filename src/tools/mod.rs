//! Tools built into the binary: perft, bench, EPD suites, training-data generation and the
//! Texel tuner.

pub mod bench;
pub mod cli;
pub mod datagen;
pub mod epd;
pub mod input;
pub mod perft;
pub mod records;
pub mod tuner;
