//! Helpers the command lines share (the engine's `betacut` and the lab's `betacut-lab`): the
//! evaluation a tool uses (`--net FILE`, `--hce`), the default thread count,
//! and a clock for progress lines.

use crate::eval::nnue::embedded::embedded_network;
use crate::eval::nnue::Network;
use crate::tools::command::Parsed;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The evaluation a tool uses: `--net FILE` that network, `--hce` the hand-crafted evaluation
/// (`None`), otherwise the built-in one (the network embedded in the binary, if it has one).
pub fn net_option(args: &Parsed) -> Result<Option<Arc<Network>>, String> {
    let net = args.text("--net").map(PathBuf::from);
    if args.has("--hce") {
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
    use super::clock;
    use std::time::Duration;

    #[test]
    fn the_clock_reads_hours_minutes_seconds() {
        assert_eq!(clock(Duration::from_secs(3 * 3600 + 4 * 60 + 5)), "3:04:05");
        assert_eq!(clock(Duration::from_secs(59)), "0:00:59");
    }
}
