//! Perft: counting the leaves of the legal move tree, to check move
//! generation against known numbers.

use alloc::vec::Vec;

use crate::{
    movegen::{generate, Sink, Squares},
    Bitboard, Board, Color, Move, MoveList, Position, Role, Square,
};

/// The number of move sequences of length `depth` from `pos`.
///
/// The last ply is counted without being played (bulk counting), and
/// drops and exchanges there are counted by square sets.
///
/// # Examples
///
/// ```
/// use hostage_core::{perft, Position};
///
/// assert_eq!(perft(&Position::new(), 3), 8902);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    walk::<true>(pos, depth, &mut Buffers::new(depth))
}

/// Perft without bulk counting: every leaf is played. Slower; for
/// benchmarks and for testing the playing of moves: each leaf is played
/// with the two steps that make up `play_unchecked` (the turn passed once
/// per parent, then the move's own part), straight from the generator.
#[must_use]
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    walk::<false>(pos, depth, &mut Buffers::new(depth))
}

/// One move list per ply, reused across the whole walk (no allocation per
/// node).
struct Buffers(Vec<MoveList>);

impl Buffers {
    fn new(depth: u32) -> Buffers {
        Buffers((0..depth).map(|_| MoveList::with_capacity(64)).collect())
    }
}

/// The walk of [`perft`] (`BULK`) or [`perft_full`]: one copy each, so
/// that a build that calls only one (the WebAssembly module calls only
/// `perft`) carries only its code.
fn walk<const BULK: bool>(pos: &Position, depth: u32, buffers: &mut Buffers) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return if BULK {
            pos.count_legal_moves() as u64
        } else {
            play_leaves(pos)
        };
    }
    let mut moves = core::mem::take(&mut buffers.0[depth as usize - 1]);
    moves.clear();
    pos.legal_moves_into(&mut moves);
    // What every child shares (the turn passed, the clocks, the
    // side-to-move key) is done once; each child is a copy of it with its
    // move played.
    let base = pos.passed();
    let nodes = moves
        .iter()
        .map(|m| {
            let mut child = base.clone();
            child.play_passed(m);
            walk::<BULK>(&child, depth - 1, buffers)
        })
        .sum();
    buffers.0[depth as usize - 1] = moves;
    nodes
}

/// Plays every move of the last ply as the generator finds it (not bulk):
/// each on a copy of `base`, the parent with its turn passed
/// ([`Position::passed`]), handed to `visit`. No list is written or read,
/// and each move's kind (and for a set of moves, the man and its square)
/// is known where it is played. `BLACK` is the side to move of the
/// parent, so that the mover's colour is a constant where the moves are
/// played.
struct LeafPlayer<'a, const BLACK: bool, F> {
    base: &'a Position,
    visit: F,
}

impl<const BLACK: bool, F: FnMut(&Position)> LeafPlayer<'_, BLACK, F> {
    const US: Color = if BLACK { Color::Black } else { Color::White };

    #[inline(always)]
    fn play(&mut self, m: &Move) {
        let mut child = self.base.clone();
        child.play_passed_as(Self::US, m);
        (self.visit)(&child);
    }
}

impl<const BLACK: bool, F: FnMut(&Position)> Sink for LeafPlayer<'_, BLACK, F> {
    #[inline]
    fn push(&mut self, m: Move) {
        self.play(&m);
    }
    #[inline]
    fn normals(&mut self, board: &Board, role: Role, from: Square, to: Bitboard) {
        for to in to {
            self.play(&Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
    #[inline]
    fn pawn_shift(&mut self, board: &Board, delta: i32, to: Bitboard) {
        // A push (a whole number of ranks) lands on an empty square.
        let pushes = delta % 8 == 0;
        for to in to {
            let from = Square::new_unchecked((to.index() as i32 - delta) as u32);
            let capture = if pushes { None } else { board.role_at(to) };
            self.play(&Move::Normal {
                role: Role::Pawn,
                from,
                capture,
                to,
                promotion: None,
            });
        }
    }
    #[inline]
    fn drops(&mut self, role: Role, to: Squares) {
        for to in to.set() {
            self.play(&Move::Drop { role, to });
        }
    }
    #[inline]
    fn exchanges(&mut self, released: Role, rescued: Role, to: Squares) {
        for to in to.set() {
            self.play(&Move::Exchange {
                released,
                rescued,
                to,
            });
        }
    }
}

/// Every leaf below `pos` played and counted. Kept out of the walk so
/// that the copies read the parent from memory rather than from the
/// generator's registers.
#[inline(never)]
fn play_leaves(pos: &Position) -> u64 {
    let mut nodes = 0;
    for_each_child(pos, |child| {
        core::hint::black_box(child);
        nodes += 1;
    });
    nodes
}

/// Calls `visit` with the position each legal move of `pos` makes,
/// in generation order, without a move list ([`LeafPlayer`]).
#[inline(always)]
fn for_each_child(pos: &Position, visit: impl FnMut(&Position)) {
    let base = pos.passed();
    match pos.turn() {
        Color::White => generate(pos, &mut LeafPlayer::<false, _> { base: &base, visit }),
        Color::Black => generate(pos, &mut LeafPlayer::<true, _> { base: &base, visit }),
    }
}

/// Perft split by first move: each legal move with the count below it.
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> alloc::vec::Vec<(Move, u64)> {
    if depth == 0 {
        return alloc::vec::Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use alloc::{string::String, vec::Vec};

    use super::for_each_child;
    use crate::Position;

    /// The children that `perft_full` plays at its last ply are the list's
    /// moves played with `play_unchecked`, in the same order: same FENs,
    /// same hashes (and the incremental hash right).
    #[test]
    fn leaf_player_makes_the_same_children_as_the_list() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
            "r3k2r/p1p2ppp/2p1pn2/4p3/1b1P4/P1NB4/1PPB1PPP/2KRR3[Nb#QPqn] b kq - 0 14",
            "4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] w - - 0 40",
            "4k3/1P4P1/8/8/8/8/1p4p1/4K3[RBrb#QNqn] b - - 0 40",
            "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[BNbn#BPPbpp] b KQkq - 0 12",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/p6p/8/8/8/8/P6P/R3K2R[Qq#Nn] w KQkq - 5 20",
        ];
        let mut compared = 0;
        for fen in fens {
            let pos = Position::from_fen(fen).expect("legal");
            let mut played: Vec<(String, u64)> = Vec::new();
            for_each_child(&pos, |child| {
                assert_eq!(child.zobrist_hash(), child.zobrist_hash_from_scratch());
                played.push((child.fen(), child.zobrist_hash()));
            });
            let listed: Vec<(String, u64)> = pos
                .legal_moves()
                .into_iter()
                .map(|m| {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    (child.fen(), child.zobrist_hash())
                })
                .collect();
            assert_eq!(played, listed, "{fen}");
            compared += listed.len();
        }
        assert!(compared > 1000, "{compared}");
    }
}
