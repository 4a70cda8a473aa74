//! The lab's integration tests, as the modules of one test program (one binary to link, not
//! one per file): `cli` drives the `betacut-lab` binary's command line, `pipeline` the network
//! pipeline from self-play data to a searched net.

mod cli;
mod pipeline;
