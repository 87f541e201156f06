//! An efficiently updatable neural network evaluation (NNUE): a small
//! network over the board, the prisons and the airfields, evaluated with
//! integers and updated incrementally along the search path.
//!
//! - `features.rs`: the inputs, men on squares and reserve counts, from
//!   each side's point of view;
//! - `network.rs`: the weights, their file and the output layer;
//! - `accumulator.rs`: the hidden layer of each ply of the search path,
//!   updated by the features a move changed.
//!
//! The weights in `data/nnue.bin` are embedded in the native engine; they
//! are trained by `hostage-match`'s `nnue_train` example on self-play
//! positions (`scripts/nnue`, `docs/engine.md` says how and on what). The
//! full-strength search evaluates with the network by default
//! ([`crate::Engine::set_nnue`]); the levels keep the hand-written
//! evaluation. The WebAssembly build embeds no network (the module stays
//! small): it reads the same file at run time
//! ([`crate::Engine::load_network`]) and evaluates by hand until then.

mod accumulator;
mod features;
mod network;

pub(crate) use accumulator::Stack;
pub use features::{Features, FEATURES, MAX_ACTIVE, RESERVE_DEPTH};
pub use network::{Network, NetworkError, FILE_LEN, HIDDEN, MAGIC, QA, QB, SCALE, W1_CLIP};

use hostage_core::Position;

/// The network embedded in the engine, read once; `None` in the
/// WebAssembly build, which embeds none (the module stays small; a page
/// loads the weights at run time, [`crate::Engine::load_network`]), or if
/// the embedded file were not a network of this build's shape (a test
/// makes sure it is).
#[must_use]
pub fn embedded() -> Option<&'static Network> {
    #[cfg(not(target_family = "wasm"))]
    {
        // The weights ship in the crate's own `data/` folder (its package
        // lists them), named from the manifest so the path never climbs.
        static BYTES: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/nnue.bin"));
        static NETWORK: std::sync::OnceLock<Option<Network>> = std::sync::OnceLock::new();
        NETWORK
            .get_or_init(|| Network::from_bytes(BYTES).ok())
            .as_ref()
    }
    #[cfg(target_family = "wasm")]
    None
}

/// The network's evaluation of `pos` for the side to move, in centipawns,
/// computed from scratch.
///
/// # Examples
///
/// ```
/// use hostage_core::Position;
/// use hostage_engine::nnue::{evaluate, Network};
///
/// // A network of zeros thinks nothing of any position.
/// assert_eq!(evaluate(&Network::zero(), &Position::new()), 0);
/// ```
#[must_use]
pub fn evaluate(net: &Network, pos: &Position) -> i32 {
    accumulator::evaluate(net, pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_reads_and_values_the_start_near_level() {
        let net = embedded().expect("data/nnue.bin is a network of this shape");
        let start = evaluate(net, &Position::new());
        // The side to move's edge at the start is small.
        assert!((-100..=150).contains(&start), "{start}");
    }
}
