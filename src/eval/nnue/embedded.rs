//! A network built into the binary. None is embedded yet (none has been trained); to embed
//! one, point [`EMBEDDED_NET`] at its file with `include_bytes!`, e.g.
//! `Some(include_bytes!("../../../nets/betacut-1.bin"))`, and the engine parses it once at
//! start-up with [`embedded_network`]. A unit test then checks that the embedded bytes parse.

use super::network::{NetError, Network};
use std::sync::Arc;

/// The net file compiled into the binary, if any.
pub const EMBEDDED_NET: Option<&[u8]> = None;

/// Parses a net file's bytes that were compiled into the binary (the same checks as a file
/// read from disk: header, length, hash, weight ranges).
pub fn parse_embedded(bytes: &[u8]) -> Result<Arc<Network>, NetError> {
    Network::from_bytes(bytes).map(Arc::new)
}

/// The embedded network, parsed (each call parses anew: call it once at start-up and keep the
/// `Arc`); `Ok(None)` when no net is embedded.
pub fn embedded_network() -> Result<Option<Arc<Network>>, NetError> {
    EMBEDDED_NET.map(parse_embedded).transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::network::tests::random_network;

    #[test]
    fn embedded_bytes_parse_into_the_same_network() {
        // Whatever is embedded (if anything) must parse.
        assert!(embedded_network().is_ok());
        let net = random_network(32, 9);
        let bytes = net.to_bytes();
        let parsed = parse_embedded(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(*parsed, net);
        assert!(parse_embedded(&bytes[..100]).is_err());
    }
}
