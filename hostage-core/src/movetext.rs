//! Move text: a list of moves replayed into a [`Game`], the one way every
//! tool of the workspace (command line, UCI, server, puzzles, bindings)
//! turns text into a game, so a bad move reads the same everywhere.
//!
//! Two readings:
//!
//! - **Lenient** ([`Game::from_move_text`], [`Game::push_move_text`]): the
//!   text is read by the PGN lexer, so whatever a PGN's movetext accepts is
//!   accepted here: SAN (lenient, see [`crate::san`]) or the long form per
//!   move, move numbers (`1.`, `1...`, the inventor's bare `1`, glued
//!   `1.e4`), the inventor's spaced castling `O O` and `O O O`, annotation
//!   marks and NAGs, comments, and one result (`1-0`, `0-1`, `1/2-1/2`, `*`)
//!   at the end. Tags and variations are refused: a move list has one line.
//! - **Strict** ([`Game::from_moves`]): each item is exactly one move, SAN
//!   or long form, with nothing around it.
//!
//! Either is all or nothing: on error nothing is played, and the
//! [`MoveTextError`] names the move's place in the list (1-based, counting
//! moves only), its text (shortened, see [`Excerpt`]), the side and move
//! number, and the FEN of the position where it failed.
//!
//! [`San::write_and_play`] is the other direction: it writes a move's SAN
//! and plays it, as a line of analysis is printed.
//!
//! # Examples
//!
//! ```
//! use hostage_core::{game::Game, Position};
//!
//! let game = Game::from_move_text(Position::new(), "1. e4 d5 2.exd5 Qxd5 *")?;
//! assert_eq!(game.san_moves(), ["e4", "d5", "exd5", "Qxd5"]);
//!
//! let err = Game::from_moves(Position::new(), ["e4", "e5", "Ke3"]).unwrap_err();
//! assert_eq!(err.ply(), 3);
//! assert_eq!(err.code(), "illegal_san");
//! assert!(err.to_string().starts_with("cannot play move 3 'Ke3' (white's move 2): illegal san"));
//! # Ok::<_, hostage_core::MoveTextError>(())
//! ```

use alloc::string::{String, ToString};

use crate::{
    game::Game,
    pgn::{
        lexer::{is_move_number, is_move_suffix, mark_nag, Lexer, StrSource, Token},
        Limits, PgnResult,
    },
    san::{ParseMoveError, San},
    Color, Excerpt, Move, Position,
};

/// Why a move list could not be replayed. Nothing was played.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum MoveTextError {
    /// A move could not be read or is not legal where it stands.
    #[error("cannot play move {ply} {text} ({}'s move {fullmove}): {error}", turn.name())]
    Move {
        /// Its place in the list, from 1 (moves only, not move numbers).
        ply: usize,
        /// The move as written.
        text: Excerpt,
        /// The side whose move it was.
        turn: Color,
        /// The full-move number of the position.
        fullmove: u32,
        /// The FEN of the position where it failed.
        fen: String,
        /// The SAN or long-form error (which names the FEN too).
        error: ParseMoveError,
    },
    /// The text is not a move list: a tag, a variation, something after the
    /// result, or what the PGN lexer refuses.
    #[error("invalid move text after move {}: {what} {text}", .ply - 1)]
    Syntax {
        /// The place in the list of the next move, from 1.
        ply: usize,
        /// What is wrong.
        what: &'static str,
        /// The offending text.
        text: Excerpt,
        /// The FEN of the position reached before it.
        fen: String,
    },
}

impl MoveTextError {
    /// The error's family: that of the failing move's own error, or
    /// [`ErrorKind::InvalidMove`](crate::ErrorKind::InvalidMove) for text
    /// that is not a move list.
    #[must_use]
    pub const fn kind(&self) -> crate::ErrorKind {
        match self {
            MoveTextError::Move { error, .. } => error.kind(),
            MoveTextError::Syntax { .. } => crate::ErrorKind::InvalidMove,
        }
    }

    /// The move error's code (`"illegal_san"`, `"invalid_san"`,
    /// `"ambiguous_san"`, `"illegal_uci"`, `"invalid_uci"`), or
    /// `"invalid_move_text"`, shared with the bindings.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            MoveTextError::Move { error, .. } => error.code(),
            MoveTextError::Syntax { .. } => "invalid_move_text",
        }
    }

    /// Why the failing move is illegal, when it is (see
    /// [`crate::IllegalReason`]).
    #[must_use]
    pub const fn reason(&self) -> Option<crate::IllegalReason> {
        match self {
            MoveTextError::Move { error, .. } => error.reason(),
            MoveTextError::Syntax { .. } => None,
        }
    }

    /// The place in the list (from 1) of the move that failed, or of the
    /// next move for a syntax error.
    #[must_use]
    pub const fn ply(&self) -> usize {
        match self {
            MoveTextError::Move { ply, .. } | MoveTextError::Syntax { ply, .. } => *ply,
        }
    }

    /// The offending text, shortened.
    #[must_use]
    pub const fn text(&self) -> &Excerpt {
        match self {
            MoveTextError::Move { text, .. } | MoveTextError::Syntax { text, .. } => text,
        }
    }

    /// The FEN of the position where replaying stopped.
    #[must_use]
    pub fn fen(&self) -> &str {
        match self {
            MoveTextError::Move { fen, .. } | MoveTextError::Syntax { fen, .. } => fen,
        }
    }

    fn syntax(game: &Game, base: usize, what: &'static str, text: &str) -> MoveTextError {
        MoveTextError::Syntax {
            ply: base + 1,
            what,
            text: Excerpt::new(text.as_bytes()),
            fen: game.position().fen(),
        }
    }
}

impl Game {
    /// The game of `text` (lenient, see the [module docs](crate::movetext))
    /// played from `start`.
    ///
    /// # Errors
    ///
    /// [`MoveTextError`] naming the first move that fails.
    pub fn from_move_text(start: Position, text: &str) -> Result<Game, MoveTextError> {
        let mut game = Game::from_position(start);
        game.push_move_text(text)?;
        Ok(game)
    }

    /// The game of `moves`, one move per item (SAN or long form), played
    /// from `start`.
    ///
    /// # Errors
    ///
    /// [`MoveTextError::Move`] naming the first move that fails.
    pub fn from_moves<I, S>(start: Position, moves: I) -> Result<Game, MoveTextError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut game = Game::from_position(start);
        for (index, text) in moves.into_iter().enumerate() {
            game.push_text_at(text.as_ref(), index + 1)?;
        }
        Ok(game)
    }

    /// Plays the moves of `text` (lenient, see the
    /// [module docs](crate::movetext)) and returns how many were played. A
    /// result token ends the list. Errors count plies from 1 at the first
    /// move of `text`.
    ///
    /// # Errors
    ///
    /// [`MoveTextError`] naming the first move that fails; the game is then
    /// unchanged.
    pub fn push_move_text(&mut self, text: &str) -> Result<usize, MoveTextError> {
        let before = self.ply();
        let result = self.replay_lenient(text);
        if result.is_err() {
            while self.ply() > before {
                self.pop();
            }
        }
        result.map(|()| self.ply() - before)
    }

    fn replay_lenient(&mut self, text: &str) -> Result<(), MoveTextError> {
        let base = self.ply();
        let src = StrSource {
            bytes: text.as_bytes(),
            at: 0,
        };
        let mut lexer = Lexer::new(src, Limits::default());
        // Spaced castling: `O O` or `O O O` as separate symbols.
        let mut castle = 0usize;
        let mut ended = false;
        loop {
            let token = match lexer.next_token() {
                Ok((token, _)) => token,
                Err(at) => {
                    let what = at.kind.to_string();
                    return Err(MoveTextError::Syntax {
                        ply: self.ply() - base + 1,
                        what: "unreadable text",
                        text: Excerpt::new(what.as_bytes()),
                        fen: self.position().fen(),
                    });
                }
            };
            if castle > 0 {
                match &token {
                    Token::Symbol(s) if s == "O" => {}
                    // `O O+`: the last `O` carries the check mark.
                    Token::Symbol(s) if s.starts_with('O') => {
                        let joined = "O-".repeat(castle) + s;
                        self.push_text_at(&joined, self.ply() - base + 1)?;
                        castle = 0;
                        continue;
                    }
                    _ => {
                        let text = if castle == 2 { "O-O" } else { "O" };
                        self.push_text_at(text, self.ply() - base + 1)?;
                        castle = 0;
                    }
                }
            }
            let symbol = match token {
                Token::Eof => return Ok(()),
                Token::Comment(_) | Token::Nag(_) => continue,
                Token::Tag { name, .. } => {
                    return Err(MoveTextError::syntax(
                        self,
                        self.ply() - base,
                        "a tag",
                        &name,
                    ))
                }
                Token::Open | Token::Close => {
                    return Err(MoveTextError::syntax(
                        self,
                        self.ply() - base,
                        "a variation",
                        "(",
                    ))
                }
                Token::Symbol(s) => s,
            };
            if ended {
                return Err(MoveTextError::syntax(
                    self,
                    self.ply() - base,
                    "text after the result",
                    &symbol,
                ));
            }
            if PgnResult::from_token(&symbol).is_some() {
                ended = true;
                continue;
            }
            if is_move_number(&symbol) || is_move_suffix(&symbol) || mark_nag(&symbol).is_some() {
                continue;
            }
            if symbol == "O" {
                castle += 1;
                if castle == 3 {
                    self.push_text_at("O-O-O", self.ply() - base + 1)?;
                    castle = 0;
                }
                continue;
            }
            // Marks glued to the move (`e4!?`) annotate it.
            let trimmed = symbol.trim_end_matches(['!', '?']);
            let trimmed = if trimmed.is_empty() { &symbol } else { trimmed };
            self.push_text_at(trimmed, self.ply() - base + 1)?;
        }
    }

    /// Plays one move of a list, `ply` its place in that list.
    fn push_text_at(&mut self, text: &str, ply: usize) -> Result<Move, MoveTextError> {
        let pos = self.position();
        match pos.parse_move(text) {
            Ok(m) => {
                self.push_legal(m);
                Ok(m)
            }
            Err(error) => Err(MoveTextError::Move {
                ply,
                text: Excerpt::new(text.as_bytes()),
                turn: pos.turn(),
                fullmove: pos.fullmoves().get(),
                fen: pos.fen(),
                error,
            }),
        }
    }
}

impl San {
    /// The canonical SAN (with `+`/`#`) of `m`, which must be legal in
    /// `pos`, after playing it there: how a line of analysis is written.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{san::San, Position};
    ///
    /// let mut pos = Position::new();
    /// let m = pos.parse_move("g1f3")?;
    /// assert_eq!(San::write_and_play(&mut pos, m), "Nf3");
    /// assert_eq!(pos.turn(), hostage_core::Color::Black);
    /// # Ok::<_, hostage_core::san::ParseMoveError>(())
    /// ```
    pub fn write_and_play(pos: &mut Position, m: Move) -> String {
        let san = San::write(pos, &m);
        pos.play_unchecked(m);
        san
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn sans(text: &str) -> Result<Vec<String>, MoveTextError> {
        Game::from_move_text(Position::new(), text).map(|g| g.san_moves())
    }

    #[test]
    fn move_numbers_results_and_marks_are_skipped() {
        assert_eq!(
            sans("1. e4 d5 2.exd5 2... Qxd5!? 3 Nc3 $1 {a comment} 1/2-1/2").ok(),
            Some(
                ["e4", "d5", "exd5", "Qxd5", "Nc3"]
                    .map(String::from)
                    .to_vec()
            )
        );
        assert_eq!(sans("e2e4 e7e5 g1f3").ok().map(|v| v.len()), Some(3));
        assert_eq!(sans("").ok().map(|v| v.len()), Some(0));
    }

    #[test]
    fn inventors_spaced_castling() -> Result<(), MoveTextError> {
        let game = Game::from_move_text(
            Position::new(),
            "1 e4 e5 2 Nf3 Nf6 3 Bc4 Bc5 4 O O 4... O O",
        )?;
        let plus = Game::from_move_text(Position::new(), "e4 e5 Nf3 Nc6 Bc4 Bc5 O O+");
        assert_eq!(
            plus.map(|g| g.san_moves().pop()).ok().flatten(),
            Some("O-O".into())
        );
        // Both sides castled short: each king is on its g-file square.
        let fen = game.position().fen();
        assert!(fen.starts_with("rnbq1rk1/"), "{fen}");
        assert!(fen.contains("/RNBQ1RK1["), "{fen}");
        Ok(())
    }

    #[test]
    fn errors_name_the_ply_text_side_and_position() {
        let err = sans("1. e4 e5 2. Ke3").err();
        let Some(MoveTextError::Move {
            ply,
            turn,
            fullmove,
            ref fen,
            ..
        }) = err
        else {
            panic!("expected a move error, got {err:?}");
        };
        assert_eq!((ply, turn, fullmove), (3, Color::White, 2));
        assert_eq!(
            fen,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2"
        );
        let err = sans("e4 e5 e2e3").err().map(|e| e.code());
        assert_eq!(err, Some("illegal_uci"));
    }

    #[test]
    fn tags_variations_and_text_after_the_result_are_refused() {
        for text in ["[Event \"x\"] e4", "e4 (d4) e5", "e4 e5 1-0 Nf3"] {
            let err = sans(text).err();
            assert_eq!(
                err.as_ref().map(MoveTextError::code),
                Some("invalid_move_text"),
                "{text}"
            );
        }
        assert_eq!(sans("e4 e5 1-0 Nf3").err().map(|e| e.ply()), Some(3));
    }

    #[test]
    fn a_failed_push_leaves_the_game_unchanged() {
        let mut game = Game::from_move_text(Position::new(), "e4").unwrap_or_default();
        assert!(game.push_move_text("e5 Nf3 Qxf7").is_err());
        assert_eq!(game.san_moves(), ["e4"]);
        assert_eq!(game.push_move_text("e5 Nf3").ok(), Some(2));
        assert_eq!(game.ply(), 3);
    }

    #[test]
    fn strict_list_takes_one_move_per_item() {
        let game = Game::from_moves(Position::new(), ["e4", "e7e5"]);
        assert_eq!(game.map(|g| g.ply()).ok(), Some(2));
        let err = Game::from_moves(Position::new(), ["1.", "e4"]).err();
        assert_eq!(err.map(|e| (e.ply(), e.code())), Some((1, "invalid_san")));
    }
}
