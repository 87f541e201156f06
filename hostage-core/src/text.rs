//! Positions and move sequences as plain text: the board-only FEN, board
//! diagrams in letters or figurines (prisons and airfields listed below the
//! board), long algebraic notation and numbered SAN variations.
//!
//! The diagrams follow the libraries users know: without borders, python-chess's
//! `str(board)` (rows of letters or figurines, `.` for an empty square); with
//! borders, chess.js's `ascii()` (a frame, rank numbers and file letters).
//! Below the board come four lines, one per reserve, each listing its men
//! with their colour's letters (R2: White's prison holds black men; R3:
//! White's airfield holds white men).
//!
//! # Examples
//!
//! ```
//! use hostage_core::{text::TextOptions, Position};
//!
//! let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3[N#Pq] w - - 0 1")?;
//! assert_eq!(pos.board_fen(), "4k3/8/8/8/8/8/8/4K3");
//! let text = pos.text(&TextOptions::default());
//! assert_eq!(text.lines().next(), Some(". . . . k . . ."));
//! assert!(text.ends_with("white prison:   q\nblack prison:   P\nwhite airfield: N\nblack airfield: -"));
//! # Ok::<_, hostage_core::fen::FenError>(())
//! ```

use alloc::{string::String, vec::Vec};
use core::fmt::Write as _;

use crate::{
    san::San,
    uci::{UciError, UciMove},
    Color, GameError, Move, Piece, Position, Reserve, Role, Square,
};

/// How [`Position::text`] draws a position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TextOptions {
    /// Figurines (`♔`, `♟`) instead of FEN letters.
    pub unicode: bool,
    /// A frame with rank numbers and file letters, as chess.js's `ascii()`.
    pub borders: bool,
    /// Figurines of the other colour (for dark backgrounds).
    pub invert_color: bool,
    /// The character for an empty square.
    pub empty_square: char,
    /// The side at the bottom.
    pub orientation: Color,
    /// The four reserve lines below the board.
    pub reserves: bool,
}

impl Default for TextOptions {
    /// Letters, no frame, `.` for empty squares, White at the bottom,
    /// reserves listed: python-chess's `str(board)` plus the reserves.
    fn default() -> TextOptions {
        TextOptions {
            unicode: false,
            borders: false,
            invert_color: false,
            empty_square: '.',
            orientation: Color::White,
            reserves: true,
        }
    }
}

/// The figurine of `piece` (white figurines for white men unless inverted).
fn figurine(piece: Piece, invert: bool) -> char {
    const WHITE: [char; 6] = ['♙', '♘', '♗', '♖', '♕', '♔'];
    const BLACK: [char; 6] = ['♟', '♞', '♝', '♜', '♛', '♚'];
    let white = piece.color.is_white() != invert;
    (if white { WHITE } else { BLACK })[piece.role.index()]
}

impl Position {
    /// The piece placement field of the FEN, without the reserves bracket
    /// (python-chess's `board_fen`).
    #[must_use]
    pub fn board_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self
                    .board()
                    .piece_at(Square::new_unchecked(rank * 8 + file))
                {
                    Some(piece) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// A diagram of the board, then (by default) one line per prison and
    /// airfield; see the module docs and [`TextOptions`].
    #[must_use]
    pub fn text(&self, options: &TextOptions) -> String {
        let symbol = |piece: Piece| {
            if options.unicode {
                figurine(piece, options.invert_color)
            } else {
                piece.char()
            }
        };
        let white = options.orientation.is_white();
        let ranks: Vec<u32> = if white {
            (0..8).rev().collect()
        } else {
            (0..8).collect()
        };
        let files: Vec<u32> = if white {
            (0..8).collect()
        } else {
            (0..8).rev().collect()
        };
        let mut lines: Vec<String> = Vec::new();
        if options.borders {
            lines.push(String::from("   +------------------------+"));
        }
        for &rank in &ranks {
            let cells: Vec<String> = files
                .iter()
                .map(|&file| {
                    let sq = Square::new_unchecked(rank * 8 + file);
                    let ch = self
                        .board()
                        .piece_at(sq)
                        .map_or(options.empty_square, symbol);
                    String::from(ch)
                })
                .collect();
            lines.push(if options.borders {
                alloc::format!(" {} | {} |", rank + 1, cells.join("  "))
            } else {
                cells.join(" ")
            });
        }
        if options.borders {
            lines.push(String::from("   +------------------------+"));
            let letters: Vec<String> = files
                .iter()
                .map(|&f| String::from(char::from(b'a' + f as u8)))
                .collect();
            lines.push(alloc::format!("     {}", letters.join("  ")));
        }
        if options.reserves {
            let list = |reserve: &Reserve, men: Color| -> String {
                let s: String = reserve
                    .iter()
                    .flat_map(|(role, n)| core::iter::repeat_n(symbol(role.of(men)), n.into()))
                    .collect();
                if s.is_empty() {
                    String::from("-")
                } else {
                    s
                }
            };
            let w = Color::White;
            let b = Color::Black;
            lines.push(alloc::format!(
                "white prison:   {}",
                list(self.prison(w), b)
            ));
            lines.push(alloc::format!(
                "black prison:   {}",
                list(self.prison(b), w)
            ));
            lines.push(alloc::format!(
                "white airfield: {}",
                list(self.airfield(w), w)
            ));
            lines.push(alloc::format!(
                "black airfield: {}",
                list(self.airfield(b), b)
            ));
        }
        lines.join("\n")
    }

    /// Long algebraic notation of the legal move `m`: the role letter (none
    /// for a pawn), both squares joined by `-` or `x`, the promotion, and
    /// `+`/`#` (`Ng1-f3`, `e4xd5`, `e7-e8=Q+`). Castling, drops and
    /// exchanges have no second square and are written as in SAN (`O-O`,
    /// `N*c7`, `(B-N)N*c7`).
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Position;
    ///
    /// let pos = Position::new();
    /// assert_eq!(pos.lan(&pos.parse_move("Nf3")?), "Ng1-f3");
    /// assert_eq!(pos.lan(&pos.parse_move("e4")?), "e2-e4");
    /// # Ok::<_, hostage_core::game::GameError>(())
    /// ```
    #[must_use]
    pub fn lan(&self, m: &Move) -> String {
        let san = San::write(self, m);
        let (from, to, role, capture, promotion) = match *m {
            Move::Normal {
                role,
                from,
                to,
                capture,
                promotion,
            } => (from, to, role, capture.is_some(), promotion),
            Move::EnPassant { from, to } => (from, to, Role::Pawn, true, None),
            _ => return san,
        };
        let mut out = String::new();
        if role != Role::Pawn {
            out.push(role.upper_char());
        }
        let _ = write!(out, "{from}{}{to}", if capture { 'x' } else { '-' });
        if let Some(promotion) = promotion {
            let _ = write!(out, "={}", promotion.upper_char());
        }
        if san.ends_with('#') || san.ends_with('+') {
            out.push_str(&san[san.len() - 1..]);
        }
        out
    }

    /// The moves as numbered SAN from this position (python-chess's
    /// `variation_san`): `1. e4 e5 2. Nf3`, or `1... e5 2. Nf3` when Black
    /// moves first.
    ///
    /// # Errors
    ///
    /// [`GameError::IllegalMove`] for the first move that is not legal where
    /// it is played, naming that move and that position's FEN.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::Position;
    ///
    /// let start = Position::new();
    /// let e4 = start.parse_move("e4")?;
    /// let after = start.clone().play(e4)?;
    /// let e5 = after.parse_move("e5")?;
    /// assert_eq!(start.variation_san(&[e4, e5])?, "1. e4 e5");
    /// assert_eq!(after.variation_san(&[e5])?, "1... e5");
    /// assert!(start.variation_san(&[e5]).is_err());
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn variation_san(&self, moves: &[Move]) -> Result<String, GameError> {
        self.variation(moves, |pos, m| {
            if pos.is_legal(m) {
                Ok(*m)
            } else {
                Err(GameError::IllegalMove {
                    mv: *m,
                    fen: pos.fen(),
                    reason: pos.illegal_reason(m),
                })
            }
        })
    }

    /// As [`Position::variation_san`], the moves given in long form.
    ///
    /// # Errors
    ///
    /// [`UciError::Illegal`] for the first move that names no legal move
    /// where it is played, naming it and that position's FEN.
    ///
    /// # Examples
    ///
    /// ```
    /// use hostage_core::{uci::UciMove, Position};
    ///
    /// let moves: Vec<UciMove> = ["e2e4", "d7d5", "e4d5"].iter().map(|t| t.parse()).collect::<Result<_, _>>()?;
    /// assert_eq!(Position::new().variation_san_uci(&moves)?, "1. e4 d5 2. exd5");
    /// let err = Position::new().variation_san_uci(&moves[1..]).unwrap_err();
    /// assert!(err.to_string().starts_with("illegal uci: 'd7d5' in rnbqkbnr/"));
    /// # Ok::<_, hostage_core::uci::UciError>(())
    /// ```
    pub fn variation_san_uci(&self, moves: &[UciMove]) -> Result<String, UciError> {
        self.variation(moves, |pos, m| m.to_move(pos))
    }

    fn variation<T, E>(
        &self,
        moves: &[T],
        resolve: impl Fn(&Position, &T) -> Result<Move, E>,
    ) -> Result<String, E> {
        let mut pos = self.clone();
        let mut parts: Vec<String> = Vec::with_capacity(moves.len() + moves.len() / 2 + 1);
        for (i, given) in moves.iter().enumerate() {
            let m = resolve(&pos, given)?;
            let san = San::write(&pos, &m);
            let number = pos.fullmoves();
            if pos.turn().is_white() {
                parts.push(alloc::format!("{number}. {san}"));
            } else if i == 0 {
                parts.push(alloc::format!("{number}... {san}"));
            } else {
                parts.push(san);
            }
            pos.play_unchecked(m);
        }
        Ok(parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn diagrams() {
        let pos = Position::new();
        let plain = pos.text(&TextOptions::default());
        assert_eq!(plain.lines().next(), Some("r n b q k b n r"));
        assert_eq!(plain.lines().nth(4), Some(". . . . . . . ."));
        assert_eq!(plain.lines().count(), 12);
        let boxed = pos.text(&TextOptions {
            borders: true,
            reserves: false,
            ..TextOptions::default()
        });
        let lines: Vec<&str> = boxed.lines().collect();
        assert_eq!(lines[0], "   +------------------------+");
        assert_eq!(lines[1], " 8 | r  n  b  q  k  b  n  r |");
        assert_eq!(lines[8], " 1 | R  N  B  Q  K  B  N  R |");
        assert_eq!(lines[10], "     a  b  c  d  e  f  g  h");
        let black = pos.text(&TextOptions {
            unicode: true,
            empty_square: '·',
            orientation: Color::Black,
            reserves: false,
            ..TextOptions::default()
        });
        // From Black's side: rank 1 on top, h-file on the left.
        assert_eq!(black.lines().next(), Some("♖ ♘ ♗ ♔ ♕ ♗ ♘ ♖"));
        assert_eq!(black.lines().nth(7), Some("♜ ♞ ♝ ♚ ♛ ♝ ♞ ♜"));
    }

    #[test]
    fn lan_of_every_kind() {
        let pos =
            Position::from_fen("r3k3/1P6/8/3pP3/8/8/8/R3K2R[N#Qq] w KQq d6 0 1").expect("test FEN");
        let lan = |text: &str| pos.lan(&pos.parse_move(text).expect(text));
        assert_eq!(lan("exd6"), "e5xd6");
        assert_eq!(lan("bxa8=Q+"), "b7xa8=Q+");
        assert_eq!(lan("O-O-O"), "O-O-O");
        assert_eq!(lan("N*c7+"), "N*c7+");
        assert_eq!(lan("(Q-Q)Q*e2"), "(Q-Q)Q*e2");
        assert_eq!(lan("Ra7"), "Ra1-a7");
        assert_eq!(pos.board_fen().to_string(), "r3k3/1P6/8/3pP3/8/8/8/R3K2R");
    }
}
