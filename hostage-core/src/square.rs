//! Squares, files and ranks, and their names (`e4`, `e`, `4`).

use core::{fmt, str::FromStr};

use crate::{Color, Excerpt};

/// A file (column), `a` to `h`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank (row), `1` to `8`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

/// One of the 64 squares, numbered `a1 = 0`, `b1 = 1`, ..., `h8 = 63`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

#[allow(missing_docs)]
impl File {
    pub const A: File = File(0);
    pub const B: File = File(1);
    pub const C: File = File(2);
    pub const D: File = File(3);
    pub const E: File = File(4);
    pub const F: File = File(5);
    pub const G: File = File(6);
    pub const H: File = File(7);
}

impl File {
    /// All files, `a` to `h`.
    pub const ALL: [File; 8] = [
        File(0),
        File(1),
        File(2),
        File(3),
        File(4),
        File(5),
        File(6),
        File(7),
    ];

    /// The file with this index (`0` is `a`), if below 8.
    #[must_use]
    pub const fn new(index: u32) -> Option<File> {
        if index < 8 {
            Some(File(index as u8))
        } else {
            None
        }
    }

    /// Parses `'a'` to `'h'`.
    #[must_use]
    pub const fn from_char(ch: char) -> Option<File> {
        if ch >= 'a' && ch <= 'h' {
            Some(File(ch as u8 - b'a'))
        } else {
            None
        }
    }

    /// `'a'` to `'h'`.
    #[must_use]
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The index, `0` for `a`.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// The file `delta` steps to the right (negative: left), if on the board.
    #[must_use]
    pub const fn offset(self, delta: i32) -> Option<File> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 8 {
            Some(File(i as u8))
        } else {
            None
        }
    }
}

#[allow(missing_docs)]
impl Rank {
    pub const FIRST: Rank = Rank(0);
    pub const SECOND: Rank = Rank(1);
    pub const THIRD: Rank = Rank(2);
    pub const FOURTH: Rank = Rank(3);
    pub const FIFTH: Rank = Rank(4);
    pub const SIXTH: Rank = Rank(5);
    pub const SEVENTH: Rank = Rank(6);
    pub const EIGHTH: Rank = Rank(7);
}

impl Rank {
    /// All ranks, `1` to `8`.
    pub const ALL: [Rank; 8] = [
        Rank(0),
        Rank(1),
        Rank(2),
        Rank(3),
        Rank(4),
        Rank(5),
        Rank(6),
        Rank(7),
    ];

    /// The rank with this index (`0` is rank 1), if below 8.
    #[must_use]
    pub const fn new(index: u32) -> Option<Rank> {
        if index < 8 {
            Some(Rank(index as u8))
        } else {
            None
        }
    }

    /// Parses `'1'` to `'8'`.
    #[must_use]
    pub const fn from_char(ch: char) -> Option<Rank> {
        if ch >= '1' && ch <= '8' {
            Some(Rank(ch as u8 - b'1'))
        } else {
            None
        }
    }

    /// `'1'` to `'8'`.
    #[must_use]
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }

    /// The index, `0` for rank 1.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// This rank seen from `color`'s side: rank 1 is `color`'s first rank.
    #[must_use]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
}

impl Square {
    /// The square with this index (`a1 = 0` ... `h8 = 63`), if below 64.
    #[must_use]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    pub(crate) const fn new_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square((index & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[must_use]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// The index, `a1 = 0` ... `h8 = 63`.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// The file.
    #[must_use]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The rank.
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The same square seen from the other side (a1 ↔ a8).
    #[must_use]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` indices away (`8` is one rank up), if on the board.
    #[must_use]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Parses a name such as `e4`.
    ///
    /// # Errors
    ///
    /// [`ParseSquareError`] unless `s` is exactly a file letter and a rank digit.
    pub fn from_ascii(s: &[u8]) -> Result<Square, ParseSquareError> {
        match s {
            [f, r] => match (File::from_char(*f as char), Rank::from_char(*r as char)) {
                (Some(file), Some(rank)) => Ok(Square::from_coords(file, rank)),
                _ => Err(ParseSquareError(Excerpt::new(s))),
            },
            _ => Err(ParseSquareError(Excerpt::new(s))),
        }
    }
}

macro_rules! square_consts {
    ($($name:ident = $index:expr),* $(,)?) => {
        #[allow(missing_docs)]
        impl Square {
            $(pub const $name: Square = Square($index);)*
        }
    };
}

#[rustfmt::skip]
square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A square name that is not a file letter `a`-`h` followed by a rank digit
/// `1`-`8`; the message names the text given.
///
/// # Examples
///
/// ```
/// use hostage_core::Square;
///
/// let err = Square::from_ascii(b"e9").unwrap_err();
/// assert_eq!(err.to_string(), "invalid square name: 'e9'");
/// assert_eq!(err.code(), "invalid_square");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square name: {0}")]
pub struct ParseSquareError(pub Excerpt);

impl ParseSquareError {
    /// The stable error code: `"invalid_square"`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "invalid_square"
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for i in 0..64 {
            let sq = Square::new(i).unwrap();
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
        }
        assert_eq!("e4".parse::<Square>(), Ok(Square::E4));
        assert_eq!(Square::E4.index(), 28);
        assert!("e9".parse::<Square>().is_err());
        assert!("i1".parse::<Square>().is_err());
        assert!("e".parse::<Square>().is_err());
        assert!("é4".parse::<Square>().is_err());
    }
}
