//! The UCI front-end with the real engine: the input's lines are fed to an in-process session
//! (bounded as `betacut_fuzz::session` says), then its searches are stopped and it is checked.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| betacut_fuzz::session::run_uci(data));
