//! Chat between the two players of an online game: the rule for a line,
//! the pace and the cap.
//!
//! Policy: the two seated players write, anyone following the game
//! (players and spectators) reads; a line is stored with the game before
//! anyone is told of it (as every change, `games.rs`), and a game's lines
//! are sent again in every `state`, so a reload or another server shows
//! them. Chat stays open after the game has ended (as on lichess).
//!
//! A line is plain text: trimmed of white space at both ends, 1 to
//! [`MAX_CHAT_CHARS`] characters (Unicode scalar values, not bytes), and
//! with no control character at all (no newline, tab, bidi override); it is
//! refused, never repaired (`invalid_chat`). Markup is kept as typed: the
//! app sets text, never HTML. Each seat may post [`CHAT_BURST`] lines per
//! [`CHAT_WINDOW_MS`] (`chat_too_fast`), counted on the stored lines' times
//! so every server sharing a store counts alike; a game keeps at most
//! [`MAX_CHAT_LINES`] lines (`chat_full`).

use std::fmt;

use hostage_core::Color;

/// The longest line, in characters.
pub const MAX_CHAT_CHARS: usize = 140;
/// Lines one seat may post within [`CHAT_WINDOW_MS`].
pub const CHAT_BURST: usize = 5;
/// The window of the pace, in milliseconds.
pub const CHAT_WINDOW_MS: u64 = 10_000;
/// The most lines a game keeps.
pub const MAX_CHAT_LINES: usize = 200;

/// Which rule a refused line broke.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChatRefusal {
    /// Empty, too long, or with a control character (`invalid_chat`).
    Invalid,
    /// More lines than the pace allows (`chat_too_fast`).
    TooFast,
    /// The game's chat holds [`MAX_CHAT_LINES`] (`chat_full`).
    Full,
}

/// A refused line: the rule broken, why in words, and the text given. On
/// the wire it is the error of [`ChatError::code`] (the protocol converts
/// it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatError {
    /// The rule broken.
    pub refusal: ChatRefusal,
    /// Why, in words.
    pub why: String,
    /// The text given, when the text was refused.
    pub given: Option<String>,
}

impl ChatError {
    /// The stable code: `invalid_chat`, `chat_too_fast` or `chat_full`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self.refusal {
            ChatRefusal::Invalid => "invalid_chat",
            ChatRefusal::TooFast => "chat_too_fast",
            ChatRefusal::Full => "chat_full",
        }
    }
}

impl fmt::Display for ChatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.why)
    }
}

impl std::error::Error for ChatError {}

fn refused(refusal: ChatRefusal, why: String, given: Option<&str>) -> ChatError {
    ChatError {
        refusal,
        why,
        given: given.map(str::to_owned),
    }
}

/// One stored line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// Its place in the game's chat, from 0.
    pub index: u64,
    /// The seat that wrote it.
    pub by: Color,
    /// The text, checked by [`checked_text`].
    pub text: String,
    /// When it was stored, milliseconds since the Unix epoch.
    pub at_ms: u64,
}

/// `text` as a line may hold it: trimmed, checked, never repaired.
///
/// # Errors
///
/// `invalid_chat`: empty once trimmed, longer than [`MAX_CHAT_CHARS`], or
/// with a control character.
pub fn checked_text(text: &str) -> Result<String, ChatError> {
    let trimmed = text.trim();
    let refuse = |why: String| Err(refused(ChatRefusal::Invalid, why, Some(text)));
    let chars = trimmed.chars().count();
    if chars == 0 {
        return refuse("a chat line needs at least one character besides spaces".into());
    }
    if chars > MAX_CHAT_CHARS {
        return refuse(format!(
            "a chat line has at most {MAX_CHAT_CHARS} characters (this one has {chars})"
        ));
    }
    // Controls (C0, C1) and the invisible format characters that reorder or
    // hide text (bidi overrides, zero widths): a line reads as it was typed.
    if let Some(bad) = trimmed.chars().find(|&c| c.is_control() || is_format(c)) {
        return refuse(format!(
            "a chat line is plain text on one line (not {bad:?})"
        ));
    }
    Ok(trimmed.to_owned())
}

/// The invisible format characters refused in a line.
fn is_format(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// Whether `by` may post one more line to a chat of `lines` at `now_ms`.
///
/// # Errors
///
/// `chat_full`, `chat_too_fast`.
pub fn check_room(lines: &[ChatLine], by: Color, now_ms: u64) -> Result<(), ChatError> {
    if lines.len() >= MAX_CHAT_LINES {
        return Err(refused(
            ChatRefusal::Full,
            format!("this game's chat holds its {MAX_CHAT_LINES} lines; no more can be posted"),
            None,
        ));
    }
    let since = now_ms.saturating_sub(CHAT_WINDOW_MS);
    let recent = lines
        .iter()
        .rev()
        .take_while(|l| l.at_ms > since)
        .filter(|l| l.by == by)
        .count();
    if recent >= CHAT_BURST {
        return Err(refused(
            ChatRefusal::TooFast,
            format!(
                "at most {CHAT_BURST} lines per {} s; wait a moment",
                CHAT_WINDOW_MS / 1000
            ),
            None,
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_trimmed_and_kept_as_typed_markup_included() {
        assert_eq!(checked_text("  hi  ").unwrap(), "hi");
        let markup = "<b>hi</b><img src=x onerror=alert(1)>";
        assert_eq!(checked_text(markup).unwrap(), markup);
        let full = "é".repeat(MAX_CHAT_CHARS);
        assert_eq!(checked_text(&full).unwrap(), full);
    }

    #[test]
    fn empty_long_and_control_lines_are_refused_with_the_text() {
        for bad in [
            String::new(),
            "   ".into(),
            "x".repeat(MAX_CHAT_CHARS + 1),
            "two\nlines".into(),
            "tab\there".into(),
            "bell\u{7}".into(),
            "rtl\u{202e}olleh".into(),
            "zero\u{200b}width".into(),
            "c1\u{85}control".into(),
        ] {
            let e = checked_text(&bad).expect_err(&bad);
            assert_eq!(e.code(), "invalid_chat", "{bad:?}");
            assert!(e.given.is_some(), "{bad:?}");
        }
    }

    fn line(index: u64, by: Color, at_ms: u64) -> ChatLine {
        ChatLine {
            index,
            by,
            text: "x".into(),
            at_ms,
        }
    }

    #[test]
    fn each_seat_has_its_pace_and_the_game_its_cap() {
        let now = 100_000;
        let lines: Vec<ChatLine> = (0..5)
            .map(|i| line(i, Color::White, now - 1_000 + i))
            .collect();
        assert_eq!(
            check_room(&lines, Color::White, now).unwrap_err().refusal,
            ChatRefusal::TooFast
        );
        // The other seat is not slowed by White's lines.
        assert!(check_room(&lines, Color::Black, now).is_ok());
        // Ten seconds later, White may again.
        assert!(check_room(&lines, Color::White, now + CHAT_WINDOW_MS).is_ok());
        let full: Vec<ChatLine> = (0..MAX_CHAT_LINES as u64)
            .map(|i| line(i, Color::Black, i))
            .collect();
        assert_eq!(
            check_room(&full, Color::White, now).unwrap_err().refusal,
            ChatRefusal::Full
        );
    }
}
