//! Accounts: what a username, a password and an account are, and the
//! refusals of the account requests, each with a stable code
//! (`docs/protocol.md`, Accounts).
//!
//! Policy:
//! - A **username** follows the rule of display names (`names.rs`: 1 to 20
//!   letters, digits, spaces, `_`, `-`, `.`, trimmed, no markup, no control
//!   character), so a username can always stand as a player's name. Two
//!   usernames that differ only by case are one: the account is found by
//!   its key, the name in lower case ([`Username::key`]), and shown as it
//!   was typed at sign-up.
//! - A **password** is 8 to 128 characters (Unicode scalar values), any
//!   character but a control character (tab, newline, NUL, ... are refused:
//!   they cannot be typed alike everywhere and have no place in a secret
//!   typed into a form). It is never trimmed, changed or echoed: an error
//!   about a password never carries the text given.
//! - An account is **active** or **closed**. A closed account keeps its
//!   name (nobody else can take it) and its games, which show the name
//!   marked closed; it can no longer log in.
//!
//! The hashing of passwords is `account/password.rs`; the login throttle
//! is `account/throttle.rs`.

pub mod password;
pub mod throttle;

use std::fmt;

use crate::domain::names::{DisplayName, NameError};

/// The shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// The longest password, in characters (a longer one is refused before
/// any hashing: Argon2's cost does not depend on it, but the request's
/// size does).
pub const MAX_PASSWORD_CHARS: usize = 128;

/// A checked username: a display name, found without regard to case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Username {
    name: DisplayName,
    key: String,
}

impl Username {
    /// Checks `text` by the naming rule (`names.rs`).
    ///
    /// # Errors
    ///
    /// [`AccountError`] with the code `invalid_username`.
    pub fn parse(text: &str) -> Result<Username, AccountError> {
        let name = DisplayName::parse(text).map_err(|e: NameError| {
            AccountError::new(AccountRefusal::InvalidUsername, format!("a username: {e}"))
        })?;
        let key = Username::key_of(name.as_str());
        Ok(Username { name, key })
    }

    /// The name as typed (trimmed).
    #[must_use]
    pub fn as_str(&self) -> &str {
        self.name.as_str()
    }

    /// The name as a display name.
    #[must_use]
    pub fn display(&self) -> &DisplayName {
        &self.name
    }

    /// The key the account is found by: the name in lower case, so that
    /// `Ada` and `ADA` are one account.
    #[must_use]
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The key of a name as typed (any text: a login with a name that
    /// breaks the rule is looked up, and not found, like any other).
    #[must_use]
    pub fn key_of(text: &str) -> String {
        text.trim_matches(' ').to_lowercase()
    }
}

/// Checks a new password against the rule above.
///
/// # Errors
///
/// [`AccountError`] with the code `invalid_password`; the message says
/// which rule, never the text.
pub fn check_password(password: &str) -> Result<(), AccountError> {
    let refuse = |why: String| Err(AccountError::new(AccountRefusal::InvalidPassword, why));
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return refuse(format!(
            "a password has at least {MIN_PASSWORD_CHARS} characters"
        ));
    }
    if chars > MAX_PASSWORD_CHARS {
        return refuse(format!(
            "a password has at most {MAX_PASSWORD_CHARS} characters"
        ));
    }
    if password.chars().any(char::is_control) {
        return refuse("a password has no control character (tab, newline, ...)".into());
    }
    Ok(())
}

/// A logged-in player as the game service sees it: the account and the
/// name its seats get. Its seats are listed by the account store; a device
/// of the account joining one of its games gets a token of its own for the
/// seat (`room/devices.rs`), so no secret of the account's seats is kept
/// but as a digest. One account holds at most one seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatOwner {
    /// The account's id.
    pub account: String,
    /// The username, the name of every seat the account takes.
    pub name: DisplayName,
}

/// Whether an account can log in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AccountState {
    /// It can log in and play.
    Active,
    /// Closed by its owner: no login, the name kept and shown marked closed.
    Closed,
}

/// Why an account request was refused: the stable codes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AccountRefusal {
    /// The username breaks the naming rule.
    InvalidUsername,
    /// The username is taken (by any account, open or closed, in any case).
    UsernameTaken,
    /// The password breaks the rule of a password.
    InvalidPassword,
    /// No such user, or a wrong password: the two are answered alike.
    InvalidCredentials,
    /// Too many failed logins (or sign-ups) lately; retry later.
    TooManyAttempts,
    /// The request needs a session and has none (or an ended one).
    NotLoggedIn,
    /// A state-changing request or a WebSocket from another origin.
    OriginRefused,
    /// The body is not the JSON object the endpoint takes.
    InvalidRequest,
    /// The database failed.
    StorageFailed,
    /// A bug, or the random source failed.
    InternalError,
}

impl AccountRefusal {
    /// The code as sent.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            AccountRefusal::InvalidUsername => "invalid_username",
            AccountRefusal::UsernameTaken => "username_taken",
            AccountRefusal::InvalidPassword => "invalid_password",
            AccountRefusal::InvalidCredentials => "invalid_credentials",
            AccountRefusal::TooManyAttempts => "too_many_attempts",
            AccountRefusal::NotLoggedIn => "not_logged_in",
            AccountRefusal::OriginRefused => "origin_refused",
            AccountRefusal::InvalidRequest => "invalid_request",
            AccountRefusal::StorageFailed => "storage_failed",
            AccountRefusal::InternalError => "internal_error",
        }
    }
}

/// A refused account request: its code, a message for people, and for
/// `too_many_attempts` the seconds to wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountError {
    /// Why.
    pub refusal: AccountRefusal,
    /// What is wrong, for people (never a password).
    pub message: String,
    /// Seconds until a retry may succeed (`too_many_attempts`).
    pub retry_after_s: Option<u64>,
}

impl AccountError {
    /// An error with a code and a message.
    #[must_use]
    pub fn new(refusal: AccountRefusal, message: impl Into<String>) -> AccountError {
        AccountError {
            refusal,
            message: message.into(),
            retry_after_s: None,
        }
    }

    /// The stable code.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        self.refusal.code()
    }

    /// `invalid_credentials`: the one answer to a wrong name and a wrong
    /// password alike.
    #[must_use]
    pub fn invalid_credentials() -> AccountError {
        AccountError::new(
            AccountRefusal::InvalidCredentials,
            "the username or the password is wrong",
        )
    }

    /// `not_logged_in`.
    #[must_use]
    pub fn not_logged_in() -> AccountError {
        AccountError::new(
            AccountRefusal::NotLoggedIn,
            "this needs a session: log in first",
        )
    }
}

impl fmt::Display for AccountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message)
    }
}

impl std::error::Error for AccountError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_follow_the_naming_rule_and_ignore_case() {
        let ada = Username::parse("  Ada_L ").unwrap();
        assert_eq!(ada.as_str(), "Ada_L");
        assert_eq!(ada.key(), "ada_l");
        assert_eq!(Username::parse("ADA_L").unwrap().key(), ada.key());
        assert_eq!(Username::key_of(" ADA_l"), "ada_l");
        // Unicode's lower case, final sigma included (`str::to_lowercase`).
        assert_eq!(Username::parse("ΣΑΣ").unwrap().key(), "σας");
        assert_eq!(Username::parse("σας").unwrap().key(), "σας");
        for bad in [
            "",
            "   ",
            "<b>x</b>",
            "a\u{0}b",
            "a\nb",
            "\u{7}",
            "x".repeat(21).as_str(),
        ] {
            let e = Username::parse(bad).unwrap_err();
            assert_eq!(e.code(), "invalid_username", "{bad:?}");
        }
    }

    #[test]
    fn passwords_have_bounds_and_no_control_characters() {
        assert!(check_password("12345678").is_ok());
        assert!(check_password(&"é".repeat(128)).is_ok());
        assert!(check_password("with spaces and ünïcode").is_ok());
        for bad in [
            String::new(),
            "1234567".into(),
            "x".repeat(129),
            "password\n".into(),
            "pass\tword".into(),
            "pass\u{0}word".into(),
            "pass\u{7f}word".into(),
        ] {
            let e = check_password(&bad).unwrap_err();
            assert_eq!(e.code(), "invalid_password");
            assert!(!bad.is_empty() && !e.message.contains(&bad) || bad.is_empty());
        }
    }
}
