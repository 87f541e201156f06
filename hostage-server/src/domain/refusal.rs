//! A refused request: its stable code ([`ErrorCode`], `docs/protocol.md`,
//! Error codes) and the error the client gets ([`ProtoError`]). Every
//! decision of the domain that refuses says why with one of these; the
//! wire sends them as they are.

use std::fmt;

use serde::Serialize;

/// `given` in an error is cut to this many characters (the core's excerpt).
pub const GIVEN_MAX_CHARS: usize = hostage_core::Excerpt::MAX_CHARS;

/// The stable error codes (`docs/protocol.md`, Error codes).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// Not JSON.
    InvalidJson,
    /// JSON of the wrong shape.
    InvalidMessage,
    /// `v` missing or unsupported.
    UnsupportedVersion,
    /// `type` missing or unknown.
    UnknownType,
    /// A binary frame.
    BinaryFrame,
    /// Over the largest message accepted (`MAX_MESSAGE_BYTES` of the wire).
    MessageTooLarge,
    /// Flood control.
    RateLimited,
    /// Clock values out of bounds.
    InvalidClock,
    /// No such game.
    GameNotFound,
    /// The token is no seat of this game.
    InvalidToken,
    /// A seat action without a token.
    NotAPlayer,
    /// A rematch of a game that has not ended.
    GameNotOver,
    /// The other side is to move.
    NotYourTurn,
    /// A seat is still free.
    GameNotStarted,
    /// The game has ended.
    GameOver,
    /// The move text is not long form.
    InvalidMove,
    /// The move is not legal.
    IllegalMove,
    /// The ply is not the current one.
    PlyMismatch,
    /// Both seats are taken.
    GameFull,
    /// The seat asked for is taken.
    SeatTaken,
    /// This seat's draw offer already stands.
    DrawAlreadyOffered,
    /// No draw offer from the opponent.
    NoDrawOffer,
    /// The connection follows too many games.
    TooManyGames,
    /// A claim while the opponent is present or not gone long enough.
    ClaimTooEarly,
    /// `abort` once both sides have made their first move.
    CannotAbort,
    /// A display name that breaks the naming rules (`names.rs`).
    InvalidName,
    /// A chat line that breaks the rule of a line (`chat.rs`).
    InvalidChat,
    /// Chat lines posted faster than a seat may (`chat.rs`).
    ChatTooFast,
    /// The game's chat holds as many lines as it may (`chat.rs`).
    ChatFull,
    /// No open challenge with that id (never was, cancelled, or taken).
    ChallengeNotFound,
    /// Accepting one's own challenge.
    OwnChallenge,
    /// The connection or its address has as many open challenges as allowed.
    TooManyChallenges,
    /// Challenges made faster than the lobby allows.
    ChallengesTooFast,
    /// The lobby holds as many open challenges as allowed.
    LobbyFull,
    /// A rated challenge or seek from a guest, or a rated challenge taken
    /// by a guest or by its creator's own account.
    RatedNeedsAccounts,
    /// A rated challenge or seek without a clock.
    RatedNeedsClock,
    /// A rating range whose bounds are outside 0..=4000 or reversed.
    InvalidRatingRange,
    /// The challenge's rating range does not admit the accepter.
    OutOfRatingRange,
    /// `propose_takeback` with nothing of the proposer's to take back.
    NoTakeback,
    /// This seat's takeback request already stands.
    TakebackAlreadyOffered,
    /// No takeback request from the opponent stands.
    NoTakebackOffer,
    /// The database refused the write.
    StorageFailed,
    /// A bug.
    InternalError,
}

impl ErrorCode {
    /// The code as sent on the wire.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::InvalidMessage => "invalid_message",
            ErrorCode::UnsupportedVersion => "unsupported_version",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::BinaryFrame => "binary_frame",
            ErrorCode::MessageTooLarge => "message_too_large",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::InvalidClock => "invalid_clock",
            ErrorCode::GameNotFound => "game_not_found",
            ErrorCode::InvalidToken => "invalid_token",
            ErrorCode::NotAPlayer => "not_a_player",
            ErrorCode::GameNotOver => "game_not_over",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::GameNotStarted => "game_not_started",
            ErrorCode::GameOver => "game_over",
            ErrorCode::InvalidMove => "invalid_move",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::PlyMismatch => "ply_mismatch",
            ErrorCode::GameFull => "game_full",
            ErrorCode::SeatTaken => "seat_taken",
            ErrorCode::DrawAlreadyOffered => "draw_already_offered",
            ErrorCode::NoDrawOffer => "no_draw_offer",
            ErrorCode::TooManyGames => "too_many_games",
            ErrorCode::ClaimTooEarly => "claim_too_early",
            ErrorCode::CannotAbort => "cannot_abort",
            ErrorCode::InvalidName => "invalid_name",
            ErrorCode::InvalidChat => "invalid_chat",
            ErrorCode::ChatTooFast => "chat_too_fast",
            ErrorCode::ChatFull => "chat_full",
            ErrorCode::ChallengeNotFound => "challenge_not_found",
            ErrorCode::OwnChallenge => "own_challenge",
            ErrorCode::TooManyChallenges => "too_many_challenges",
            ErrorCode::ChallengesTooFast => "challenges_too_fast",
            ErrorCode::LobbyFull => "lobby_full",
            ErrorCode::RatedNeedsAccounts => "rated_needs_accounts",
            ErrorCode::RatedNeedsClock => "rated_needs_clock",
            ErrorCode::InvalidRatingRange => "invalid_rating_range",
            ErrorCode::OutOfRatingRange => "out_of_rating_range",
            ErrorCode::NoTakeback => "no_takeback",
            ErrorCode::TakebackAlreadyOffered => "takeback_already_offered",
            ErrorCode::NoTakebackOffer => "no_takeback_offer",
            ErrorCode::StorageFailed => "storage_failed",
            ErrorCode::InternalError => "internal_error",
        }
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused message: the `error` the client gets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ProtoError {
    /// The stable code.
    pub code: ErrorCode,
    /// What is wrong, for people.
    pub message: String,
    /// The offending input, shortened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given: Option<String>,
    /// The game concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The ply expected (`ply_mismatch`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<u64>,
    /// The versions spoken (`unsupported_version`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supported: Option<Vec<u64>>,
    /// Why the move is illegal (`illegal_move`): the code of the core's
    /// `IllegalReason` (`"wrong_way"`, `"leaves_king_in_check"`, ...), as
    /// the Python and JavaScript errors carry it.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "reason_code"
    )]
    pub reason: Option<hostage_core::IllegalReason>,
}

impl From<crate::domain::names::NameError> for ProtoError {
    /// `invalid_name`, with the rule broken and the text given.
    fn from(e: crate::domain::names::NameError) -> ProtoError {
        ProtoError::new(ErrorCode::InvalidName, e.to_string()).given(e.given())
    }
}

impl From<crate::domain::chat::ChatError> for ProtoError {
    /// `invalid_chat`, `chat_too_fast` or `chat_full`, with the text given
    /// (cut as every `given`).
    fn from(e: crate::domain::chat::ChatError) -> ProtoError {
        let code = match e.refusal {
            crate::domain::chat::ChatRefusal::TooFast => ErrorCode::ChatTooFast,
            crate::domain::chat::ChatRefusal::Full => ErrorCode::ChatFull,
            _ => ErrorCode::InvalidChat,
        };
        let error = ProtoError::new(code, e.why);
        match e.given {
            Some(given) => error.given(given),
            None => error,
        }
    }
}

/// An illegal move's reason as its stable code.
fn reason_code<S: serde::Serializer>(
    reason: &Option<hostage_core::IllegalReason>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match reason {
        Some(reason) => s.serialize_str(reason.code()),
        None => s.serialize_none(),
    }
}

impl ProtoError {
    /// An error with a code and a message.
    #[must_use]
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ProtoError {
        ProtoError {
            code,
            message: message.into(),
            given: None,
            game: None,
            expected: None,
            supported: None,
            reason: None,
        }
    }

    /// Adds why a move is illegal: its code in `reason`, its clause at the
    /// end of the message (as the core's own errors end).
    #[must_use]
    pub fn because(mut self, reason: Option<hostage_core::IllegalReason>) -> ProtoError {
        if let Some(reason) = reason {
            self.message = format!("{}: {reason}", self.message);
            self.reason = Some(reason);
        }
        self
    }

    /// Adds the offending input, shortened to [`GIVEN_MAX_CHARS`].
    #[must_use]
    pub fn given(mut self, given: impl AsRef<str>) -> ProtoError {
        self.given = Some(shorten(given.as_ref()));
        self
    }

    /// Adds the game concerned (shortened: it may be the client's text).
    #[must_use]
    pub fn in_game(mut self, game: &str) -> ProtoError {
        self.game = Some(shorten(game));
        self
    }
}

impl fmt::Display for ProtoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ProtoError {}

/// `text` cut to [`GIVEN_MAX_CHARS`] characters, with `…` when cut: the
/// core's [`Excerpt`](hostage_core::Excerpt), the one shortener of every crate.
#[must_use]
pub fn shorten(text: &str) -> String {
    hostage_core::Excerpt::new(text.as_bytes())
        .as_str()
        .to_string()
}
