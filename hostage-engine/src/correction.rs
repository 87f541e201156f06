//! Correction history: what the searches of similar positions said the
//! static evaluation gets wrong, added to it before it is used for pruning.
//!
//! The idea is Stockfish's and Ethereal's "correction history" (described
//! in their release notes and in talks by their authors; no code of theirs
//! is used): after a node's search, the difference between its result and
//! its static evaluation is averaged into a small table indexed by a
//! feature of the position that the evaluation judges badly; the next
//! node with the same feature starts from its static evaluation plus that
//! average.
//!
//! Two features are used, each with its own table per side to move; each
//! table learns the whole error, and the correction is their mean:
//!
//! - the pawn structure (both sides' pawns), as in chess;
//! - the reserves: both prisons and both airfields (R2, R3). What a side
//!   holds in hand decides what it can drop or buy back next (R5, R6), and
//!   the hand-written evaluation prices hands by fixed percentages, so this
//!   is where a Hostage position's evaluation errs most.
//!
//! A result updates the tables only when it says something about the
//! evaluation: not in check, not a mate score, no capture or promotion as
//! the best move (quiescence already judges those), and a bound on the
//! right side of the evaluation (a fail-high above it or a fail-low below
//! it). The update is a weighted average whose weight grows with the
//! depth, so deep results count most; the correction is capped at
//! [`MAX_CORRECTION`] centipawns.

use alloc::{vec, vec::Vec};

use hostage_core::{Color, Position, Role};

/// Entries per side in each table (a power of two).
const ENTRIES: usize = 1 << 14;
/// Entries are kept in 1/[`GRAIN`] centipawn.
const GRAIN: i32 = 256;
/// The weights of an update are out of this.
const WEIGHT_SCALE: i32 = 256;
/// The largest weight of one update (at depth 10 and more).
const MAX_WEIGHT: i32 = 128;
/// The largest correction, centipawns.
pub(crate) const MAX_CORRECTION: i32 = 128;

/// The two correction tables of one search thread.
pub(crate) struct Correction {
    /// By side to move and pawn key.
    pawns: Vec<i32>,
    /// By side to move and reserve key.
    reserves: Vec<i32>,
}

/// The keys of a position in the two tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Keys {
    pawns: usize,
    reserves: usize,
}

/// A 64-bit mix (the finaliser of SplitMix64), so that nearby inputs land
/// in unrelated entries.
#[inline]
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Keys {
    /// The keys of `pos`, with its side to move.
    pub(crate) fn of(pos: &Position) -> Keys {
        let board = pos.board();
        let pawns = board.pawns();
        let white = (pawns & board.by_color(Color::White)).0;
        let black = (pawns & board.by_color(Color::Black)).0;
        let pawn_key = mix(white ^ mix(black));
        // Four reserves, five roles, four bits a count (15 stands for more).
        let mut packed = 0u128;
        for color in Color::ALL {
            for reserve in [pos.prison(color), pos.airfield(color)] {
                for role in Role::HOSTAGES {
                    packed = (packed << 4) | u128::from(reserve.count(role).min(15));
                }
            }
        }
        let reserve_key = mix(packed as u64 ^ mix((packed >> 64) as u64));
        let side = pos.turn() as usize * ENTRIES;
        Keys {
            pawns: side + (pawn_key as usize & (ENTRIES - 1)),
            reserves: side + (reserve_key as usize & (ENTRIES - 1)),
        }
    }
}

impl Correction {
    pub(crate) fn new() -> Correction {
        Correction {
            pawns: vec![0; 2 * ENTRIES],
            reserves: vec![0; 2 * ENTRIES],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.pawns.fill(0);
        self.reserves.fill(0);
    }

    /// The correction to add to the static evaluation, centipawns: the
    /// mean of the two tables' (each an estimate of the whole error).
    #[inline]
    pub(crate) fn get(&self, keys: Keys) -> i32 {
        (self.pawns[keys.pawns] + self.reserves[keys.reserves]) / (2 * GRAIN)
    }

    /// Averages `error` (search result minus static evaluation, before any
    /// correction) of a search of `depth` into both tables.
    pub(crate) fn update(&mut self, keys: Keys, depth: i32, error: i32) {
        let weight = (depth * depth + 2 * depth + 1).min(MAX_WEIGHT);
        let target = error.clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        for slot in [
            &mut self.pawns[keys.pawns],
            &mut self.reserves[keys.reserves],
        ] {
            *slot = (*slot * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_errors_pull_the_correction_toward_them_and_no_further() {
        let pos = Position::new();
        let keys = Keys::of(&pos);
        let mut c = Correction::new();
        assert_eq!(c.get(keys), 0);
        for _ in 0..200 {
            c.update(keys, 12, 60);
        }
        // Both tables converge on 60, and so does their mean.
        assert!((57..=60).contains(&c.get(keys)), "{}", c.get(keys));
        // A huge error is capped.
        for _ in 0..200 {
            c.update(keys, 12, -5_000);
        }
        assert!(c.get(keys) >= -MAX_CORRECTION);
        assert!(c.get(keys) < -MAX_CORRECTION + 5);
    }

    #[test]
    fn a_shallow_result_moves_the_correction_less_than_a_deep_one() {
        let keys = Keys::of(&Position::new());
        let mut shallow = Correction::new();
        let mut deep = Correction::new();
        shallow.update(keys, 1, 100);
        deep.update(keys, 8, 100);
        assert!(shallow.get(keys) < deep.get(keys));
        assert!(shallow.get(keys) > 0);
    }

    #[test]
    fn keys_separate_sides_pawns_and_reserves() {
        let a = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K3[] w - - 0 1").expect("fen");
        let b = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K3[] b - - 0 1").expect("fen");
        let c = Position::from_fen("4k3/pp6/8/8/8/8/PP6/4K3[N] w - - 0 1").expect("fen");
        let d = Position::from_fen("4k3/p7/8/8/8/8/PP6/4K3[] w - - 0 1").expect("fen");
        let (ka, kb, kc, kd) = (Keys::of(&a), Keys::of(&b), Keys::of(&c), Keys::of(&d));
        assert_ne!(ka, kb);
        // A man in the airfield changes the reserve key, not the pawn key.
        assert_eq!(ka.pawns, kc.pawns);
        assert_ne!(ka.reserves, kc.reserves);
        // A pawn fewer changes the pawn key, not the reserve key.
        assert_ne!(ka.pawns, kd.pawns);
        assert_eq!(ka.reserves, kd.reserves);
        // The same position has the same keys (a king move changes neither).
        let e = Position::from_fen("3k4/pp6/8/8/8/8/PP6/4K3[] w - - 0 1").expect("fen");
        assert_eq!(ka, Keys::of(&e));
    }
}
