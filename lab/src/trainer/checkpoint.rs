//! Trainer checkpoints: the float network, Adam's state and the number of epochs done, so a
//! run can be resumed exactly where it stopped.
//!
//! Format, little-endian: magic `BCCK`, version u32 (1 or 2), hidden size u32, epochs done u32,
//! Adam steps u64, parameter count u64 (which gives the number of output buckets); version 2
//! then has the net's king-bucket layout as a version-3 net file has it (king buckets u16,
//! flags u16: bit 0 = mirrored, the bucket of each own king square: 64 bytes); then the
//! parameters, Adam's first and second moments (f32 each), and an FNV-1a 64-bit hash of
//! everything before it. A net of the plain layout (one king bucket, unmirrored) is written
//! as version 1.

use super::adam::Adam;
use super::net::{FloatNetwork, Layout};
use super::TrainError;
use betacut::eval::nnue::network::fnv1a64;
use betacut::eval::nnue::network::KING_LAYOUT_LEN;
use betacut::eval::nnue::{KingBuckets, HIDDEN_MULTIPLE, MAX_HIDDEN};
use std::path::Path;

const MAGIC: [u8; 4] = *b"BCCK";
const VERSION: u32 = 1;
/// Version of a checkpoint of a net with king buckets or mirroring.
const VERSION_KING_BUCKETS: u32 = 2;
const HEADER_LEN: usize = 4 + 4 + 4 + 4 + 8 + 8;

/// Everything a run needs to go on.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The network.
    pub net: FloatNetwork,
    /// The optimiser's state.
    pub adam: Adam,
    /// Epochs completed.
    pub epochs_done: u32,
}

impl Checkpoint {
    /// A fresh run (no epochs done, a new optimiser) that starts from a quantised net.
    pub fn from_net(net: &betacut::eval::nnue::Network) -> Checkpoint {
        Checkpoint::from_float(FloatNetwork::from_network(net))
    }

    /// A fresh run (no epochs done, a new optimiser) that starts from `net`'s weights.
    pub fn from_float(net: FloatNetwork) -> Checkpoint {
        let adam = Adam::new(net.params.len());
        Checkpoint {
            net,
            adam,
            epochs_done: 0,
        }
    }

    /// The checkpoint's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.net.params.len();
        let kings = self.net.kings;
        let mut bytes = Vec::with_capacity(HEADER_LEN + KING_LAYOUT_LEN + 12 * n + 8);
        bytes.extend_from_slice(&MAGIC);
        let version = if kings.is_plain() {
            VERSION
        } else {
            VERSION_KING_BUCKETS
        };
        bytes.extend_from_slice(&version.to_le_bytes());
        bytes.extend_from_slice(&(self.net.hidden() as u32).to_le_bytes());
        bytes.extend_from_slice(&self.epochs_done.to_le_bytes());
        bytes.extend_from_slice(&self.adam.steps.to_le_bytes());
        bytes.extend_from_slice(&(n as u64).to_le_bytes());
        if !kings.is_plain() {
            bytes.extend_from_slice(&(kings.count() as u16).to_le_bytes());
            bytes.extend_from_slice(&u16::from(kings.mirrored()).to_le_bytes());
            bytes.extend_from_slice(kings.map());
        }
        for values in [&self.net.params, &self.adam.m, &self.adam.v] {
            for &x in values.iter() {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        let hash = fnv1a64(&bytes);
        bytes.extend_from_slice(&hash.to_le_bytes());
        bytes
    }

    /// Parses a checkpoint (`path` names it in errors).
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Checkpoint, TrainError> {
        let bad = |reason: String| TrainError::BadCheckpoint {
            path: path.display().to_string(),
            reason,
        };
        let word = |at: usize| -> u32 {
            let mut b = [0u8; 4];
            b.copy_from_slice(&bytes[at..at + 4]);
            u32::from_le_bytes(b)
        };
        let dword = |at: usize| -> u64 {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(b)
        };
        if bytes.len() < HEADER_LEN + 8 {
            return Err(bad(format!("{} bytes, too short", bytes.len())));
        }
        if bytes[..4] != MAGIC {
            return Err(bad("not a Betacut trainer checkpoint (bad magic)".into()));
        }
        let version = word(4);
        if version != VERSION && version != VERSION_KING_BUCKETS {
            return Err(bad(format!("version {version} (this build reads 1 and 2)")));
        }
        // Version 2's king-bucket layout follows the header.
        let (kings, start) = if version == VERSION_KING_BUCKETS {
            let Some(block) = bytes.get(HEADER_LEN..HEADER_LEN + KING_LAYOUT_LEN) else {
                return Err(bad(format!("{} bytes, too short", bytes.len())));
            };
            let count = usize::from(u16::from_le_bytes([block[0], block[1]]));
            let flags = u16::from_le_bytes([block[2], block[3]]);
            if flags > 1 {
                return Err(bad(format!("king-bucket flags {flags:#06x}")));
            }
            let mut map = [0u8; 64];
            map.copy_from_slice(&block[4..]);
            let kings = KingBuckets::new(count, map, flags == 1)
                .map_err(|e| bad(format!("king-bucket layout: {e}")))?;
            (kings, HEADER_LEN + KING_LAYOUT_LEN)
        } else {
            (KingBuckets::NONE, HEADER_LEN)
        };
        let hidden = word(8) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_MULTIPLE) {
            return Err(bad(format!("hidden size {hidden}")));
        }
        // The parameter count gives the number of output buckets.
        let Some(layout) = usize::try_from(dword(24))
            .ok()
            .and_then(|n| Layout::from_len(hidden, kings.count(), n))
        else {
            return Err(bad(format!(
                "{} parameters fit no net of hidden size {hidden}, {} king bucket(s) and 1 to 16 \
                 output buckets",
                dword(24),
                kings.count()
            )));
        };
        let n = layout.len();
        let expected_len = start + 12 * n + 8;
        if bytes.len() != expected_len {
            return Err(bad(format!(
                "{} bytes, expected {expected_len} (truncated?)",
                bytes.len()
            )));
        }
        let body = expected_len - 8;
        if fnv1a64(&bytes[..body]) != dword(body) {
            return Err(bad("hash mismatch: damaged file".into()));
        }
        let floats = |k: usize| -> Vec<f32> {
            bytes[start + 4 * n * k..start + 4 * n * (k + 1)]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        Ok(Checkpoint {
            net: FloatNetwork {
                layout,
                kings,
                params: floats(0),
            },
            adam: Adam {
                m: floats(1),
                v: floats(2),
                steps: dword(16),
            },
            epochs_done: word(12),
        })
    }

    /// Writes the checkpoint to `path`.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        std::fs::write(path, self.to_bytes()).map_err(|source| TrainError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// Reads a checkpoint.
    pub fn load(path: &Path) -> Result<Checkpoint, TrainError> {
        let bytes = std::fs::read(path).map_err(|source| TrainError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Checkpoint::from_bytes(path, &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_round_trip_and_damage_is_detected() {
        for buckets in [1, 3] {
            round_trip(buckets, KingBuckets::NONE);
        }
        round_trip(2, KingBuckets::DEFAULT);
        round_trip(1, KingBuckets::DEFAULT_MIRRORED);
    }

    fn round_trip(buckets: usize, kings: KingBuckets) {
        let net = FloatNetwork::random_bucketed(32, buckets, kings, 4);
        let mut adam = Adam::new(net.params.len());
        adam.m[5] = 0.25;
        adam.v[7] = 0.5;
        adam.steps = 99;
        let checkpoint = Checkpoint {
            net,
            adam,
            epochs_done: 3,
        };
        let bytes = checkpoint.to_bytes();
        let path = Path::new("test.ckpt");
        let back = Checkpoint::from_bytes(path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, checkpoint);
        assert_eq!(back.net.layout.buckets, buckets);
        assert_eq!(back.net.kings, kings);
        assert_eq!(&bytes[4..8], &[1 + u8::from(!kings.is_plain()), 0, 0, 0]);
        for len in [0, 10, HEADER_LEN + 8, bytes.len() - 1] {
            assert!(
                Checkpoint::from_bytes(path, &bytes[..len]).is_err(),
                "{len}"
            );
        }
        let mut damaged = bytes.clone();
        damaged[HEADER_LEN + 100] ^= 4;
        assert!(Checkpoint::from_bytes(path, &damaged).is_err());
        let mut wrong_magic = bytes;
        wrong_magic[0] = b'X';
        assert!(Checkpoint::from_bytes(path, &wrong_magic).is_err());
    }
}
