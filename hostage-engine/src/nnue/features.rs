//! The network's inputs: which men stand where and what the four reserves
//! hold, seen from one side (the *perspective*).
//!
//! Each perspective has its own set of [`FEATURES`] binary features, as in
//! Stockfish's NNUE, so that one set of weights serves both colours:
//!
//! - a man on the board: (ours or theirs, role, square), the square flipped
//!   top to bottom for Black so that our camp is always ranks 1–5: 2 × 6 × 64
//!   features;
//! - the reserves (R2, R5, R6): for each of our prison, their prison, our
//!   airfield and their airfield and each role a man there can have (pawn
//!   to queen, R4), one feature per man up to [`RESERVE_DEPTH`] ("holds at
//!   least one", "at least two", …): 4 × 5 × 8 features. A prisoner is
//!   exchange currency (R5) and an airfield man a free drop (R6), so
//!   neither is the same feature as the man on the board;
//! - the kings' surroundings: each man but a king within two squares of
//!   our king, and of theirs, by (whose king, ours or theirs, role, offset
//!   from the king): 2 × 2 × 5 × 25 features. The board features say
//!   where a man is; these say where it is *relative to a king*, which is
//!   what king safety against drops and exchanges turns on (a sum over
//!   the board features alone cannot tell a queen next to our king from
//!   one across the board once the king has moved).
//!
//! A set is a bit set, so the features that changed between two positions
//! are the bits of their exclusive or: the accumulator is updated by those
//! alone, whatever the move was (a board move, a capture into a prison, an
//! exchange, a drop or a promotion by swap, R7).

use hostage_core::{Bitboard, Color, Position, Role};

/// Board features: ours and theirs × six roles × 64 squares.
const BOARD_FEATURES: usize = 2 * 6 * 64;
/// How many men of one role in one reserve have a feature each.
pub const RESERVE_DEPTH: usize = 8;
/// Reserve features: four reserves × five roles × [`RESERVE_DEPTH`].
const RESERVE_FEATURES: usize = 4 * 5 * RESERVE_DEPTH;
/// King-surroundings features: whose king × whose man × five roles × the
/// 5 × 5 squares around the king.
const KING_FEATURES: usize = 2 * 2 * 5 * 25;
/// The most features one perspective can have active: every man is on the
/// board or in a reserve (R2: none is ever lost), one feature each, and
/// the 30 men but the kings can each stand near both kings.
pub const MAX_ACTIVE: usize = 32 + 2 * 30;
/// The number of features of one perspective.
pub const FEATURES: usize = BOARD_FEATURES + RESERVE_FEATURES + KING_FEATURES;
/// The squares within two files and two ranks of each square.
const SURROUNDINGS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut other: usize = 0;
        while other < 64 {
            let (g, s) = ((other % 8) as i32, (other / 8) as i32);
            if (f - g).abs() <= 2 && (r - s).abs() <= 2 {
                table[sq] |= 1u64 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    table
};
/// 64-bit words of a set.
const WORDS: usize = FEATURES.div_ceil(64);

/// The active features of one perspective: a bit set over [`FEATURES`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Features {
    words: [u64; WORDS],
}

impl Features {
    /// The features of `pos` seen from `us`.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{Color, Position};
    /// use hostage_engine::nnue::Features;
    ///
    /// // 32 men on the board, empty reserves, nine men next to each king.
    /// assert_eq!(Features::of(&Position::new(), Color::White).count(), 50);
    /// ```
    #[must_use]
    pub fn of(pos: &Position, us: Color) -> Features {
        let mut words = [0u64; WORDS];
        let board = pos.board();
        for (side, color) in [us, !us].into_iter().enumerate() {
            let men = board.by_color(color);
            for role in Role::ALL {
                let base = (side * 6 + (role as usize - 1)) * 64;
                for sq in board.by_role(role) & men {
                    let rel = match us {
                        Color::White => sq,
                        Color::Black => sq.flip_vertical(),
                    };
                    let f = base + rel.index() as usize;
                    words[f / 64] |= 1 << (f % 64);
                }
            }
        }
        let reserves = [
            pos.prison(us),
            pos.prison(!us),
            pos.airfield(us),
            pos.airfield(!us),
        ];
        for (r, reserve) in reserves.into_iter().enumerate() {
            for (role, count) in reserve.iter() {
                let base = BOARD_FEATURES + (r * 5 + (role as usize - 1)) * RESERVE_DEPTH;
                for k in 0..usize::from(count).min(RESERVE_DEPTH) {
                    let f = base + k;
                    words[f / 64] |= 1 << (f % 64);
                }
            }
        }
        let men = board.occupied().0 & !board.by_role(Role::King).0;
        for (k, king_color) in [us, !us].into_iter().enumerate() {
            let king = pos.king_of(king_color);
            let (kf, kr) = (king.file().index() as i32, king.rank().index() as i32);
            for sq in Bitboard(men & SURROUNDINGS[king.index() as usize]) {
                let (Some(role), Some(color)) = (board.role_at(sq), board.color_at(sq)) else {
                    continue;
                };
                let side = usize::from(color != us);
                let df = sq.file().index() as i32 - kf;
                // Ranks count away from our camp for both perspectives.
                let dr = match us {
                    Color::White => sq.rank().index() as i32 - kr,
                    Color::Black => kr - sq.rank().index() as i32,
                };
                let offset = ((dr + 2) * 5 + df + 2) as usize;
                let f = BOARD_FEATURES
                    + RESERVE_FEATURES
                    + ((k * 2 + side) * 5 + (role as usize - 1)) * 25
                    + offset;
                words[f / 64] |= 1 << (f % 64);
            }
        }
        Features { words }
    }

    /// How many features are active.
    #[must_use]
    pub fn count(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    /// The active features, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        bits(self.words)
    }

    /// How many features differ between `self` and `other`.
    #[must_use]
    pub fn distance(&self, other: &Features) -> u32 {
        self.words
            .iter()
            .zip(other.words)
            .map(|(a, b)| (a ^ b).count_ones())
            .sum()
    }

    /// The features active in `self` but not in `other`.
    pub fn minus<'a>(&'a self, other: &'a Features) -> impl Iterator<Item = usize> + 'a {
        let mut words = self.words;
        for (w, o) in words.iter_mut().zip(other.words) {
            *w &= !o;
        }
        bits(words)
    }
}

/// The set bits of `words`, in increasing order.
fn bits(words: [u64; WORDS]) -> impl Iterator<Item = usize> {
    words.into_iter().enumerate().flat_map(|(i, mut w)| {
        core::iter::from_fn(move || {
            if w == 0 {
                return None;
            }
            let b = w.trailing_zeros() as usize;
            w &= w - 1;
            Some(i * 64 + b)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_the_same_from_both_sides() {
        let pos = Position::new();
        let white = Features::of(&pos, Color::White);
        let black = Features::of(&pos, Color::Black);
        // The start is symmetric: each side sees its own men on ranks 1–2.
        assert_eq!(white, black);
        // 32 men on the board; around each king (e1, e8) the men on the
        // c-g files of its own two ranks but the king itself: 9.
        assert_eq!(white.count(), 32 + 9 + 9);
        // Our king on e1: side 0, king (index 5), square e1 (4).
        assert!(white.iter().any(|f| f == 5 * 64 + 4));
        // Their king on e8: side 1, king, square e8 (60).
        assert!(white.iter().any(|f| f == (6 + 5) * 64 + 60));
    }

    #[test]
    fn reserves_count_each_man_once_up_to_the_depth() {
        // White holds two black knights in its prison and a pawn in its
        // airfield; Black's prison holds a white rook.
        let pos =
            Position::from_fen("r1bqkb1r/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBN1[P#Rnn] w Qkq - 0 1")
                .expect("a valid position");
        let white = Features::of(&pos, Color::White);
        let black = Features::of(&pos, Color::Black);
        let knight_in_our_prison = BOARD_FEATURES + (Role::Knight as usize - 1) * RESERVE_DEPTH;
        assert!(white.iter().any(|f| f == knight_in_our_prison));
        assert!(white.iter().any(|f| f == knight_in_our_prison + 1));
        assert!(!white.iter().any(|f| f == knight_in_our_prison + 2));
        // From Black's side the same knights are in their prison (index 1).
        let knight_in_their_prison =
            BOARD_FEATURES + (5 + (Role::Knight as usize - 1)) * RESERVE_DEPTH;
        assert!(black.iter().any(|f| f == knight_in_their_prison + 1));
        // 28 men on the board, two prisoners, one rook, one airfield pawn;
        // around White's king c1, d1, f1, g1 and c2–g2, around Black's c8,
        // d8, f8 and c7–g7.
        assert_eq!(white.count(), 28 + 2 + 1 + 1 + 9 + 8);
    }

    #[test]
    fn the_difference_of_two_sets_is_what_a_move_changed() {
        let before = Position::new();
        let m = before.parse_uci("e2e4").expect("a legal move");
        let after = before.clone().play(m).expect("a legal move");
        let a = Features::of(&before, Color::White);
        let b = Features::of(&after, Color::White);
        // The pawn leaves e2 (12) and our king's surroundings (a pawn of
        // ours one rank ahead of it: offset (1 + 2) · 5 + 2 = 17), and
        // stands on e4 (28), out of them.
        assert_eq!(a.distance(&b), 3);
        let e2_near_our_king = BOARD_FEATURES + RESERVE_FEATURES + 17;
        assert_eq!(a.minus(&b).collect::<Vec<_>>(), [12, e2_near_our_king]);
        assert_eq!(b.minus(&a).collect::<Vec<_>>(), [28]);
    }
}
