//! Text rendering of a position for the terminal: the board, both prisons
//! and both airfields.
//!
//! The board is drawn from White's side, rank 8 at the top, with file and
//! rank coordinates. Men are FEN letters (uppercase White, lowercase Black)
//! or, in [`Style::Unicode`], chess figurines. The reserves are labelled in
//! words, because whose men sit in whose prison is the first thing a new
//! player gets wrong (R2, R3): White's prison holds *black* men.
//!
//! ```text
//!   +-----------------+
//! 8 | r n b . k b n r |
//! ...
//! 1 | R N B Q K B N R |
//!   +-----------------+
//!     a b c d e f g h
//! ```

use std::fmt::Write as _;

use hostage_core::{Color, File, Piece, Position, Rank, Reserve, Role, Square};

/// How men are drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// FEN letters, `.` for an empty square.
    Ascii,
    /// Chess figurines (♔ … ♟), `·` for an empty square.
    Unicode,
}

impl Style {
    /// The character for `piece`.
    pub fn glyph(self, piece: Piece) -> char {
        match self {
            Style::Ascii => piece.char(),
            Style::Unicode => match (piece.color, piece.role) {
                (Color::White, Role::King) => '♔',
                (Color::White, Role::Queen) => '♕',
                (Color::White, Role::Rook) => '♖',
                (Color::White, Role::Bishop) => '♗',
                (Color::White, Role::Knight) => '♘',
                (Color::White, Role::Pawn) => '♙',
                (Color::Black, Role::King) => '♚',
                (Color::Black, Role::Queen) => '♛',
                (Color::Black, Role::Rook) => '♜',
                (Color::Black, Role::Bishop) => '♝',
                (Color::Black, Role::Knight) => '♞',
                (Color::Black, Role::Pawn) => '♟',
            },
        }
    }

    fn empty_square(self) -> char {
        match self {
            Style::Ascii => '.',
            Style::Unicode => '·',
        }
    }
}

/// The board, rank 8 first, with coordinates; one line per rank.
pub fn board(pos: &Position, style: Style) -> String {
    let mut s = String::new();
    s.push_str("  +-----------------+\n");
    for rank in Rank::ALL.into_iter().rev() {
        let _ = write!(s, "{} |", rank.char());
        for file in File::ALL {
            let sq = Square::from_coords(file, rank);
            let c = pos
                .board()
                .piece_at(sq)
                .map_or(style.empty_square(), |p| style.glyph(p));
            s.push(' ');
            s.push(c);
        }
        s.push_str(" |\n");
    }
    s.push_str("  +-----------------+\n");
    s.push_str("    a b c d e f g h\n");
    s
}

/// Both prisons and both airfields, one labelled line each.
pub fn reserves(pos: &Position, style: Style) -> String {
    let mut s = String::new();
    for color in Color::ALL {
        let name = title(color);
        let enemy = (!color).name();
        let _ = writeln!(
            s,
            "{:<50} {}",
            format!("{name}'s prison ({enemy} men {name} captured):"),
            men(pos.prison(color), !color, style)
        );
    }
    for color in Color::ALL {
        let name = title(color);
        let _ = writeln!(
            s,
            "{:<50} {}",
            format!("{name}'s airfield ({} men waiting to drop):", color.name()),
            men(pos.airfield(color), color, style)
        );
    }
    s
}

/// `"White"` or `"Black"`.
pub fn title(color: Color) -> &'static str {
    color.fold("White", "Black")
}

/// The men of `reserve`, all of colour `color`, as `q r p p`, or `-`.
fn men(reserve: &Reserve, color: Color, style: Style) -> String {
    let glyphs: Vec<String> = reserve
        .iter()
        .flat_map(|(role, n)| std::iter::repeat_n(style.glyph(Piece { color, role }), n.into()))
        .map(String::from)
        .collect();
    if glyphs.is_empty() {
        "-".to_owned()
    } else {
        glyphs.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_board() {
        let text = board(&Position::new(), Style::Ascii);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "8 | r n b q k b n r |");
        assert_eq!(lines[8], "1 | R N B Q K B N R |");
        assert_eq!(lines[10], "    a b c d e f g h");
    }

    #[test]
    fn reserves_are_labelled_by_whose_men() -> Result<(), hostage_core::fen::FenError> {
        // White's g1 knight was released by Black and waits in White's airfield.
        let pos =
            Position::from_fen("rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKB1R[N#Pp] w KQkq - 0 3")?;
        let text = reserves(&pos, Style::Ascii);
        assert!(
            text.contains("White's prison (black men White captured):"),
            "{text}"
        );
        assert!(
            text.lines().next().is_some_and(|l| l.ends_with(" p")),
            "{text}"
        );
        assert!(
            text.lines().nth(1).is_some_and(|l| l.ends_with(" P")),
            "{text}"
        );
        assert!(
            text.lines().nth(2).is_some_and(|l| l.ends_with(" N")),
            "{text}"
        );
        assert!(
            text.lines().nth(3).is_some_and(|l| l.ends_with(" -")),
            "{text}"
        );
        Ok(())
    }
}
