//! The network built into the binary: `nets/gen11.bin` (how it was made: `nets/README.md`). The
//! engine parses it once at start-up with [`embedded_network`] (the same checks as a file read
//! from disk) and evaluates with it unless `EvalFile` names another network. To ship another
//! net, point [`EMBEDDED_NET`] at its file; a unit test checks that the embedded bytes parse.

use super::network::{NetError, Network};
use std::sync::Arc;

/// The net file compiled into the binary, if any.
pub const EMBEDDED_NET: Option<&[u8]> = Some(include_bytes!("nets/gen11.bin"));

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
        // The shipped net is embedded and parses, with the hidden size nets/README.md states.
        let embedded = embedded_network().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(embedded.map(|n| n.hidden()), Some(384));
        let net = random_network(32, 9);
        let bytes = net.to_bytes();
        let parsed = parse_embedded(&bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(*parsed, net);
        assert!(parse_embedded(&bytes[..100]).is_err());
    }
}
