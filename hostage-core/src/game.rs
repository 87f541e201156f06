//! [`Game`]: a start position and the moves played from it, with every way
//! a game of Hostage Chess ends.
//!
//! A `Game` keeps the position after every ply, so that undo ([`Game::pop`])
//! is exact and SAN can be written for any ply, and a counter of positions
//! keyed by [`Position::zobrist_hash`]. The hash covers everything R12 counts
//! for repetition: the board, the side to move, the castling rights in
//! force, a legal en-passant capture, **both prisons and both airfields**.
//! Two positions with the same board but different prisons are different
//! positions: the moves available differ.
//!
//! # How a game ends
//!
//! [`Game::outcome`] applies, in this order:
//!
//! 1. checkmate (R11) and stalemate (R12), then the fifty-move rule (R12: 100
//!    plies without a capture, a pawn move or a pawn drop; a mate on the
//!    100th ply still wins), as [`Position::outcome`] decides them;
//! 2. repetition (R12): when the current position occurs for the third time
//!    the game is drawn. It is reported as [`Termination::PerpetualCheck`]
//!    when, in the cycle from the *first* occurrence of that position up to
//!    now, every move of one side gave check; otherwise as
//!    [`Termination::ThreefoldRepetition`].
//!
//! All these draws are automatic (R12). The counters are exposed
//! ([`Game::halfmove_clock`], [`Game::repetition_count`]) for callers who
//! apply other conventions. A `Game` is a record: it does not refuse moves
//! after an outcome, and [`Game::outcome`] judges the current position.
//!
//! # No draw by insufficient material
//!
//! Orthodox chess draws a game in which neither side has the men left to
//! mate. That cannot happen in Hostage Chess: no man ever leaves the game
//! (R2: a captured man goes into the captor's prison; R3, R5: prisoners are
//! exchanged and come back through the airfield; R6: from there they are
//! dropped on any empty square). Even a bare king facing a bare king can
//! still get men back as long as the prisons hold them, and a side whose
//! men are all in prison can win them back by capture and exchange. So
//! there is no [`Termination`] for insufficient material.
//!
//! # Examples
//!
//! ```
//! use hostage_core::{game::Game, Termination};
//!
//! let mut game = Game::new();
//! for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
//!     game.push_san(san)?;
//! }
//! // The start position has now occurred three times.
//! assert_eq!(game.repetition_count(), 3);
//! assert_eq!(game.outcome().map(|o| o.termination), Some(Termination::ThreefoldRepetition));
//! # Ok::<_, hostage_core::game::GameError>(())
//! ```

use alloc::{collections::BTreeMap, string::String, vec::Vec};

use crate::{
    illegal::Because,
    san::{San, SanError},
    uci::{UciError, UciMove},
    Color, IllegalReason, Move, Outcome, Position, Termination,
};

/// Why a move could not be added to a [`Game`]. The game is unchanged. The
/// message names the move given and the position's FEN.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// The move is not legal in the current position.
    #[error("illegal move {mv} in {fen}{}", Because(*.reason))]
    IllegalMove {
        /// The move given.
        mv: Move,
        /// The FEN of the position.
        fen: String,
        /// Why the move is illegal ([`Position::illegal_reason`]).
        reason: Option<IllegalReason>,
    },
    /// The SAN text was rejected (syntax, illegal or ambiguous).
    #[error(transparent)]
    San(#[from] SanError),
    /// The long-form text was rejected (syntax or illegal).
    #[error(transparent)]
    Uci(#[from] UciError),
}

impl From<crate::san::ParseMoveError> for GameError {
    fn from(e: crate::san::ParseMoveError) -> GameError {
        match e {
            crate::san::ParseMoveError::San(e) => GameError::San(e),
            crate::san::ParseMoveError::Uci(e) => GameError::Uci(e),
        }
    }
}

impl GameError {
    /// The error's family: that of the SAN or long-form error, or an
    /// illegal move.
    #[must_use]
    pub const fn kind(&self) -> crate::ErrorKind {
        match self {
            GameError::IllegalMove { .. } => crate::ErrorKind::IllegalMove,
            GameError::San(e) => e.kind(),
            GameError::Uci(e) => e.kind(),
        }
    }

    /// Why the move is illegal: the reason of [`GameError::IllegalMove`] or
    /// of the SAN or UCI error; `None` for text that is not a move or is
    /// ambiguous.
    #[must_use]
    pub const fn reason(&self) -> Option<IllegalReason> {
        match self {
            GameError::IllegalMove { reason, .. } => *reason,
            GameError::San(e) => e.reason(),
            GameError::Uci(e) => e.reason(),
        }
    }

    /// `"illegal_move"`, or the code of the SAN or UCI error.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            GameError::IllegalMove { .. } => "illegal_move",
            GameError::San(e) => e.code(),
            GameError::Uci(e) => e.code(),
        }
    }
}

/// A game: the start position, the moves played, and the positions reached.
///
/// # Examples
///
/// ```
/// use hostage_core::game::Game;
///
/// let mut game = Game::new();
/// game.push_san("e4")?;
/// game.push_uci("d7d5")?;
/// game.push_san("exd5")?;
/// assert_eq!(game.san_moves(), ["e4", "d5", "exd5"]);
/// assert_eq!(game.pop().map(|m| m.to_string()), Some("e4d5".to_string()));
/// assert_eq!(game.ply(), 2);
/// # Ok::<_, hostage_core::game::GameError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    moves: Vec<Move>,
    /// `positions[0]` is the start; `positions[i]` the position after `i` plies.
    positions: Vec<Position>,
    /// `hashes[i]` is `positions[i].zobrist_hash()`.
    hashes: Vec<u64>,
    /// How often each hash occurs in `hashes`.
    counts: BTreeMap<u64, u32>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A game from the standard start position (R1).
    #[must_use]
    pub fn new() -> Game {
        Game::from_position(Position::new())
    }

    /// A game from `start`.
    #[must_use]
    pub fn from_position(start: Position) -> Game {
        let hash = start.zobrist_hash();
        let mut counts = BTreeMap::new();
        counts.insert(hash, 1);
        Game {
            moves: Vec::new(),
            positions: alloc::vec![start],
            hashes: alloc::vec![hash],
            counts,
        }
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game: the start first, then the position after
    /// each ply (one more than [`Game::moves`]).
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The position after `ply` plies (0 is the start), if the game is that long.
    #[must_use]
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.positions.get(ply)
    }

    /// The number of plies played.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Plays `m` if it is legal.
    ///
    /// # Errors
    ///
    /// [`GameError::IllegalMove`]; the game is unchanged.
    pub fn push(&mut self, m: Move) -> Result<(), GameError> {
        if !self.position().is_legal(&m) {
            return Err(GameError::IllegalMove {
                mv: m,
                fen: self.position().fen(),
                reason: self.position().illegal_reason(&m),
            });
        }
        self.push_legal(m);
        Ok(())
    }

    /// Plays a move written in SAN (lenient, see [`crate::san`]) and returns it.
    ///
    /// # Errors
    ///
    /// [`GameError::San`]; the game is unchanged.
    pub fn push_san(&mut self, san: &str) -> Result<Move, GameError> {
        let m = San::from_ascii(san.as_bytes())
            .and_then(|parsed| parsed.to_move(self.position()))
            .map_err(|e| e.naming(san.as_bytes()))?;
        self.push_legal(m);
        Ok(m)
    }

    /// Plays a move written in long (UCI-style) form and returns it.
    ///
    /// # Errors
    ///
    /// [`GameError::Uci`]; the game is unchanged.
    pub fn push_uci(&mut self, uci: &str) -> Result<Move, GameError> {
        let m = UciMove::from_ascii(uci.as_bytes())
            .and_then(|parsed| parsed.to_move(self.position()))
            .map_err(|e| e.naming(uci.as_bytes()))?;
        self.push_legal(m);
        Ok(m)
    }

    /// Plays `m`, known to be legal in the current position.
    pub(crate) fn push_legal(&mut self, m: Move) {
        let mut pos = self.position().clone();
        pos.play_unchecked(m);
        let hash = pos.zobrist_hash();
        *self.counts.entry(hash).or_insert(0) += 1;
        self.moves.push(m);
        self.positions.push(pos);
        self.hashes.push(hash);
    }

    /// Takes back the last move, keeping the repetition counts exact.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        if let Some(hash) = self.hashes.pop() {
            if let Some(n) = self.counts.get_mut(&hash) {
                *n -= 1;
                if *n == 0 {
                    self.counts.remove(&hash);
                }
            }
        }
        Some(m)
    }

    /// The canonical SAN, with `+`/`#`, of the move of ply `ply` (0-based:
    /// the first move is ply 0).
    #[must_use]
    pub fn san(&self, ply: usize) -> Option<String> {
        let m = self.moves.get(ply)?;
        Some(San::write(&self.positions[ply], m))
    }

    /// The canonical SAN, with `+`/`#`, of every move.
    #[must_use]
    pub fn san_moves(&self) -> Vec<String> {
        self.moves
            .iter()
            .zip(&self.positions)
            .map(|(m, pos)| San::write(pos, m))
            .collect()
    }

    /// How many times the current position has occurred in this game,
    /// counting the current occurrence (R12 equality, via the Zobrist hash).
    #[must_use]
    pub fn repetition_count(&self) -> u32 {
        self.occurrences(self.hashes[self.hashes.len() - 1])
    }

    /// How many times the position with this Zobrist hash has occurred.
    #[must_use]
    pub fn occurrences(&self, hash: u64) -> u32 {
        self.counts.get(&hash).copied().unwrap_or(0)
    }

    /// Plies since the last capture, pawn move or pawn drop (R12).
    #[must_use]
    pub fn halfmove_clock(&self) -> u32 {
        self.position().halfmoves()
    }

    /// How the game has ended, judged on the current position and the
    /// history (see the module docs for the order of precedence).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.position().outcome() {
            return Some(outcome);
        }
        if self.repetition_count() < 3 {
            return None;
        }
        let termination = if self.is_perpetual_check() {
            Termination::PerpetualCheck
        } else {
            Termination::ThreefoldRepetition
        };
        Some(Outcome {
            termination,
            winner: None,
        })
    }

    /// Whether every move of one side, from the first occurrence of the
    /// current position up to now, gave check (R12).
    fn is_perpetual_check(&self) -> bool {
        let now = self.hashes.len() - 1;
        let hash = self.hashes[now];
        let first = self.hashes.iter().position(|&h| h == hash).unwrap_or(now);
        if first == now {
            return false;
        }
        // Ply `k` (the move from positions[k]) gave check iff positions[k+1]
        // has its side to move in check.
        let mut all_checks = [true, true];
        let mut any_move = [false, false];
        for k in first..now {
            let mover = usize::from(self.positions[k].turn() == Color::Black);
            any_move[mover] = true;
            if !self.positions[k + 1].is_check() {
                all_checks[mover] = false;
            }
        }
        (0..2).any(|side| any_move[side] && all_checks[side])
    }
}
