//! The lab's executable, `betacut-lab`: hands the command line to [`betacut_lab::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    betacut_lab::cli::main(&args)
}
