//! Lines for standard output and standard error that survive a closed pipe.
//!
//! `println!` panics when the reader is gone (`betacut help | head -1`,
//! `betacut book show BOOK | head`). The commands print through [`outln!`](crate::outln) and
//! [`errln!`](crate::errln) instead: once nobody reads standard output the command has nothing
//! left to do and ends quietly.

use std::fmt;
use std::io::{self, Write};

/// Writes one line to standard output. If the reader has closed the pipe, the process ends
/// at once with status 0, as other command-line tools do. Any other write error is reported on
/// standard error and ends it with status 1.
pub fn out_line(args: fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    if let Err(error) = written {
        if error.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        err_line(format_args!("cannot write to standard output: {error}"));
        std::process::exit(1);
    }
}

/// Writes one line to standard error. If that fails there is nowhere left to say so, and the
/// line is dropped.
pub fn err_line(args: fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{args}");
}

/// `println!` for the command line: see [`out_line`].
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::tools::output::out_line(format_args!($($arg)*))
    };
}

/// `eprintln!` for the command line: see [`err_line`].
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::tools::output::err_line(format_args!($($arg)*))
    };
}
