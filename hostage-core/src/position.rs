//! [`Position`]: a validated position, with legal moves and play.
//!
//! Legality follows one principle (R8a): *after the whole move, prisons
//! included, the mover's king is not attacked*, where a pawn on its 7th rank
//! attacks the last rank only if its side has a queen, rook, bishop or knight
//! in the enemy prison to promote to (R8). The move generator
//! ([`crate::movegen`]) is fast and check-aware, and reaches exactly that
//! verdict; the tests compare it with a plain make-and-test generator.

use core::{fmt, num::NonZeroU32};

use crate::setup::castling_right;

mod play;

use crate::{
    attacks, mv::king_home, zobrist, Bitboard, Board, ByColor, CastlingSide, Color, Move, Reserve,
    Role, Setup, Square,
};

/// The standard set of men of one side (R1), indexed P N B R Q K.
pub(crate) const STANDARD_SET: [u32; 6] = [8, 2, 2, 2, 1, 1];

/// A legal position of Hostage Chess: board, both prisons, both airfields,
/// side to move, castling state, en passant and clocks.
///
/// Built only by [`Position::from_setup`] (or [`Position::new`], or from a
/// FEN), so every `Position` satisfies the invariants listed on
/// [`PositionError`].
///
/// # Examples
///
/// ```
/// use hostage_core::{Position, Move, Role, Square};
///
/// let pos = Position::new();
/// assert_eq!(pos.legal_moves().len(), 20);
///
/// let e4 = Move::Normal { role: Role::Pawn, from: Square::E2, capture: None, to: Square::E4, promotion: None };
/// let pos = pos.play(e4).expect("legal");
/// assert_eq!(pos.board().piece_at(Square::E4).map(|p| p.role), Some(Role::Pawn));
/// ```
#[derive(Clone)]
pub struct Position {
    pub(crate) board: Board,
    /// White's prison, Black's prison, White's airfield, Black's airfield
    /// (`zobrist::prison_slot`, `zobrist::airfield_slot`): one array, so
    /// that a move finds a reserve by arithmetic on the colour.
    pub(crate) reserves: [Reserve; 4],
    pub(crate) turn: Color,
    pub(crate) unmoved: Bitboard,
    /// Set after a double step when an enemy pawn stands beside the pawn;
    /// whether the capture is *legal* is decided on demand.
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: NonZeroU32,
    /// Zobrist hash of everything but the en-passant file.
    pub(crate) hash: u64,
}

/// Why a [`Setup`] is not a legal position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// A side has no king on the board.
    #[error("a side has no king")]
    MissingKing,
    /// A side has more than one king on the board.
    #[error("a side has more than one king")]
    TooManyKings,
    /// A king is in a prison or an airfield (R4).
    #[error("a king is in a prison or an airfield")]
    KingInReserve,
    /// A pawn stands on rank 1 or 8.
    #[error("a pawn stands on rank 1 or 8")]
    PawnOnBackrank,
    /// A side has more men of some role, on the board, in its airfield and in
    /// the enemy prison together, than the standard set (R1, R2).
    #[error("a side has more men of a role than the standard set")]
    TooManyMen,
    /// The side not to move is in check.
    #[error("the side not to move is in check")]
    OppositeCheck,
    /// The castling state does not match the board: a never-moved king off
    /// its home square, or an unmoved-rook corner without its rook (R9).
    #[error("castling state does not match the board")]
    InvalidCastling,
    /// The en-passant square is not behind a pawn that could just have made
    /// a double step (R10).
    #[error("en-passant square does not follow a double step")]
    InvalidEpSquare,
}

impl PositionError {
    /// A stable identifier, shared with the Python and JavaScript bindings.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            PositionError::MissingKing => "missing_king",
            PositionError::TooManyKings => "too_many_kings",
            PositionError::KingInReserve => "king_in_reserve",
            PositionError::PawnOnBackrank => "pawn_on_backrank",
            PositionError::TooManyMen => "too_many_men",
            PositionError::OppositeCheck => "opposite_check",
            PositionError::InvalidCastling => "invalid_castling",
            PositionError::InvalidEpSquare => "invalid_ep_square",
        }
    }
}

/// A move that is not legal in the position it was played in. The position
/// is handed back unchanged; the message names the move, the position and,
/// after a colon, why the move is illegal ([`PlayError::reason`]).
///
/// # Examples
///
/// ```
/// use hostage_core::{IllegalReason, Move, Position, Role, Square};
///
/// let m = Move::Normal { role: Role::Pawn, from: Square::E2, to: Square::E5, capture: None, promotion: None };
/// let err = Position::new().play(m).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "illegal move e2e5 in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1: \
///      that man does not move that way"
/// );
/// assert_eq!(err.reason(), Some(IllegalReason::WrongWay));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct PlayError {
    /// The rejected move.
    pub mv: Move,
    /// The position, unchanged.
    pub position: Position,
}

impl PlayError {
    /// The stable error code: `"illegal_move"`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "illegal_move"
    }
}

impl core::error::Error for PlayError {}

impl fmt::Debug for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlayError")
            .field("mv", &self.mv)
            .finish_non_exhaustive()
    }
}

/// How a game ends by the position alone (R11, R12).
///
/// Exhaustive on purpose: the rules fix these endings, so a new one would
/// be a new game, not a new version of this one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move (R11).
    Checkmate,
    /// The side to move is not in check and has no legal move (R12).
    Stalemate,
    /// 100 plies without a capture, pawn move or pawn drop (R12, a choice of
    /// this project).
    FiftyMoves,
    /// A position occurred for the third time (R12); decided by a game record.
    ThreefoldRepetition,
    /// A threefold repetition in whose cycle every move of one side gave
    /// check (R12); decided by a game record.
    PerpetualCheck,
}

impl Termination {
    /// `"checkmate"`, `"stalemate"`, `"fifty_moves"`, `"threefold_repetition"`
    /// or `"perpetual_check"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::FiftyMoves => "fifty_moves",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::PerpetualCheck => "perpetual_check",
        }
    }
}

/// The end of a game: how, and who won (`None` for a draw).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// How the game ended.
    pub termination: Termination,
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The starting position (R1).
    #[must_use]
    pub fn new() -> Position {
        Position::from_setup(Setup::start()).expect("the start position is legal")
    }

    /// Validates `setup`.
    ///
    /// An en-passant square that is well formed but allows no legal capture is
    /// kept internally but is never written to FEN or hashed (R12).
    ///
    /// # Errors
    ///
    /// [`PositionError`] names the first broken invariant, checked in this
    /// order: kings on the board, kings in reserves, pawns on rank 1/8, men
    /// per role, castling state, en-passant square, the side not to move in
    /// check.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let board = &setup.board;
        for color in Color::ALL {
            match board.by_piece(Role::King.of(color)).count() {
                0 => return Err(PositionError::MissingKing),
                1 => {}
                _ => return Err(PositionError::TooManyKings),
            }
            if setup.prison(color).has(Role::King) || setup.airfield(color).has(Role::King) {
                return Err(PositionError::KingInReserve);
            }
        }
        if board.pawns().intersects(Bitboard::BACKRANKS) {
            return Err(PositionError::PawnOnBackrank);
        }
        for color in Color::ALL {
            if setup
                .men(color)
                .iter()
                .zip(STANDARD_SET)
                .any(|(&n, max)| n > max)
            {
                return Err(PositionError::TooManyMen);
            }
        }
        let unmoved = setup.normalized_unmoved();
        for color in Color::ALL {
            if unmoved.contains(king_home(color))
                && board.piece_at(king_home(color)) != Some(Role::King.of(color))
            {
                return Err(PositionError::InvalidCastling);
            }
            for side in CastlingSide::ALL {
                let corner = side.rook_square(color);
                if unmoved.contains(corner) && board.piece_at(corner) != Some(Role::Rook.of(color))
                {
                    return Err(PositionError::InvalidCastling);
                }
            }
        }
        if (setup.unmoved & !(Bitboard::CORNERS | Square::E1 | Square::E8)).any() {
            return Err(PositionError::InvalidCastling);
        }
        if let Some(ep) = setup.ep_square {
            // R10: the square a pawn of the side not to move just skipped.
            let them = !setup.turn;
            let ok = ep.rank() == crate::Rank::THIRD.relative_to(them)
                && !board.occupied().contains(ep)
                && ep
                    .offset(if them.is_white() { 8 } else { -8 })
                    .is_some_and(|sq| board.piece_at(sq) == Some(Role::Pawn.of(them)))
                && ep
                    .offset(if them.is_white() { -8 } else { 8 })
                    .is_some_and(|sq| !board.occupied().contains(sq));
            if !ok {
                return Err(PositionError::InvalidEpSquare);
            }
        }
        let mut pos = Position {
            board: setup.board,
            reserves: [
                setup.prisons.white,
                setup.prisons.black,
                setup.airfields.white,
                setup.airfields.black,
            ],
            turn: setup.turn,
            unmoved,
            ep_square: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        let them = !pos.turn;
        if let Some(king) = pos.board.king_of(them) {
            if pos.attackers(king, pos.turn, pos.board.occupied()).any() {
                return Err(PositionError::OppositeCheck);
            }
        }
        Ok(pos)
    }

    /// The position as plain data. The en-passant square is kept only when
    /// an en-passant capture is legal, as FEN writes it.
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            prisons: ByColor {
                white: self.reserves[0],
                black: self.reserves[1],
            },
            airfields: ByColor {
                white: self.reserves[2],
                black: self.reserves[3],
            },
            turn: self.turn,
            unmoved: self.unmoved,
            ep_square: self.legal_ep_square(),
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The men on the board.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// `color`'s prison: the *enemy* men `color` has captured (R2).
    #[must_use]
    pub const fn prison(&self, color: Color) -> &Reserve {
        &self.reserves[zobrist::prison_slot(color)]
    }

    /// `color`'s airfield: `color`'s *own* men released by the opponent,
    /// waiting to be dropped (R3).
    #[must_use]
    pub const fn airfield(&self, color: Color) -> &Reserve {
        &self.reserves[zobrist::airfield_slot(color)]
    }

    /// The side to move.
    #[must_use]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// Never-moved kings and unmoved home-corner rooks (see [`Setup::unmoved`]).
    #[must_use]
    pub const fn unmoved(&self) -> Bitboard {
        self.unmoved
    }

    /// Whether `color` keeps the right to castle on `side` (`K Q k q`, R9).
    /// Whether castling is possible *now* also depends on the squares
    /// between and on attacks.
    #[must_use]
    pub fn has_castling_right(&self, color: Color, side: CastlingSide) -> bool {
        castling_right(self.unmoved, color, side)
    }

    /// Whether `color`'s king has never moved, so that a rook dropped on a
    /// home corner revives a castling right (R9).
    #[must_use]
    pub fn king_unmoved(&self, color: Color) -> bool {
        self.unmoved.contains(king_home(color))
    }

    /// The en-passant target square, only when an en-passant capture is legal.
    #[must_use]
    pub fn ep_square(&self) -> Option<Square> {
        self.legal_ep_square()
    }

    /// Plies since the last capture, pawn move or pawn drop (R12).
    #[must_use]
    pub const fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number: 1 at the start, incremented after each Black move.
    #[must_use]
    pub const fn fullmoves(&self) -> NonZeroU32 {
        self.fullmoves
    }

    /// The square of `color`'s king.
    #[must_use]
    pub fn king_of(&self, color: Color) -> Square {
        self.board.king_of(color).unwrap_or(Square::A1)
    }

    /// Whether `color`'s pawns can promote, i.e. `color`'s man of some role
    /// Q/R/B/N is held in the enemy prison (R7). If not, `color`'s pawns on
    /// the 7th rank are frozen (R8).
    #[inline]
    #[must_use]
    pub fn can_promote(&self, color: Color) -> bool {
        self.prison(!color).has_promotion_piece()
    }

    /// Men of `by` attacking `sq` with the given occupancy, where frozen
    /// pawns attack nothing on their last rank (R8).
    #[inline]
    pub(crate) fn attackers_live(
        &self,
        sq: Square,
        by: Color,
        occupied: Bitboard,
        live: bool,
    ) -> Bitboard {
        let mut attackers = self.board.attackers_to(sq, by, occupied);
        if !live && sq.rank() == crate::Rank::EIGHTH.relative_to(by) {
            attackers &= !self.board.pawns();
        }
        attackers
    }

    /// Men of `by` attacking `sq` in this position (R8 applied).
    #[inline]
    pub(crate) fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        self.attackers_live(sq, by, occupied, self.can_promote(by))
    }

    /// The enemy men giving check to the side to move (frozen pawns never do).
    #[must_use]
    pub fn checkers(&self) -> Bitboard {
        self.attackers(self.king_of(self.turn), !self.turn, self.board.occupied())
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Enemy pawns that would attack the king of the side to move if they
    /// were not frozen (R8a). Empty whenever the enemy can promote.
    #[must_use]
    pub fn pseudo_checkers(&self) -> Bitboard {
        let us = self.turn;
        if self.can_promote(!us) {
            return Bitboard::EMPTY;
        }
        let king = self.king_of(us);
        if king.rank() != crate::Rank::FIRST.relative_to(us) {
            return Bitboard::EMPTY;
        }
        attacks::pawn_attacks(us, king) & self.board.by_piece(Role::Pawn.of(!us))
    }

    /// Whether the king of the side to move is in pseudo-check: attacked
    /// only by frozen pawns (R8a). It is not in check, but no move may
    /// unfreeze such a pawn.
    #[must_use]
    pub fn is_pseudo_check(&self) -> bool {
        self.pseudo_checkers().any() && !self.is_check()
    }

    /// Whether the side to move is checkmated (R11): in check, and no board
    /// move, drop or exchange gets it out.
    #[must_use]
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.count_legal_moves() == 0
    }

    /// Whether the side to move is stalemated (R12): not in check, and no
    /// legal move of any kind.
    #[must_use]
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.count_legal_moves() == 0
    }

    /// Whether the fifty-move draw has been reached (R12: 100 plies).
    #[must_use]
    pub fn is_fifty_moves(&self) -> bool {
        self.halfmoves >= 100
    }

    /// The outcome decided by this position alone: checkmate, stalemate, or
    /// the fifty-move draw (a mate on the 100th ply still wins). Repetitions
    /// need the game's history.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.count_legal_moves() == 0 {
            Some(if self.is_check() {
                Outcome {
                    termination: Termination::Checkmate,
                    winner: Some(!self.turn),
                }
            } else {
                Outcome {
                    termination: Termination::Stalemate,
                    winner: None,
                }
            })
        } else if self.is_fifty_moves() {
            Some(Outcome {
                termination: Termination::FiftyMoves,
                winner: None,
            })
        } else {
            None
        }
    }

    /// The Zobrist hash (see [`crate::zobrist`]): equal for positions that
    /// R12 counts as the same, and updated incrementally by play.
    #[must_use]
    pub fn zobrist_hash(&self) -> u64 {
        match self.legal_ep_square() {
            Some(ep) => self.hash ^ zobrist::ep_file(ep.file().index()),
            None => self.hash,
        }
    }

    /// The Zobrist hash computed from scratch (for tests of the incremental one).
    #[must_use]
    pub fn zobrist_hash_from_scratch(&self) -> u64 {
        match self.legal_ep_square() {
            Some(ep) => self.compute_hash() ^ zobrist::ep_file(ep.file().index()),
            None => self.compute_hash(),
        }
    }

    fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, piece) in self.board.iter() {
            h ^= zobrist::piece(piece.color, piece.role, sq);
        }
        if self.turn == Color::Black {
            h ^= zobrist::black_to_move();
        }
        h ^= zobrist::castling_rights(self.unmoved);
        for (slot, reserve) in self.reserves.iter().enumerate() {
            for role in Role::HOSTAGES {
                for level in 1..=reserve.count(role) {
                    h ^= zobrist::reserve(slot, role, level);
                }
            }
        }
        h
    }
}

/// Positions are equal when their FENs are: same board, reserves, turn,
/// castling state, legal en-passant square and clocks.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.to_setup() == other.to_setup()
    }
}

impl Eq for Position {}

/// Hashes what [`PartialEq`] compares (the FEN's content), so equal
/// positions hash equally. For R12's repetition key use
/// [`Position::zobrist_hash`], which leaves out the clocks.
impl core::hash::Hash for Position {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.to_setup().hash(state);
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The FEN says everything the position holds (fen.rs writes it).
        write!(f, "Position({})", self.fen())
    }
}

/// Validation lives with the position it would build.
impl Setup {
    /// Whether this setup is a legal position, without building it.
    ///
    /// # Errors
    ///
    /// The [`PositionError`] that [`Position::from_setup`]
    /// would return.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{PositionError, Setup};
    ///
    /// assert_eq!(Setup::start().validate(), Ok(()));
    /// assert_eq!(Setup::empty().validate(), Err(PositionError::MissingKing));
    /// ```
    pub fn validate(&self) -> Result<(), PositionError> {
        Position::from_setup(self.clone()).map(|_| ())
    }
}
