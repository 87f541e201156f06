//! Display names: what a player chooses to be called online.
//!
//! Policy: a name is 1 to [`MAX_NAME_CHARS`] characters after trimming
//! spaces at both ends; its characters are letters and digits of any script,
//! plus space, `_`, `-` and `.`; it has no two spaces in a row. Anything else
//! (markup, control characters, quotes, emoji, a name of spaces only) is
//! refused with `invalid_name`, never repaired, so that what a player typed
//! is what everyone sees. The app escapes names anyway: this rule keeps
//! them readable in PGN headers and logs, it is not the XSS defence.
//!
//! A player without a name is shown as `Anonymous` ([`ANONYMOUS`]).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The longest name, in characters (Unicode scalar values).
pub const MAX_NAME_CHARS: usize = 20;

/// How a player without a name is shown (PGN headers, lobby).
pub const ANONYMOUS: &str = "Anonymous";

/// A name that breaks the rule: which part, and the text given. On the
/// wire it is the error `invalid_name` (`From<NameError> for ProtoError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameError {
    why: String,
    given: String,
}

impl NameError {
    /// `"invalid_name"`, the stable code.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "invalid_name"
    }

    /// The text given.
    #[must_use]
    pub fn given(&self) -> &str {
        &self.given
    }
}

impl fmt::Display for NameError {
    /// `a name has at most 20 characters`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a name {}", self.why)
    }
}

impl std::error::Error for NameError {}

/// A checked display name.
///
/// ```
/// use hostage_server::domain::names::DisplayName;
///
/// assert_eq!(DisplayName::parse("  Ada L. ").unwrap().as_str(), "Ada L.");
/// assert!(DisplayName::parse("<b>x</b>").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DisplayName(String);

impl DisplayName {
    /// Checks `text` against the policy above, trimming spaces at both ends.
    ///
    /// # Errors
    ///
    /// [`NameError`] (`invalid_name`), saying which rule was broken, with
    /// the text given.
    pub fn parse(text: &str) -> Result<DisplayName, NameError> {
        let trimmed = text.trim_matches(' ');
        let refuse = |why: &str| {
            Err(NameError {
                why: why.to_owned(),
                given: text.to_owned(),
            })
        };
        let chars = trimmed.chars().count();
        if chars == 0 {
            return refuse("needs at least one letter or digit");
        }
        if chars > MAX_NAME_CHARS {
            return refuse(&format!("has at most {MAX_NAME_CHARS} characters"));
        }
        if let Some(bad) = trimmed
            .chars()
            .find(|&c| !(c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.')))
        {
            return refuse(&format!(
                "has only letters, digits, spaces, '_', '-' and '.' (not {bad:?})"
            ));
        }
        if trimmed.contains("  ") {
            return refuse("has no two spaces in a row");
        }
        if !trimmed.chars().any(char::is_alphanumeric) {
            return refuse("needs at least one letter or digit");
        }
        Ok(DisplayName(trimmed.to_owned()))
    }

    /// The name.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DisplayName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for DisplayName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for DisplayName {
    /// Reads a name and checks it (for messages: a refused name is an
    /// `invalid_message` there; call [`DisplayName::parse`] on a plain
    /// string field to answer `invalid_name` instead).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DisplayName, D::Error> {
        let text = String::deserialize(d)?;
        DisplayName::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// How `name` is shown: itself, or [`ANONYMOUS`].
#[must_use]
pub fn shown(name: Option<&DisplayName>) -> &str {
    name.map_or(ANONYMOUS, DisplayName::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_letters_digits_and_a_few_marks_pass_trimmed() {
        for (given, kept) in [
            ("Ada", "Ada"),
            ("  Ada Lovelace  ", "Ada Lovelace"),
            ("kasparov_63", "kasparov_63"),
            ("J.-P. Müller", "J.-P. Müller"),
            ("Леслі", "Леслі"),
            ("将棋", "将棋"),
            ("a", "a"),
            ("abcdefghijklmnopqrst", "abcdefghijklmnopqrst"),
        ] {
            let name = DisplayName::parse(given).map_err(|e| e.to_string());
            assert_eq!(
                name.as_ref().map(DisplayName::as_str),
                Ok(kept),
                "{given:?}"
            );
        }
    }

    #[test]
    fn markup_controls_empty_long_and_odd_spacing_are_refused_with_the_text() {
        for given in [
            "",
            "   ",
            "<script>",
            "a&b",
            "quote\"",
            "tab\tname",
            "new\nline",
            "two  spaces",
            "abcdefghijklmnopqrstu",
            "...",
            "-_-",
            "smile 🙂",
            "zero\u{200b}width",
            "rtl\u{202e}mark",
        ] {
            let err = DisplayName::parse(given).expect_err(given);
            assert_eq!(err.code(), "invalid_name", "{given:?}");
            assert!(err.to_string().starts_with("a name "), "{err}");
            assert_eq!(err.given(), given);
        }
    }

    #[test]
    fn the_limit_counts_characters_not_bytes() {
        let twenty = "é".repeat(MAX_NAME_CHARS);
        assert!(DisplayName::parse(&twenty).is_ok());
        assert!(DisplayName::parse(&format!("{twenty}é")).is_err());
    }

    #[test]
    fn a_missing_name_is_shown_as_anonymous() {
        assert_eq!(shown(None), "Anonymous");
        let ada = DisplayName::parse("Ada").map_err(|e| e.to_string());
        assert_eq!(ada.as_ref().map(|n| shown(Some(n))), Ok("Ada"));
    }

    #[test]
    fn deserializing_checks_the_name() {
        let ok: Result<DisplayName, _> = serde_json::from_str("\" Ada \"");
        assert_eq!(
            ok.map(|n| n.0).map_err(|e| e.to_string()),
            Ok("Ada".to_owned())
        );
        let bad: Result<DisplayName, _> = serde_json::from_str("\"<i>\"");
        assert!(bad.is_err());
    }
}
