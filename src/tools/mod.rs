//! Tools built into the binary: perft, bench, EPD suites and friends.

pub mod bench;
pub mod epd;
pub mod perft;
