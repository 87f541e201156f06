//! Hostage FEN: parsing and writing positions as text.
//!
//! ```text
//! <placement>[<airfields>#<prisons>] <turn> <castling> <en passant> <halfmove> <fullmove>
//! ```
//!
//! Inside the brackets a letter's case is the man's colour. Before `#` are
//! the airfields (uppercase: White's airfield), after it the prisons
//! (uppercase: white men, held in *Black's* prison).
//!
//! **Accepted**: letters in any order inside the brackets; no bracket at
//! all (empty prisons and airfields); a bracket without `#`; missing trailing
//! fields (turn `w`, castling `-`, en passant `-`, clocks `0 1`); `E`/`e`
//! beside `K`/`Q`; fullmove number `0` (read as 1).
//!
//! **Written**: one canonical form: uppercase group then lowercase group,
//! each in the order Q R B N P; `#` and the prisons only when a prison is
//! not empty; `[]` when all four are empty; `E`/`e` for a never-moved king
//! with no unmoved rook; the en-passant square only when an en-passant
//! capture is legal.
//!
//! # Examples
//!
//! ```
//! use hostage_core::{fen::Fen, Position};
//!
//! let fen = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3";
//! let pos = Position::from_fen(fen)?;
//! assert_eq!(pos.prison(hostage_core::Color::White).count(hostage_core::Role::Pawn), 1);
//! assert_eq!(Fen::from_position(&pos).to_string(), fen);
//! # Ok::<_, hostage_core::fen::FenError>(())
//! ```

use alloc::string::{String, ToString};
use core::{fmt, num::NonZeroU32, str::FromStr};

use crate::{
    mv::king_home, Board, CastlingSide, Color, Excerpt, Piece, Position, PositionError, Rank,
    Reserve, Role, Setup, Square,
};

/// A FEN field that could not be read: the kind of [`FenError::Parse`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseFenError {
    /// Empty input, or more fields than a FEN has.
    #[error("invalid fen: empty or too many fields")]
    InvalidFen,
    /// The piece placement (ranks, files, letters) is malformed.
    #[error("invalid piece placement in fen (field 1)")]
    InvalidBoard,
    /// The bracket with the airfields and prisons is malformed.
    #[error("invalid airfields/prisons bracket in fen (field 1, inside [...])")]
    InvalidReserves,
    /// The side to move is not `w` or `b`.
    #[error("invalid side to move in fen (field 2)")]
    InvalidTurn,
    /// The castling field is not `-` or letters from `KQEkqe`, each once.
    #[error("invalid castling field in fen (field 3)")]
    InvalidCastling,
    /// The en-passant field is not `-` or a square on rank 3 or 6.
    #[error("invalid en-passant square in fen (field 4)")]
    InvalidEpSquare,
    /// The halfmove clock is not a number.
    #[error("invalid halfmove clock in fen (field 5)")]
    InvalidHalfmoveClock,
    /// The fullmove number is not a number.
    #[error("invalid fullmove number in fen (field 6)")]
    InvalidFullmoves,
}

impl ParseFenError {
    /// A stable identifier, shared with the Python and JavaScript bindings.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            ParseFenError::InvalidFen => "invalid_fen",
            ParseFenError::InvalidBoard => "invalid_board",
            ParseFenError::InvalidReserves => "invalid_reserves",
            ParseFenError::InvalidTurn => "invalid_turn",
            ParseFenError::InvalidCastling => "invalid_castling_field",
            ParseFenError::InvalidEpSquare => "invalid_ep_field",
            ParseFenError::InvalidHalfmoveClock => "invalid_halfmove_clock",
            ParseFenError::InvalidFullmoves => "invalid_fullmoves",
        }
    }
}

/// A FEN that could not be read, or that reads as an illegal position;
/// either way the message names the FEN (shortened if long, see
/// [`Excerpt`]).
///
/// # Examples
///
/// ```
/// use hostage_core::{fen::FenError, Position};
///
/// let err = Position::from_fen("8/8/8/8/8/8/8/8[] w - - 0 1").unwrap_err();
/// assert_eq!(err.code(), "missing_king");
/// assert_eq!(err.to_string(), "illegal position: a side has no king: '8/8/8/8/8/8/8/8[] w - - 0 1'");
/// let err = Position::from_fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w").unwrap_err();
/// assert!(matches!(err, FenError::Parse { .. }));
/// assert_eq!(
///     err.to_string(),
///     "invalid piece placement in fen (field 1): 'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w'"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum FenError {
    /// The text is malformed.
    #[error("{error}: {fen}")]
    Parse {
        /// What is wrong with it.
        error: ParseFenError,
        /// The text given.
        fen: Excerpt,
    },
    /// The text is well formed but the position is not legal.
    #[error("illegal position: {error}: {fen}")]
    Position {
        /// Why the position is not legal.
        error: PositionError,
        /// The text given (or, from [`Fen::into_position`], the FEN written).
        fen: Excerpt,
    },
}

impl FenError {
    /// The error's family: [`ErrorKind::InvalidFen`](crate::ErrorKind::InvalidFen) for malformed text,
    /// [`ErrorKind::InvalidPosition`](crate::ErrorKind::InvalidPosition) for a position the rules forbid.
    #[must_use]
    pub const fn kind(&self) -> crate::ErrorKind {
        match self {
            FenError::Parse { .. } => crate::ErrorKind::InvalidFen,
            FenError::Position { .. } => crate::ErrorKind::InvalidPosition,
        }
    }

    /// The code of the underlying error.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            FenError::Parse { error, .. } => error.code(),
            FenError::Position { error, .. } => error.code(),
        }
    }

    /// The FEN the error is about, shortened if long.
    #[must_use]
    pub const fn fen(&self) -> &Excerpt {
        match self {
            FenError::Parse { fen, .. } | FenError::Position { fen, .. } => fen,
        }
    }
}

/// A parsed Hostage FEN: a [`Setup`] that can be written back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fen(pub Setup);

impl Fen {
    /// Parses a Hostage FEN (see the module docs for what is accepted).
    ///
    /// # Errors
    ///
    /// [`FenError::Parse`] with the [`ParseFenError`] of the first malformed
    /// field, naming the text.
    pub fn from_ascii(fen: &[u8]) -> Result<Fen, FenError> {
        Fen::parse(fen).map_err(|error| FenError::Parse {
            error,
            fen: Excerpt::new(fen),
        })
    }

    fn parse(fen: &[u8]) -> Result<Fen, ParseFenError> {
        let mut fields = fen
            .split(|c| c.is_ascii_whitespace())
            .filter(|f| !f.is_empty());
        let mut setup = Setup::empty();
        let placement = fields.next().ok_or(ParseFenError::InvalidFen)?;
        let (board_part, reserves_part) = match placement.iter().position(|&c| c == b'[') {
            Some(open) => {
                if placement.last() != Some(&b']') || open + 1 > placement.len() - 1 {
                    return Err(ParseFenError::InvalidReserves);
                }
                (
                    &placement[..open],
                    Some(&placement[open + 1..placement.len() - 1]),
                )
            }
            None => (placement, None),
        };
        setup.board = parse_board(board_part)?;
        if let Some(reserves) = reserves_part {
            parse_reserves(reserves, &mut setup)?;
        }
        if let Some(turn) = fields.next() {
            setup.turn = match turn {
                b"w" | b"W" => Color::White,
                b"b" | b"B" => Color::Black,
                _ => return Err(ParseFenError::InvalidTurn),
            };
        }
        if let Some(castling) = fields.next() {
            setup.unmoved = parse_castling(castling)?;
        }
        if let Some(ep) = fields.next() {
            if ep != b"-" {
                let sq = Square::from_ascii(ep).map_err(|_| ParseFenError::InvalidEpSquare)?;
                if sq.rank() != Rank::THIRD && sq.rank() != Rank::SIXTH {
                    return Err(ParseFenError::InvalidEpSquare);
                }
                setup.ep_square = Some(sq);
            }
        }
        if let Some(half) = fields.next() {
            setup.halfmoves = parse_number(half).ok_or(ParseFenError::InvalidHalfmoveClock)?;
        }
        if let Some(full) = fields.next() {
            let n = parse_number(full).ok_or(ParseFenError::InvalidFullmoves)?;
            setup.fullmoves = NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        }
        if fields.next().is_some() {
            return Err(ParseFenError::InvalidFen);
        }
        Ok(Fen(setup))
    }

    /// The FEN of a position.
    #[must_use]
    pub fn from_position(pos: &Position) -> Fen {
        Fen(pos.to_setup())
    }

    /// The setup.
    #[must_use]
    pub fn into_setup(self) -> Setup {
        self.0
    }

    /// Validates the setup.
    ///
    /// # Errors
    ///
    /// [`FenError::Position`] if the position is not legal, naming this FEN.
    pub fn into_position(self) -> Result<Position, FenError> {
        let fen = self.to_string();
        Position::from_setup(self.0).map_err(|error| FenError::Position {
            error,
            fen: Excerpt::new(fen.as_bytes()),
        })
    }
}

fn parse_number(s: &[u8]) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(s.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')))
}

fn parse_board(s: &[u8]) -> Result<Board, ParseFenError> {
    let mut board = Board::empty();
    let mut rank = 7i32;
    let mut file = 0u32;
    let mut prev_digit = false;
    for &c in s {
        match c {
            b'/' => {
                if file != 8 || rank == 0 {
                    return Err(ParseFenError::InvalidBoard);
                }
                rank -= 1;
                file = 0;
                prev_digit = false;
            }
            b'1'..=b'8' => {
                if prev_digit {
                    return Err(ParseFenError::InvalidBoard);
                }
                file += u32::from(c - b'0');
                if file > 8 {
                    return Err(ParseFenError::InvalidBoard);
                }
                prev_digit = true;
            }
            _ => {
                let piece = Piece::from_char(c as char).ok_or(ParseFenError::InvalidBoard)?;
                if file >= 8 {
                    return Err(ParseFenError::InvalidBoard);
                }
                board.set_piece_at(Square::new_unchecked(rank as u32 * 8 + file), piece);
                file += 1;
                prev_digit = false;
            }
        }
    }
    if rank != 0 || file != 8 {
        return Err(ParseFenError::InvalidBoard);
    }
    Ok(board)
}

fn parse_reserves(s: &[u8], setup: &mut Setup) -> Result<(), ParseFenError> {
    let mut in_prisons = false;
    for &c in s {
        if c == b'#' {
            if in_prisons {
                return Err(ParseFenError::InvalidReserves);
            }
            in_prisons = true;
            continue;
        }
        let piece = Piece::from_char(c as char).ok_or(ParseFenError::InvalidReserves)?;
        let reserve = if in_prisons {
            // A white man is held in Black's prison.
            setup.prisons.get_mut(!piece.color)
        } else {
            setup.airfields.get_mut(piece.color)
        };
        if reserve.count(piece.role) >= 16 {
            return Err(ParseFenError::InvalidReserves);
        }
        reserve.add(piece.role);
    }
    Ok(())
}

fn parse_castling(s: &[u8]) -> Result<crate::Bitboard, ParseFenError> {
    let mut unmoved = crate::Bitboard::EMPTY;
    if s == b"-" {
        return Ok(unmoved);
    }
    let mut seen = [false; 6];
    for &c in s {
        let (i, color, side) = match c {
            b'K' => (0, Color::White, Some(CastlingSide::KingSide)),
            b'Q' => (1, Color::White, Some(CastlingSide::QueenSide)),
            b'E' => (2, Color::White, None),
            b'k' => (3, Color::Black, Some(CastlingSide::KingSide)),
            b'q' => (4, Color::Black, Some(CastlingSide::QueenSide)),
            b'e' => (5, Color::Black, None),
            _ => return Err(ParseFenError::InvalidCastling),
        };
        if seen[i] {
            return Err(ParseFenError::InvalidCastling);
        }
        seen[i] = true;
        unmoved.add(king_home(color));
        if let Some(side) = side {
            unmoved.add(side.rook_square(color));
        }
    }
    Ok(unmoved)
}

fn write_reserve(f: &mut fmt::Formatter<'_>, reserve: &Reserve, color: Color) -> fmt::Result {
    for role in Role::HOSTAGES.into_iter().chain([Role::King]) {
        for _ in 0..reserve.count(role) {
            write!(f, "{}", role.of(color).char())?;
        }
    }
    Ok(())
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let setup = &self.0;
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match setup.board.piece_at(Square::new_unchecked(rank * 8 + file)) {
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", piece.char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        f.write_str("[")?;
        write_reserve(f, setup.airfield(Color::White), Color::White)?;
        write_reserve(f, setup.airfield(Color::Black), Color::Black)?;
        if !setup.prison(Color::White).is_empty() || !setup.prison(Color::Black).is_empty() {
            f.write_str("#")?;
            // White men first: they are in Black's prison.
            write_reserve(f, setup.prison(Color::Black), Color::White)?;
            write_reserve(f, setup.prison(Color::White), Color::Black)?;
        }
        write!(f, "] {} ", setup.turn.char())?;
        let unmoved = setup.normalized_unmoved();
        let mut any = false;
        for color in Color::ALL {
            if !unmoved.contains(king_home(color)) {
                continue;
            }
            let mut right = false;
            for (side, ch) in [
                (CastlingSide::KingSide, 'K'),
                (CastlingSide::QueenSide, 'Q'),
            ] {
                if unmoved.contains(side.rook_square(color)) {
                    let ch = if color.is_white() {
                        ch
                    } else {
                        ch.to_ascii_lowercase()
                    };
                    write!(f, "{ch}")?;
                    right = true;
                }
            }
            if !right {
                f.write_str(if color.is_white() { "E" } else { "e" })?;
            }
            any = true;
        }
        if !any {
            f.write_str("-")?;
        }
        match setup.ep_square {
            Some(sq) => write!(f, " {sq}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", setup.halfmoves, setup.fullmoves)
    }
}

impl FromStr for Fen {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Fen, FenError> {
        Fen::from_ascii(s.as_bytes())
    }
}

impl Position {
    /// Parses a Hostage FEN and validates the position.
    ///
    /// # Errors
    ///
    /// [`FenError::Parse`] for malformed text, [`FenError::Position`] for an
    /// illegal position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let setup = Fen::from_ascii(fen.as_bytes())?.into_setup();
        Position::from_setup(setup).map_err(|error| FenError::Position {
            error,
            fen: Excerpt::new(fen.as_bytes()),
        })
    }

    /// The canonical Hostage FEN.
    #[must_use]
    pub fn fen(&self) -> String {
        Fen::from_position(self).to_string()
    }
}

impl Position {
    /// This position changed by `edit` (men set or removed, reserves
    /// refilled, ...), validated again: what a board editor does on a legal
    /// position. Castling state and an en-passant square that the edit made
    /// impossible are dropped ([`Setup::clean_castling_rights`]).
    ///
    /// # Errors
    ///
    /// [`FenError::Position`] naming the edited FEN when the
    /// result is not a legal position.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{Piece, Position, Role, Color, Square};
    ///
    /// let pos = Position::new();
    /// let queenless = pos.edited(|s| { s.board.remove_piece_at(Square::D8); })?;
    /// assert_eq!(queenless.board_fen(), "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    /// let err = pos.edited(|s| s.board.set_piece_at(Square::E4, Piece { color: Color::White, role: Role::King }));
    /// assert_eq!(err.map_err(|e| e.code()), Err("too_many_kings"));
    /// # Ok::<_, hostage_core::fen::FenError>(())
    /// ```
    pub fn edited(&self, edit: impl FnOnce(&mut Setup)) -> Result<Position, FenError> {
        let mut setup = self.to_setup();
        edit(&mut setup);
        // What the edit made impossible is dropped, not reported: a right
        // whose rook was removed, an en-passant square whose pawn was.
        setup.clean_castling_rights();
        if setup.validate() == Err(crate::PositionError::InvalidEpSquare) {
            setup.ep_square = None;
        }
        Fen(setup).into_position()
    }
}
