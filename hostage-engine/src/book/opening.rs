//! Openings and opening books: the moves a game of a match starts with.
//!
//! A book is plain text, one opening a line, moves in the library's long
//! form (SAN is read too) separated by spaces; blank lines and lines starting with `#` are
//! skipped. Every line is replayed when the book is read, so an illegal
//! move is reported with its line, and a book that reads is a book whose
//! every opening can be played.

use std::fmt;

use hostage_core::{Game, MoveTextError, Position};

/// An opening: moves in the library's long form from the start position.
///
/// # Examples
///
/// ```
/// use hostage_engine::book::Opening;
///
/// let book = Opening::parse_book("# comment\ne2e4 d7d5 e4d5 d8d5\nd2d4 g8f6\n")?;
/// assert_eq!(book.len(), 2);
/// assert_eq!(book[0].moves.len(), 4);
/// # Ok::<_, hostage_engine::book::BookError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// The moves, in long form.
    pub moves: Vec<String>,
}

impl Opening {
    /// Reads a book (see the module documentation).
    ///
    /// # Errors
    ///
    /// The first move that does not parse or is illegal, with its line.
    pub fn parse_book(text: &str) -> Result<Vec<Opening>, BookError> {
        let mut book = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = Opening {
                moves: line.split_whitespace().map(str::to_string).collect(),
            };
            opening.game().map_err(|error| BookError {
                line: number + 1,
                error: Box::new(error),
            })?;
            book.push(opening);
        }
        Ok(book)
    }

    /// The game after the opening's moves (replayed by the core's
    /// [`Game::from_moves`], one move per item).
    ///
    /// # Errors
    ///
    /// The first move that does not parse or is illegal, with its place in
    /// the list, its text and the position.
    pub fn game(&self) -> Result<Game, MoveTextError> {
        Game::from_moves(Position::new(), &self.moves)
    }
}

/// A move of an opening book that does not parse or is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BookError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong with it: the move's place in the line, its text and
    /// the position (boxed: it is large, and errors should be cheap to
    /// return).
    pub error: Box<MoveTextError>,
}

impl BookError {
    /// The code of the move error (`invalid_uci`, `illegal_uci`, or the
    /// SAN codes, since a book may be written in SAN too).
    #[must_use]
    pub const fn code(&self) -> &'static str {
        self.error.code()
    }
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "opening book line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for BookError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_illegal_opening_is_reported() {
        let err = Opening::parse_book("e2e4 e7e5\n\nd2d4 e2e5\n").expect_err("illegal");
        assert_eq!(
            (
                err.line,
                err.error.ply(),
                err.error.text().as_str(),
                err.code()
            ),
            (3, 2, "e2e5", "illegal_uci")
        );
        assert!(
            err.to_string().starts_with(
                "opening book line 3: cannot play move 2 'e2e5' (black's move 1): illegal uci"
            ),
            "{err}"
        );
    }
}
