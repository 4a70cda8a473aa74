//! Helpers the command lines share (the engine's `betacut` and the lab's `betacut-lab`): a
//! flag's value, the evaluation a tool uses (`--net FILE`, `--hce`), the default thread count,
//! and a clock for progress lines.

use crate::eval::nnue::embedded::embedded_network;
use crate::eval::nnue::Network;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The value after the flag `name` in `args`, parsed: `None` if the flag is absent, an error
/// naming the flag if its value is missing or does not parse.
pub fn flag<T: std::str::FromStr>(args: &[String], name: &str) -> Result<Option<T>, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => {
            let text = args.get(i + 1).ok_or(format!("{name} needs a value"))?;
            text.parse::<T>()
                .map(Some)
                .map_err(|_| format!("bad value {text:?} for {name}"))
        }
    }
}

/// The evaluation a tool uses: `--net FILE` that network, `--hce` the hand-crafted evaluation
/// (`None`), otherwise the built-in one (the network embedded in the binary, if it has one).
pub fn net_option(args: &[String]) -> Result<Option<Arc<Network>>, String> {
    let net = flag::<PathBuf>(args, "--net")?;
    if args.iter().any(|a| a == "--hce") {
        return match net {
            Some(_) => Err("--net and --hce exclude each other".to_string()),
            None => Ok(None),
        };
    }
    match net {
        Some(path) => Network::load(&path)
            .map(|net| Some(Arc::new(net)))
            .map_err(|e| e.to_string()),
        None => embedded_network().map_err(|e| format!("the embedded network: {e}")),
    }
}

/// The threads a tool uses unless told otherwise: one per logical CPU.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A duration as `h:mm:ss`.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::{clock, flag};
    use std::time::Duration;

    #[test]
    fn a_flag_value_is_parsed_or_named_in_the_error() {
        let args: Vec<String> = ["x", "--depth", "7", "--nodes", "many"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(flag::<u32>(&args, "--depth"), Ok(Some(7)));
        assert_eq!(flag::<u32>(&args, "--hash"), Ok(None));
        let Err(message) = flag::<u64>(&args, "--nodes") else {
            panic!("`many` is no number");
        };
        assert!(message.contains("--nodes"), "{message}");
        let last = vec!["--depth".to_string()];
        assert!(flag::<u32>(&last, "--depth").is_err());
    }

    #[test]
    fn the_clock_reads_hours_minutes_seconds() {
        assert_eq!(clock(Duration::from_secs(3 * 3600 + 4 * 60 + 5)), "3:04:05");
        assert_eq!(clock(Duration::from_secs(59)), "0:00:59");
    }
}
