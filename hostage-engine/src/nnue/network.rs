//! The network's weights, their file format and the output layer.
//!
//! The shape is the smallest that NNUE engines use: the [`FEATURES`] inputs
//! of each perspective go through one shared layer of [`HIDDEN`] units (the
//! *accumulator*, updated incrementally, `accumulator.rs`), clipped to
//! `0..=1`; the side to move's units and then the other side's feed one
//! output, the evaluation. Everything is integer at inference:
//!
//! - the first layer's weights and biases are `i16`, scaled by [`QA`]; the
//!   trainer clips them to ±[`W1_CLIP`] so that no sum of the at most
//!   [`MAX_ACTIVE`] active features and the bias overflows
//!   (93 · 1.27 · 255 < 32,767);
//! - the output weights are `i16` scaled by [`QB`] (clipped to ±1.98), the
//!   output bias `i32` scaled by `QA · QB`;
//! - the output is `Σ clamp(acc, 0, QA) · w + b`, brought to centipawns by
//!   [`SCALE`] `/ (QA · QB)`.
//!
//! The file (`data/nnue.bin`, written by `hostage-match`'s `nnue_train`
//! example) is the magic [`MAGIC`], the feature and hidden counts as
//! little-endian `u32`, then the first layer's weights feature by feature,
//! its biases, the output weights (`i16`, little-endian) and the output bias
//! (`i32`).

use alloc::{vec, vec::Vec};
use core::fmt;

use super::features::{FEATURES, MAX_ACTIVE};

/// Units of the hidden layer, per perspective.
pub const HIDDEN: usize = 128;
/// The first layer's quantisation: 1.0 is 255.
pub const QA: i32 = 255;
/// The output weights' quantisation: 1.0 is 64.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;
/// The bound of the first layer's weights and biases (before
/// quantisation).
pub const W1_CLIP: f32 = 1.27;
const _: () = assert!(((MAX_ACTIVE + 1) as f32 * W1_CLIP * QA as f32) < i16::MAX as f32);
/// The first eight bytes of a network file.
pub const MAGIC: [u8; 8] = *b"HSTGNN01";

/// The weights of a network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The first layer, `FEATURES` rows of `HIDDEN`.
    pub(crate) w1: Vec<i16>,
    /// The first layer's biases.
    pub(crate) b1: Vec<i16>,
    /// The output weights: the side to move's units, then the other side's.
    pub(crate) w2: Vec<i16>,
    /// The output bias.
    pub(crate) b2: i32,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("features", &FEATURES)
            .field("hidden", &HIDDEN)
            .finish_non_exhaustive()
    }
}

/// Why bytes are not a network file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NetworkError {
    /// The file does not start with [`MAGIC`].
    Magic,
    /// The file is for another shape than this build's.
    Shape {
        /// The feature count the file gives.
        features: u32,
        /// The hidden count the file gives.
        hidden: u32,
    },
    /// The file's length is not that of its shape.
    Length {
        /// The length the shape needs.
        expected: usize,
        /// The length found.
        found: usize,
    },
}

impl NetworkError {
    /// A stable identifier of the error's kind.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            NetworkError::Magic => "nnue_magic",
            NetworkError::Shape { .. } => "nnue_shape",
            NetworkError::Length { .. } => "nnue_length",
        }
    }
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Magic => write!(f, "not a network file: it does not start with HSTGNN01"),
            NetworkError::Shape { features, hidden } => write!(
                f,
                "a network of {features} features and {hidden} hidden units, \
                 where this build reads {FEATURES} and {HIDDEN}"
            ),
            NetworkError::Length { expected, found } => write!(
                f,
                "a network file of {found} bytes, where its shape needs {expected}"
            ),
        }
    }
}

impl core::error::Error for NetworkError {}

/// The length of a network file of this build's shape, in bytes.
pub const FILE_LEN: usize = 8 + 8 + 2 * (FEATURES * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

impl Network {
    /// The network of `w1` (`FEATURES × HIDDEN`, feature-major), `b1`
    /// (`HIDDEN`), `w2` (`2 × HIDDEN`) and `b2`, quantised as the module
    /// says; `None` if a length is wrong.
    #[must_use]
    pub fn from_parts(w1: Vec<i16>, b1: Vec<i16>, w2: Vec<i16>, b2: i32) -> Option<Network> {
        (w1.len() == FEATURES * HIDDEN && b1.len() == HIDDEN && w2.len() == 2 * HIDDEN)
            .then_some(Network { w1, b1, w2, b2 })
    }

    /// Reads a network file.
    ///
    /// # Errors
    ///
    /// [`NetworkError`] if the bytes are not a network file of this build's
    /// shape.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 16 || bytes[..8] != MAGIC {
            return Err(NetworkError::Magic);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (features, hidden) = (word(8), word(12));
        if features as usize != FEATURES || hidden as usize != HIDDEN {
            return Err(NetworkError::Shape { features, hidden });
        }
        if bytes.len() != FILE_LEN {
            return Err(NetworkError::Length {
                expected: FILE_LEN,
                found: bytes.len(),
            });
        }
        let mut shorts = bytes[16..FILE_LEN - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| shorts.by_ref().take(n).collect::<Vec<i16>>();
        let w1 = take(FEATURES * HIDDEN);
        let b1 = take(HIDDEN);
        let w2 = take(2 * HIDDEN);
        let b2 = i32::from_le_bytes([
            bytes[FILE_LEN - 4],
            bytes[FILE_LEN - 3],
            bytes[FILE_LEN - 2],
            bytes[FILE_LEN - 1],
        ]);
        Ok(Network { w1, b1, w2, b2 })
    }

    /// The network file of these weights ([`Network::from_bytes`] reads it
    /// back).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// A network whose weights are all zero (its output is 0 everywhere):
    /// a base for tests.
    #[must_use]
    pub fn zero() -> Network {
        Network {
            w1: vec![0; FEATURES * HIDDEN],
            b1: vec![0; HIDDEN],
            w2: vec![0; 2 * HIDDEN],
            b2: 0,
        }
    }

    /// The first layer's row of feature `f`.
    #[inline]
    pub(crate) fn row(&self, f: usize) -> &[i16] {
        &self.w1[f * HIDDEN..(f + 1) * HIDDEN]
    }

    /// The evaluation in centipawns for the side to move, from the
    /// accumulators of the side to move and of the other side.
    #[must_use]
    pub(crate) fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let (w_us, w_them) = self.w2.split_at(HIDDEN);
        let dot = |acc: &[i16; HIDDEN], w: &[i16]| -> i32 {
            acc.iter()
                .zip(w)
                .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
                .sum()
        };
        let sum = dot(us, w_us) + dot(them, w_them) + self.b2;
        // i64: the sum can reach 2 · 128 · 255 · 127 · 400.
        (i64::from(sum) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_reads_back_as_written() {
        let mut net = Network::zero();
        net.w1[7] = -3;
        net.b1[5] = 100;
        net.w2[HIDDEN + 1] = 64;
        net.b2 = -12_345;
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_LEN);
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
    }

    #[test]
    fn bad_files_are_refused_with_what_is_wrong() {
        let bytes = Network::zero().to_bytes();
        assert_eq!(Network::from_bytes(b"HSTG"), Err(NetworkError::Magic));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]).map_err(|e| e.code()),
            Err("nnue_length")
        );
        let mut other = bytes.clone();
        other[12] = 64;
        assert_eq!(
            Network::from_bytes(&other),
            Err(NetworkError::Shape {
                features: FEATURES as u32,
                hidden: 64
            })
        );
    }

    #[test]
    fn the_output_clips_the_units_and_scales_to_centipawns() {
        let mut net = Network::zero();
        // One unit of ours at 1.0 (QB) and one of theirs at -0.5.
        net.w2[0] = QB as i16;
        net.w2[HIDDEN] = -(QB as i16) / 2;
        let mut us = [0i16; HIDDEN];
        let mut them = [0i16; HIDDEN];
        // Above QA clips to 1.0: +400 cp.
        us[0] = 1000;
        them[0] = QA as i16;
        assert_eq!(net.output(&us, &them), 400 - 200);
        // Below zero clips to 0.
        us[0] = -50;
        assert_eq!(net.output(&us, &them), -200);
    }
}
