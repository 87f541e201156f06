//! Standard algebraic notation with the Hostage Chess forms.
//!
//! | move | written |
//! | --- | --- |
//! | airfield drop of a piece | `N*c7` |
//! | airfield drop of a pawn | `*c7` |
//! | exchange | `(B-N)N*c7`: released role, rescued role, then the drop |
//! | exchange rescuing a pawn | `(R-P)*c7` |
//! | promotion | `e8=Q`, `dxe8=N`: the role fetched from the prison |
//!
//! **Writing** is orthodox otherwise: minimal disambiguation among the legal
//! moves (file, else rank, else both), `x` for captures, `O-O`/`O-O-O`, and
//! `+`/`#` judged on the complete legal move list, drops and exchanges
//! included.
//!
//! **Reading** is lenient by default, where no ambiguity arises: `@` for
//! `*`, an explicit `P` (`P*c7`, `(R-P)P*c7`), the en dash `–` for `-`,
//! `0-0` and `O O`, a missing or extra `x`, any `+`/`#`/`mate` suffix, annotation
//! marks like `!?`, a promotion without `=`, and the inventor's
//! disambiguation style `N(b)d7`, and an exchange that lost its opening
//! parenthesis (`N-B)B*d6`, as in one of the inventor's records). [`San::from_ascii_strict`] with
//! [`San::to_move_strict`] accepts exactly the canonical form. An ambiguous
//! or illegal move is an error, never a guess.
//!
//! # Examples
//!
//! ```
//! use hostage_core::{san::San, Position};
//!
//! let pos = Position::new();
//! let m = San::from_ascii(b"Nf3")?.to_move(&pos)?;
//! assert_eq!(San::write(&pos, &m), "Nf3");
//! # Ok::<_, hostage_core::san::SanError>(())
//! ```

use alloc::{
    string::{String, ToString},
    vec::Vec,
};
use core::{fmt, fmt::Write as _};

use crate::{
    illegal::Because,
    uci::{UciError, UciMove},
    Bitboard, CastlingSide, Excerpt, File, IllegalReason, Move, MoveList, Position, Rank, Role,
    Square,
};

/// A move in SAN, parsed but not yet matched against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A board move other than castling.
    Normal {
        /// Role of the moving man.
        role: Role,
        /// File of the start square, if given.
        file: Option<File>,
        /// Rank of the start square, if given.
        rank: Option<Rank>,
        /// Whether `x` was written.
        capture: bool,
        /// Destination.
        to: Square,
        /// Promotion role, if given.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// An airfield drop.
    Drop {
        /// Role dropped.
        role: Role,
        /// Destination.
        to: Square,
    },
    /// An exchange.
    Exchange {
        /// Role released from the mover's prison.
        released: Role,
        /// Role rescued and dropped.
        rescued: Role,
        /// Destination.
        to: Square,
    },
}

/// Why a SAN move was rejected. The message names the text given and, for
/// a move that is illegal or ambiguous, the position's FEN.
///
/// # Examples
///
/// ```
/// use hostage_core::{san::San, Position};
///
/// let err = San::from_ascii(b"Qxd9").unwrap_err();
/// assert_eq!(err.to_string(), "invalid san: 'Qxd9' (at character 3)");
/// let err = San::from_ascii(b"Qh5")?.to_move(&Position::new()).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "illegal san: 'Qh5' in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1: \
///      another man is in the way"
/// );
/// assert_eq!(err.code(), "illegal_san");
/// assert_eq!(err.reason(), Some(hostage_core::IllegalReason::PathBlocked));
/// # Ok::<_, hostage_core::san::SanError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum SanError {
    /// The text is not SAN; `position` is the byte offset where reading failed.
    #[error("invalid san: {san} (at character {position})")]
    Syntax {
        /// Byte offset into the input.
        position: usize,
        /// The text given.
        san: Excerpt,
    },
    /// The move is well formed but no legal move matches it. The message
    /// ends with the reason's clause when there is one.
    #[error("illegal san: {san} in {fen}{}", Because(*.reason))]
    Illegal {
        /// The text given.
        san: Excerpt,
        /// The FEN of the position.
        fen: String,
        /// Why: the reason of the move, among those the text could mean,
        /// that got furthest through the rules (for example
        /// [`IllegalReason::LeavesKingInCheck`] for `Ke2` when the king
        /// could step there but would be in check,
        /// [`IllegalReason::NoOwnMan`] when no man of that role could make
        /// the move). `None` only if no reason could be found.
        reason: Option<IllegalReason>,
    },
    /// More than one legal move matches it.
    #[error("ambiguous san: {san} in {fen}")]
    Ambiguous {
        /// The text given.
        san: Excerpt,
        /// The FEN of the position.
        fen: String,
    },
}

impl SanError {
    /// The error's family: invalid, illegal or ambiguous move.
    #[must_use]
    pub const fn kind(&self) -> crate::ErrorKind {
        match self {
            SanError::Syntax { .. } => crate::ErrorKind::InvalidMove,
            SanError::Illegal { .. } => crate::ErrorKind::IllegalMove,
            SanError::Ambiguous { .. } => crate::ErrorKind::AmbiguousMove,
        }
    }

    /// `"invalid_san"`, `"illegal_san"` or `"ambiguous_san"`, shared with the bindings.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            SanError::Syntax { .. } => "invalid_san",
            SanError::Illegal { .. } => "illegal_san",
            SanError::Ambiguous { .. } => "ambiguous_san",
        }
    }

    /// Why the move is illegal, for [`SanError::Illegal`].
    #[must_use]
    pub const fn reason(&self) -> Option<IllegalReason> {
        match self {
            SanError::Illegal { reason, .. } => *reason,
            _ => None,
        }
    }

    /// The same error naming `text` as the SAN given (the parser names its
    /// normalized reading otherwise).
    #[must_use]
    pub(crate) fn naming(mut self, text: &[u8]) -> SanError {
        let (SanError::Syntax { san, .. }
        | SanError::Illegal { san, .. }
        | SanError::Ambiguous { san, .. }) = &mut self;
        *san = Excerpt::new(text);
        self
    }

    fn syntax(position: usize) -> SanError {
        SanError::Syntax {
            position,
            san: Excerpt::default(),
        }
    }
}

/// Longest SAN text read (the longest real move is `(Q-R)R*c7+`).
const MAX_LEN: usize = 64;

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn err(&self) -> SanError {
        SanError::syntax(self.i.min(self.s.len()))
    }
    fn square(&mut self) -> Result<Square, SanError> {
        let sq = self
            .s
            .get(self.i..self.i + 2)
            .and_then(|name| Square::from_ascii(name).ok())
            .ok_or_else(|| self.err())?;
        self.i += 2;
        Ok(sq)
    }
    fn piece_role(&mut self) -> Option<Role> {
        let role = match self.peek()? {
            b'N' => Role::Knight,
            b'B' => Role::Bishop,
            b'R' => Role::Rook,
            b'Q' => Role::Queen,
            b'K' => Role::King,
            b'P' => Role::Pawn,
            _ => return None,
        };
        self.i += 1;
        Some(role)
    }
    fn hostage_role(&mut self) -> Result<Role, SanError> {
        match self.piece_role() {
            Some(Role::King) | None => {
                self.i = self.i.saturating_sub(usize::from(
                    self.s.get(self.i.wrapping_sub(1)) == Some(&b'K'),
                ));
                Err(self.err())
            }
            Some(role) => Ok(role),
        }
    }
}

/// Cuts off check/mate marks and annotations; maps lenient spellings.
fn normalize(s: &[u8], strict: bool) -> Result<Vec<u8>, SanError> {
    if s.len() > MAX_LEN {
        return Err(SanError::syntax(MAX_LEN));
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        // The en dash U+2013 is E2 80 93 in UTF-8.
        if !strict && s[i..].starts_with(&[0xe2, 0x80, 0x93]) {
            out.push(b'-');
            i += 3;
            continue;
        }
        let c = s[i];
        if !c.is_ascii() || c.is_ascii_control() {
            return Err(SanError::syntax(i));
        }
        out.push(if !strict && c == b'@' { b'*' } else { c });
        i += 1;
    }
    if strict {
        if out.last() == Some(&b'+') || out.last() == Some(&b'#') {
            out.pop();
        }
        return Ok(out);
    }
    let mut trimmed = out.as_slice();
    loop {
        let before = trimmed.len();
        trimmed = trimmed.trim_ascii_end();
        if trimmed.ends_with(b"mate") {
            trimmed = &trimmed[..trimmed.len() - 4];
        }
        while let Some((&last, rest)) = trimmed.split_last() {
            if matches!(last, b'+' | b'#' | b'!' | b'?') {
                trimmed = rest;
            } else {
                break;
            }
        }
        if trimmed.len() == before {
            break;
        }
    }
    Ok(trimmed.trim_ascii_start().to_vec())
}

impl San {
    /// Parses SAN leniently (see the module docs).
    ///
    /// # Errors
    ///
    /// [`SanError::Syntax`] with the offset where reading failed.
    pub fn from_ascii(s: &[u8]) -> Result<San, SanError> {
        San::parse(s, false).map_err(|e| e.naming(s))
    }

    /// Parses SAN in the canonical form only (a trailing `+` or `#` allowed).
    ///
    /// # Errors
    ///
    /// [`SanError::Syntax`] with the offset where reading failed.
    pub fn from_ascii_strict(s: &[u8]) -> Result<San, SanError> {
        San::parse(s, true).map_err(|e| e.naming(s))
    }

    fn parse(s: &[u8], strict: bool) -> Result<San, SanError> {
        let text = normalize(s, strict)?;
        let mut r = Reader { s: &text, i: 0 };
        // Lenient: `0-0`, and the inventor's `O O` with spaces.
        let castle = |t: &[u8], o: u8| -> Option<CastlingSide> {
            let sep = |c: u8| c == b'-' || (!strict && c == b' ');
            match t {
                [a, s, b] if [*a, *b] == [o, o] && sep(*s) => Some(CastlingSide::KingSide),
                [a, s, b, u, c] if [*a, *b, *c] == [o, o, o] && sep(*s) && sep(*u) => {
                    Some(CastlingSide::QueenSide)
                }
                _ => None,
            }
        };
        if let Some(side) =
            castle(&text, b'O').or_else(|| if strict { None } else { castle(&text, b'0') })
        {
            return Ok(San::Castle(side));
        }
        // Lenient: a record that lost the exchange's opening parenthesis
        // (`N-B)B*d6`) is still unambiguous: no other move has `-` second.
        let open = r.eat(b'(') || (!strict && text.get(1) == Some(&b'-') && text.contains(&b')'));
        let san = if open {
            let released = r.hostage_role()?;
            if !r.eat(b'-') {
                return Err(r.err());
            }
            let rescued = r.hostage_role()?;
            if !r.eat(b')') {
                return Err(r.err());
            }
            if rescued == Role::Pawn {
                if !strict {
                    r.eat(b'P');
                }
            } else {
                let at = r.i;
                if r.piece_role() != Some(rescued) {
                    r.i = at;
                    return Err(r.err());
                }
            }
            if !r.eat(b'*') {
                return Err(r.err());
            }
            San::Exchange {
                released,
                rescued,
                to: r.square()?,
            }
        } else if text.contains(&b'*') {
            let role = match r.peek() {
                Some(b'*') => Role::Pawn,
                _ => match r.hostage_role()? {
                    Role::Pawn if strict => return Err(SanError::syntax(0)),
                    role => role,
                },
            };
            if !r.eat(b'*') {
                return Err(r.err());
            }
            San::Drop {
                role,
                to: r.square()?,
            }
        } else {
            San::parse_normal(&mut r, strict)?
        };
        if r.i != text.len() {
            return Err(r.err());
        }
        Ok(san)
    }

    fn parse_normal(r: &mut Reader<'_>, strict: bool) -> Result<San, SanError> {
        let role = match r.piece_role() {
            Some(Role::Pawn) if strict => return Err(SanError::syntax(0)),
            Some(role) => role,
            None => Role::Pawn,
        };
        let (mut file, mut rank) = (None, None);
        let mut capture = false;
        // Everything up to the destination: disambiguation, `x`, `(b)`.
        let paren = !strict && r.eat(b'(');
        loop {
            let rest = &r.s[r.i..];
            // The destination is the last square before an optional promotion.
            let is_destination = Square::from_ascii(rest.get(..2).unwrap_or(&[])).is_ok()
                && !matches!(
                    rest.get(2),
                    Some(b'a'..=b'h' | b'1'..=b'8' | b'x' | b'-' | b':')
                )
                && !paren;
            if is_destination {
                break;
            }
            match r.peek() {
                // Strict: file, then rank, then `x`.
                Some(c @ b'a'..=b'h')
                    if file.is_none() && !(strict && (capture || rank.is_some())) =>
                {
                    file = File::from_char(c as char);
                    r.i += 1;
                }
                Some(c @ b'1'..=b'8') if rank.is_none() && !(strict && capture) => {
                    rank = Rank::from_char(c as char);
                    r.i += 1;
                }
                Some(b')') if paren => {
                    r.i += 1;
                    let capture = r.eat(b'x') || capture;
                    return San::parse_normal_rest(r, role, file, rank, capture, strict);
                }
                Some(b'x') if !capture => {
                    capture = true;
                    r.i += 1;
                }
                Some(b':' | b'-') if !strict && !capture => {
                    capture = r.peek() == Some(b':');
                    r.i += 1;
                }
                _ => return Err(r.err()),
            }
        }
        San::parse_normal_rest(r, role, file, rank, capture, strict)
    }

    fn parse_normal_rest(
        r: &mut Reader<'_>,
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        strict: bool,
    ) -> Result<San, SanError> {
        let to = r.square()?;
        let promotion = if r.eat(b'=') || (!strict && r.peek().is_some()) {
            let paren = !strict && r.eat(b'(');
            let role = match r.piece_role() {
                Some(role) if Role::PROMOTION.contains(&role) => role,
                _ => {
                    r.i = r.i.min(r.s.len());
                    return Err(r.err());
                }
            };
            if paren && !r.eat(b')') {
                return Err(r.err());
            }
            Some(role)
        } else {
            None
        };
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }

    /// Whether `m` fits this SAN (lenient: the capture mark is not checked).
    #[must_use]
    pub fn matches(&self, m: &Move) -> bool {
        match (*self, *m) {
            (San::Castle(side), Move::Castle { .. }) => m.castling_side() == Some(side),
            (San::Drop { role, to }, Move::Drop { role: r, to: t }) => role == r && to == t,
            (
                San::Exchange {
                    released,
                    rescued,
                    to,
                },
                Move::Exchange {
                    released: x,
                    rescued: y,
                    to: t,
                },
            ) => released == x && rescued == y && to == t,
            (
                San::Normal {
                    role,
                    file,
                    rank,
                    to,
                    promotion,
                    ..
                },
                _,
            ) => {
                let Some(from) = m.from() else { return false };
                if m.kind() == crate::MoveKind::Castle {
                    return false;
                }
                // A pawn move without a file is a push ("e4" never means dxe4).
                let file = if role == Role::Pawn {
                    file.or(Some(to.file()))
                } else {
                    file
                };
                m.role() == role
                    && m.to() == to
                    && file.is_none_or(|f| from.file() == f)
                    && rank.is_none_or(|r| from.rank() == r)
                    && (promotion.is_none() || m.promotion() == promotion)
            }
            _ => false,
        }
    }

    /// Finds the one legal move this SAN names.
    ///
    /// # Errors
    ///
    /// [`SanError::Illegal`] if none matches, [`SanError::Ambiguous`] if
    /// several do (for example a promotion written without its role when
    /// the prison holds several).
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        let mut found = None;
        for m in candidates(pos, self) {
            if self.matches(&m) {
                if found.is_some() {
                    return Err(SanError::Ambiguous {
                        san: Excerpt::new(self.to_string().as_bytes()),
                        fen: pos.fen(),
                    });
                }
                found = Some(m);
            }
        }
        found.ok_or_else(|| SanError::Illegal {
            san: Excerpt::new(self.to_string().as_bytes()),
            fen: pos.fen(),
            reason: self.illegal_reason(pos),
        })
    }

    /// Why no legal move matches this SAN: of the moves it could mean (each
    /// man of its role on a matching square; each promotion the prison
    /// allows), the reason of the one that got furthest through the rules.
    fn illegal_reason(&self, pos: &Position) -> Option<IllegalReason> {
        let us = pos.turn();
        let meant: MoveList = match *self {
            San::Drop { role, to } => alloc::vec![Move::Drop { role, to }],
            San::Exchange {
                released,
                rescued,
                to,
            } => alloc::vec![Move::Exchange {
                released,
                rescued,
                to,
            }],
            San::Castle(side) => alloc::vec![Move::Castle {
                king: crate::king_home(us),
                rook: side.rook_square(us),
            }],
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => {
                let file = if role == Role::Pawn {
                    file.or(Some(to.file()))
                } else {
                    file
                };
                let board = pos.board();
                let last_rank = to.rank() == Rank::EIGHTH.relative_to(us);
                // A promotion left unnamed could be any the prison allows.
                let promotions: Vec<Option<Role>> = match promotion {
                    None if role == Role::Pawn && last_rank => {
                        let held: Vec<Option<Role>> = Role::PROMOTION
                            .into_iter()
                            .filter(|&r| pos.prison(!us).has(r))
                            .map(Some)
                            .collect();
                        if held.is_empty() {
                            alloc::vec![None]
                        } else {
                            held
                        }
                    }
                    p => alloc::vec![p],
                };
                let mut meant = MoveList::new();
                for from in board.by_piece(role.of(us)) {
                    if file.is_some_and(|f| from.file() != f)
                        || rank.is_some_and(|r| from.rank() != r)
                    {
                        continue;
                    }
                    for &promotion in &promotions {
                        meant.push(pos.board_move(role, from, to, promotion));
                    }
                }
                meant
            }
        };
        if meant.is_empty() {
            return Some(IllegalReason::NoOwnMan);
        }
        pos.best_illegal_reason(meant)
    }

    /// Like [`San::to_move`], and also requires the text to be the canonical
    /// SAN of the move (up to the `+`/`#` mark).
    ///
    /// # Errors
    ///
    /// As [`San::to_move`]; a non-canonical spelling is [`SanError::Syntax`].
    pub fn to_move_strict(&self, pos: &Position) -> Result<Move, SanError> {
        let m = self.to_move(pos)?;
        if San::from_move(pos, &m) == *self {
            Ok(m)
        } else {
            Err(SanError::syntax(0).naming(self.to_string().as_bytes()))
        }
    }

    /// The canonical SAN (without `+`/`#`) of a legal move.
    #[must_use]
    pub fn from_move(pos: &Position, m: &Move) -> San {
        match *m {
            Move::Castle { .. } => San::Castle(m.castling_side().unwrap_or(CastlingSide::KingSide)),
            Move::Drop { role, to } => San::Drop { role, to },
            Move::Exchange {
                released,
                rescued,
                to,
            } => San::Exchange {
                released,
                rescued,
                to,
            },
            Move::Normal {
                role: Role::Pawn, ..
            }
            | Move::EnPassant { .. } => {
                let from = m.from().unwrap_or(Square::A1);
                let capture = m.is_capture();
                San::Normal {
                    role: Role::Pawn,
                    file: capture.then(|| from.file()),
                    rank: None,
                    capture,
                    to: m.to(),
                    promotion: m.promotion(),
                }
            }
            Move::Normal {
                role,
                from,
                capture,
                to,
                ..
            } => {
                let (mut file, mut rank) = (None, None);
                if role != Role::King {
                    let same_role = pos.board().by_piece(role.of(pos.turn()));
                    let others: MoveList = pos
                        .legal_board_moves(same_role)
                        .into_iter()
                        .filter(|o| {
                            o.kind() == crate::MoveKind::Normal
                                && o.role() == role
                                && o.to() == to
                                && o.from() != Some(from)
                        })
                        .collect();
                    if !others.is_empty() {
                        if others
                            .iter()
                            .all(|o| o.from().map(Square::file) != Some(from.file()))
                        {
                            file = Some(from.file());
                        } else if others
                            .iter()
                            .all(|o| o.from().map(Square::rank) != Some(from.rank()))
                        {
                            rank = Some(from.rank());
                        } else {
                            file = Some(from.file());
                            rank = Some(from.rank());
                        }
                    }
                }
                San::Normal {
                    role,
                    file,
                    rank,
                    capture: capture.is_some(),
                    to,
                    promotion: None,
                }
            }
        }
    }

    /// The canonical SAN of a legal move, with `+` or `#`.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{san::San, Move, Position, Role, Square};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")?;
    /// let drop = Move::Drop { role: Role::Queen, to: Square::E7 };
    /// assert_eq!(San::write(&pos, &drop), "Q*e7+");
    /// # Ok::<_, hostage_core::fen::FenError>(())
    /// ```
    #[must_use]
    pub fn write(pos: &Position, m: &Move) -> String {
        let mut s = String::new();
        let _ = write!(s, "{}", San::from_move(pos, m));
        let mut after = pos.clone();
        after.play_unchecked(*m);
        if after.is_checkmate() {
            s.push('#');
        } else if after.is_check() {
            s.push('+');
        }
        s
    }

    /// The canonical SAN (with `+` or `#`) of each move of a line played
    /// from `pos`, such as an engine's principal variation. The line stops
    /// before the first move that is not legal where it stands.
    ///
    /// ```
    /// use hostage_core::{san::San, Position};
    ///
    /// let pos = Position::new();
    /// let mut at = pos.clone();
    /// let mut moves = Vec::new();
    /// for text in ["e2e4", "d7d5", "e4d5", "d8d5"] {
    ///     let m = at.parse_uci(text)?;
    ///     at.play_unchecked(m);
    ///     moves.push(m);
    /// }
    /// assert_eq!(San::write_line(&pos, &moves), ["e4", "d5", "exd5", "Qxd5"]);
    /// // An illegal move ends the line.
    /// assert_eq!(San::write_line(&pos, &moves[1..]), Vec::<String>::new());
    /// # Ok::<_, hostage_core::uci::UciError>(())
    /// ```
    #[must_use]
    pub fn write_line(pos: &Position, moves: &[Move]) -> Vec<String> {
        let mut at = pos.clone();
        let mut line = Vec::with_capacity(moves.len());
        for m in moves {
            if !at.is_legal(m) {
                break;
            }
            line.push(San::write(&at, m));
            at.play_unchecked(*m);
        }
        line
    }
}

/// The legal moves worth matching against `san`: those of the men of its
/// role, or the one drop or exchange it names.
fn candidates(pos: &Position, san: &San) -> MoveList {
    match *san {
        San::Drop { role, to } => {
            let m = Move::Drop { role, to };
            if pos.is_legal(&m) {
                alloc::vec![m]
            } else {
                MoveList::new()
            }
        }
        San::Exchange {
            released,
            rescued,
            to,
        } => {
            let m = Move::Exchange {
                released,
                rescued,
                to,
            };
            if pos.is_legal(&m) {
                alloc::vec![m]
            } else {
                MoveList::new()
            }
        }
        San::Castle(_) => pos.legal_board_moves(Bitboard::from_square(pos.king_of(pos.turn()))),
        San::Normal { role, .. } => {
            pos.legal_board_moves(pos.board().by_piece(role.of(pos.turn())))
        }
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Castle(CastlingSide::KingSide) => f.write_str("O-O"),
            San::Castle(CastlingSide::QueenSide) => f.write_str("O-O-O"),
            San::Drop {
                role: Role::Pawn,
                to,
            } => write!(f, "*{to}"),
            San::Drop { role, to } => write!(f, "{}*{to}", role.upper_char()),
            San::Exchange {
                released,
                rescued,
                to,
            } => {
                write!(f, "({}-{})", released.upper_char(), rescued.upper_char())?;
                if rescued != Role::Pawn {
                    write!(f, "{}", rescued.upper_char())?;
                }
                write!(f, "*{to}")
            }
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = file {
                    write!(f, "{file}")?;
                }
                if let Some(rank) = rank {
                    write!(f, "{rank}")?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

impl core::str::FromStr for San {
    type Err = SanError;
    fn from_str(s: &str) -> Result<San, SanError> {
        San::from_ascii(s.as_bytes())
    }
}

impl Position {
    /// The legal move named by the SAN `text` (lenient reading); the error
    /// names `text` as given.
    ///
    /// # Errors
    ///
    /// [`SanError`]: syntax, illegal or ambiguous.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Position;
    ///
    /// let pos = Position::new();
    /// assert_eq!(pos.parse_san("Ng1-f3")?, pos.parse_san("Nf3")?);
    /// let err = pos.parse_san("Q-h5").unwrap_err();
    /// assert!(err.to_string().starts_with("illegal san: 'Q-h5' in rnbqkbnr/"));
    /// # Ok::<_, hostage_core::san::SanError>(())
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        San::from_ascii(text.as_bytes())
            .and_then(|san| san.to_move(self))
            .map_err(|e| e.naming(text.as_bytes()))
    }

    /// Finds the legal move named by `text`, given in SAN (lenient) or in
    /// long form, in that order of preference: what command lines and
    /// scripts want.
    ///
    /// # Errors
    ///
    /// [`ParseMoveError::Uci`] when the text is long form (it parses as
    /// such) but names no legal move, otherwise [`ParseMoveError::San`]
    /// (syntax, illegal or ambiguous SAN).
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Position;
    ///
    /// let pos = Position::new();
    /// assert_eq!(pos.parse_move("Nf3"), pos.parse_move("g1f3"));
    /// assert_eq!(pos.parse_move("e2e5").map_err(|e| e.code()), Err("illegal_uci"));
    /// assert_eq!(pos.parse_move("Nf4").map_err(|e| e.code()), Err("illegal_san"));
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let san_error = match San::from_ascii(text.as_bytes()).and_then(|san| san.to_move(self)) {
            Ok(m) => return Ok(m),
            Err(e) => e.naming(text.as_bytes()),
        };
        if let SanError::Ambiguous { .. } = san_error {
            return Err(ParseMoveError::San(san_error));
        }
        match UciMove::from_ascii(text.trim().as_bytes()) {
            Ok(uci) => uci
                .to_move(self)
                .map_err(|e| ParseMoveError::Uci(e.naming(text.as_bytes()))),
            Err(_) => Err(ParseMoveError::San(san_error)),
        }
    }
}

/// Why [`Position::parse_move`] found no legal move in a text: the SAN
/// reading's error, or the long form's when the text is long form.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// The SAN reading failed (syntax, illegal or ambiguous).
    #[error(transparent)]
    San(#[from] SanError),
    /// The text is long form but names no legal move.
    #[error(transparent)]
    Uci(#[from] UciError),
}

impl ParseMoveError {
    /// The error's family: that of the SAN or long-form error.
    #[must_use]
    pub const fn kind(&self) -> crate::ErrorKind {
        match self {
            ParseMoveError::San(e) => e.kind(),
            ParseMoveError::Uci(e) => e.kind(),
        }
    }

    /// Why the move is illegal, when the SAN or long-form error says.
    #[must_use]
    pub const fn reason(&self) -> Option<IllegalReason> {
        match self {
            ParseMoveError::San(e) => e.reason(),
            ParseMoveError::Uci(e) => e.reason(),
        }
    }

    /// The code of the SAN or long-form error (`"illegal_san"`,
    /// `"invalid_san"`, `"ambiguous_san"`, `"illegal_uci"`, `"invalid_uci"`).
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            ParseMoveError::San(e) => e.code(),
            ParseMoveError::Uci(e) => e.code(),
        }
    }
}
