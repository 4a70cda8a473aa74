//! Betacut's executable: hands the command line to [`betacut::tools::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    betacut::tools::cli::main(&args)
}
