//! Tools built into the binary: perft and friends.

pub mod perft;
