//! [`Excerpt`]: the text an error was given, shortened for its message.
//!
//! Every parse and move error names its input, as python-chess does
//! (`illegal san: 'Qh5' in rnbqkbnr/…`), but never echoes a long input whole:
//! a megabyte of junk handed to a FEN parser must not become a megabyte of
//! error message. Input that is not UTF-8 is shown with replacement
//! characters, and control characters and quotes are escaped, so a message
//! stays on one line.
//!
//! # Examples
//!
//! ```
//! use hostage_core::Excerpt;
//!
//! assert_eq!(Excerpt::new(b"Qh5").to_string(), "'Qh5'");
//! assert_eq!(Excerpt::new(b"Qh5").as_str(), "Qh5");
//! let long = Excerpt::new("x".repeat(1000).as_bytes());
//! assert_eq!(long.as_str().chars().count(), Excerpt::MAX_CHARS + 1);
//! assert!(long.as_str().ends_with('…'));
//! assert_eq!(Excerpt::new(b"a\nb").to_string(), "'a\\nb'");
//! ```

use alloc::{boxed::Box, string::String};
use core::fmt;

/// The first [`Excerpt::MAX_CHARS`] characters of some input, with `…`
/// appended when there was more.
// A boxed `str` rather than a `String`: the excerpt never grows, and the
// move errors that hold two of them (the text, and the SAN or long-form
// error's) stay small enough to return by value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Excerpt(Box<str>);

impl Excerpt {
    /// The most characters kept: longer than any FEN of a legal position
    /// written canonically in the common cases, short enough for one line.
    pub const MAX_CHARS: usize = 100;

    /// The excerpt of `input` (bytes that are not UTF-8 become `�`).
    #[must_use]
    pub fn new(input: &[u8]) -> Excerpt {
        // Only the start is decoded: the rest of a huge input is never read.
        let head = &input[..input.len().min(Excerpt::MAX_CHARS * 4)];
        let text = String::from_utf8_lossy(head);
        let mut out: String = text.chars().take(Excerpt::MAX_CHARS).collect();
        if head.len() < input.len() || text.chars().count() > Excerpt::MAX_CHARS {
            out.push('…');
        }
        Excerpt(out.into_boxed_str())
    }

    /// The kept text, without quotes or escapes.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Quoted with `'`, control characters and quotes escaped.
impl fmt::Display for Excerpt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", self.0.escape_debug())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn short_input_is_kept_whole() {
        assert_eq!(Excerpt::new(b"").to_string(), "''");
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
        assert_eq!(Excerpt::new(fen.as_bytes()).as_str(), fen);
        let exact = "y".repeat(Excerpt::MAX_CHARS);
        assert_eq!(Excerpt::new(exact.as_bytes()).as_str(), exact);
    }

    #[test]
    fn long_input_is_cut() {
        let cut = Excerpt::new("z".repeat(Excerpt::MAX_CHARS + 1).as_bytes());
        assert_eq!(cut.as_str(), "z".repeat(Excerpt::MAX_CHARS) + "…");
        // Multi-byte characters count as one each.
        let wide = Excerpt::new("é".repeat(300).as_bytes());
        assert_eq!(wide.as_str(), "é".repeat(Excerpt::MAX_CHARS) + "…");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced() {
        assert_eq!(Excerpt::new(b"e\xff4").as_str(), "e\u{fffd}4");
        assert_eq!(Excerpt::new(b"'\t").to_string(), "'\\'\\t'");
    }
}
