//! Betacut's lab: the research around the engine, kept out of the engine's binary. Self-play
//! data generation and its record format ([`datagen`], [`records`]), the network trainer
//! ([`trainer`]), the Texel tuner of the hand-crafted evaluation ([`tuner`]) and their command
//! line ([`cli`], the `betacut-lab` binary). It uses the engine crate (`betacut`) through its
//! public API: the board, the search, the evaluation and the network file format.

#![warn(missing_docs)]

pub mod cli;
pub mod datagen;
pub mod frc;
pub mod records;
pub mod train_cli;
pub mod trainer;
pub mod tuner;
