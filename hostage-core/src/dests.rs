//! [`Dests`]: the legal moves grouped as a board interface offers them.
//!
//! A drag-and-drop board asks three questions: where may the man on this
//! square go, where may this airfield man be dropped (R6), and where may
//! this exchange put the rescued man (R5). [`Position::dests`] answers all
//! three from one generation of the legal moves, so that every interface
//! (the JavaScript package, the app, a Rust GUI) groups them alike.
//! Castling is the king's two-square move, as the long form writes it.
//! A promotion is one destination: the interface asks for the piece once
//! the pawn has moved, as chessops' and chessground's boards do.

use alloc::vec::Vec;

use crate::{Bitboard, Move, Position, Role, Square};

/// The legal moves of a position grouped by what is moved: start squares,
/// airfield roles and exchange pairs, each with its destinations.
///
/// Groups with no destination are left out; each list is in ascending
/// order (squares a1, b1, ..., h8; roles as [`Role::HOSTAGES`]).
///
/// ```
/// use hostage_core::{Bitboard, Position, Role, Square};
///
/// let pos = Position::new();
/// let dests = pos.dests();
/// assert_eq!(dests.board.len(), 10); // eight pawns and two knights
/// assert_eq!(dests.from(Square::G1), Bitboard::from_square(Square::F3) | Square::H3);
/// assert!(dests.drops.is_empty() && dests.exchanges.is_empty());
/// ```
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dests {
    /// Board moves: each start square with its destinations.
    pub board: Vec<(Square, Bitboard)>,
    /// Airfield drops (R6): each role with its squares.
    pub drops: Vec<(Role, Bitboard)>,
    /// Exchanges (R5): each pair (released, rescued) with the squares the
    /// rescued man may be dropped on.
    pub exchanges: Vec<(Role, Role, Bitboard)>,
}

impl Dests {
    /// The destinations of the man on `from` (empty if it has none).
    #[must_use]
    pub fn from(&self, from: Square) -> Bitboard {
        self.board
            .iter()
            .find_map(|&(sq, to)| (sq == from).then_some(to))
            .unwrap_or(Bitboard::EMPTY)
    }

    /// The squares `role` may be dropped on from the airfield.
    #[must_use]
    pub fn drop(&self, role: Role) -> Bitboard {
        self.drops
            .iter()
            .find_map(|&(r, to)| (r == role).then_some(to))
            .unwrap_or(Bitboard::EMPTY)
    }

    /// The squares the exchange releasing `released` and rescuing
    /// `rescued` may drop the rescued man on.
    #[must_use]
    pub fn exchange(&self, released: Role, rescued: Role) -> Bitboard {
        self.exchanges
            .iter()
            .find_map(|&(x, y, to)| (x == released && y == rescued).then_some(to))
            .unwrap_or(Bitboard::EMPTY)
    }
}

impl Position {
    /// The legal moves grouped by start square, airfield role and exchange
    /// pair ([`Dests`]).
    #[must_use]
    pub fn dests(&self) -> Dests {
        let mut by_square = [Bitboard::EMPTY; 64];
        let mut by_role = [Bitboard::EMPTY; 5];
        let mut by_pair = [[Bitboard::EMPTY; 5]; 5];
        let hostage = |role: Role| Role::HOSTAGES.iter().position(|&r| r == role);
        for m in &self.legal_moves() {
            match *m {
                Move::Drop { role, to } => {
                    if let Some(i) = hostage(role) {
                        by_role[i].add(to);
                    }
                }
                Move::Exchange {
                    released,
                    rescued,
                    to,
                } => {
                    if let (Some(x), Some(y)) = (hostage(released), hostage(rescued)) {
                        by_pair[x][y].add(to);
                    }
                }
                _ => {
                    if let Some(from) = m.from() {
                        by_square[from.index() as usize].add(m.to());
                    }
                }
            }
        }
        let roles = Role::HOSTAGES;
        Dests {
            board: (0..64)
                .map(Square::new_unchecked)
                .zip(by_square)
                .filter(|(_, to)| to.any())
                .collect(),
            drops: roles
                .into_iter()
                .zip(by_role)
                .filter(|(_, to)| to.any())
                .collect(),
            exchanges: roles
                .into_iter()
                .zip(by_pair)
                .flat_map(|(x, row)| roles.into_iter().zip(row).map(move |(y, to)| (x, y, to)))
                .filter(|(_, _, to)| to.any())
                .collect(),
        }
    }
}
