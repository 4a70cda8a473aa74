//! Tools built into the binary: perft, bench, EPD suites, Polyglot books, the tablebase
//! prober's command line and game review (`annotate`), with the flag helpers their command
//! line shares ([`args`]). Data generation, training and tuning live in the lab (lab/,
//! `betacut-lab`).

pub mod annotate;
pub mod args;
pub mod book;
pub mod cli;
pub mod command;
pub mod epd;
pub mod input;
pub mod output;
pub mod perft;
pub mod probe;
