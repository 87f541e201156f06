//! The accumulators of the search path: the hidden layer of each position
//! on it, kept per ply and updated from a neighbour rather than recomputed.
//!
//! A node's features ([`Features`]) are compared with those of the entry one
//! ply up (its parent, when the parent was evaluated) and with the entry at
//! its own ply (the sibling evaluated last); the accumulator is taken from
//! whichever differs in fewer features and only the features that differ
//! are added or taken away. Either source gives the same accumulator as a
//! computation from scratch, since an entry's accumulator always matches its
//! own features: the result never depends on which source was used, so a
//! search on a node budget stays deterministic. Where both differ in more
//! features than the position has, it is computed from scratch.

use alloc::{vec, vec::Vec};

use hostage_core::{Color, Position};

use super::{
    features::Features,
    network::{Network, HIDDEN},
};

/// The hidden layer of one position, from each perspective (White's, then
/// Black's).
type Hidden = [[i16; HIDDEN]; 2];

/// One ply's position: its features and its accumulators.
#[derive(Clone)]
struct Entry {
    features: [Features; 2],
    hidden: Hidden,
}

/// The accumulators of a search path, one entry per ply.
pub(crate) struct Stack<'a> {
    net: &'a Network,
    entries: Vec<Option<Entry>>,
}

impl<'a> Stack<'a> {
    /// An empty stack of `plies` entries for `net`.
    pub(crate) fn new(net: &'a Network, plies: usize) -> Stack<'a> {
        Stack {
            net,
            entries: vec![None; plies],
        }
    }

    /// The evaluation of `pos`, at `ply` of the search path, for the side to
    /// move, in centipawns.
    pub(crate) fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let features = [
            Features::of(pos, Color::White),
            Features::of(pos, Color::Black),
        ];
        let fresh = features[0].count() + features[1].count();
        let source = [ply.checked_sub(1), Some(ply)]
            .into_iter()
            .flatten()
            .filter_map(|i| self.entries.get(i)?.as_ref())
            .map(|e| {
                let d = e.features[0].distance(&features[0]) + e.features[1].distance(&features[1]);
                (d, e)
            })
            .min_by_key(|&(d, _)| d)
            .filter(|&(d, _)| d < fresh);
        let hidden = match source {
            Some((_, e)) => self.update(e, &features),
            None => refresh(self.net, &features),
        };
        let stm = pos.turn() as usize;
        let value = self.net.output(&hidden[stm], &hidden[1 - stm]);
        if let Some(slot) = self.entries.get_mut(ply) {
            *slot = Some(Entry { features, hidden });
        }
        value
    }

    /// The accumulators of `features` from `from`'s.
    fn update(&self, from: &Entry, features: &[Features; 2]) -> Hidden {
        let mut hidden = from.hidden;
        for ((acc, new), old) in hidden.iter_mut().zip(features).zip(&from.features) {
            for i in new.minus(old) {
                add(acc, self.net.row(i));
            }
            for i in old.minus(new) {
                sub(acc, self.net.row(i));
            }
        }
        hidden
    }
}

/// The accumulators of `features` (White's, then Black's) from scratch.
fn refresh(net: &Network, features: &[Features; 2]) -> Hidden {
    let mut hidden = [[0i16; HIDDEN]; 2];
    for (acc, f) in hidden.iter_mut().zip(features) {
        acc.copy_from_slice(&net.b1);
        for i in f.iter() {
            add(acc, net.row(i));
        }
    }
    hidden
}

/// The evaluation of `pos` from scratch, for the side to move (what
/// [`Stack::evaluate`] computes incrementally).
pub(crate) fn evaluate(net: &Network, pos: &Position) -> i32 {
    let hidden = refresh(
        net,
        &[
            Features::of(pos, Color::White),
            Features::of(pos, Color::Black),
        ],
    );
    let stm = pos.turn() as usize;
    net.output(&hidden[stm], &hidden[1 - stm])
}

// The trainer clips the weights so that no sum overflows (`network.rs`);
// wrapping arithmetic keeps a network file that breaks that promise from
// panicking in a debug build (its sums are then wrong, never a crash).
#[inline]
fn add(acc: &mut [i16; HIDDEN], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(w);
    }
}

#[inline]
fn sub(acc: &mut [i16; HIDDEN], row: &[i16]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(w);
    }
}

#[cfg(test)]
mod tests {
    use alloc::boxed::Box;

    use hostage_core::Game;

    use super::*;
    use crate::{nnue::FEATURES, rng::Rng};

    /// A network of seeded weights within the trainer's bounds.
    fn random_network(seed: u64) -> &'static Network {
        let mut rng = Rng::new(seed);
        let mut draw = |bound: u64| rng.below(2 * bound + 1) as i16 - bound as i16;
        let w1 = (0..FEATURES * HIDDEN).map(|_| draw(323)).collect();
        let b1 = (0..HIDDEN).map(|_| draw(323)).collect();
        let w2 = (0..2 * HIDDEN).map(|_| draw(126)).collect();
        let net = Network::from_parts(w1, b1, w2, 1234).expect("the network's shape");
        Box::leak(Box::new(net))
    }

    #[test]
    fn incremental_updates_equal_a_computation_from_scratch() {
        let net = random_network(7);
        let mut checked = 0;
        let mut with_airfield = 0;
        for seed in 0..12u64 {
            // Random games reach captures, exchanges, drops and
            // promotions; each ply is evaluated twice, first from its
            // parent, then (a sibling) from the entry it just left.
            let mut rng = Rng::new(seed);
            let mut stack = Stack::new(net, 200);
            let mut game = Game::new();
            for ply in 0..160 {
                let pos = game.position().clone();
                if Color::ALL.iter().any(|&c| !pos.airfield(c).is_empty()) {
                    with_airfield += 1;
                }
                assert_eq!(
                    stack.evaluate(&pos, ply),
                    evaluate(net, &pos),
                    "{}",
                    pos.fen()
                );
                let moves = pos.legal_moves();
                if moves.is_empty() || game.outcome().is_some() {
                    break;
                }
                let sibling = pos.clone().play(moves[0]).expect("legal");
                assert_eq!(stack.evaluate(&sibling, ply + 1), evaluate(net, &sibling));
                let m = moves[rng.below(moves.len() as u64) as usize];
                game.push(m).expect("legal");
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
        assert!(with_airfield > 100, "{with_airfield}");
    }

    #[test]
    fn a_null_move_changes_only_the_side_to_move() {
        let net = random_network(3);
        let mut stack = Stack::new(net, 4);
        let pos = Position::new();
        let white = stack.evaluate(&pos, 0);
        let null = pos.null_move().expect("not in check");
        let black = stack.evaluate(&null, 1);
        assert_eq!(black, evaluate(net, &null));
        // The start is symmetric: either side to move sees the same.
        assert_eq!(white, black);
    }
}
