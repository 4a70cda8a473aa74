//! Tools built into the binary: perft, bench, EPD suites, tuning-data generation, the Texel
//! tuner and Polyglot books.

pub mod bench;
pub mod book;
pub mod cli;
pub mod datagen;
pub mod epd;
pub mod input;
pub mod perft;
pub mod tuner;
