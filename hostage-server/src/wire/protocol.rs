//! The wire protocol, version 1 (`docs/protocol.md`): client requests,
//! server messages, error codes and limits.
//!
//! Policy: this module only turns text into typed requests and typed
//! messages into text. It never touches a game. Parsing is total: any input
//! gives either a [`Request`] or a [`ProtoError`] with a stable code, and the
//! offending input is repeated in `given`, cut to [`GIVEN_MAX_CHARS`]
//! characters. Unknown fields in requests are errors (a typo is not silently
//! ignored); clients ignore unknown fields in server messages (that is how
//! version 1 grows).

use hostage_core::Color;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::{Map, Value};

pub use crate::domain::refusal::{shorten, ErrorCode, ProtoError, GIVEN_MAX_CHARS};
use crate::domain::ClockReading;
pub use crate::domain::{ClockSpec, Status, CLOCK_INCREMENT_MS, CLOCK_INITIAL_MS};

/// The protocol version this server speaks.
pub const PROTOCOL_VERSION: u64 = 1;
/// Every protocol version this server accepts.
pub const SUPPORTED_VERSIONS: [u64; 1] = [PROTOCOL_VERSION];
/// The largest text message accepted, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 4096;
/// The largest WebSocket frame or message the socket layer reads at all;
/// larger ones close the connection (code 1009).
pub const MAX_FRAME_BYTES: usize = 65_536;
/// How many games one connection may follow at once.
pub const MAX_GAMES_PER_CONNECTION: usize = 16;
/// The longest request `id` string.
pub const MAX_ID_CHARS: usize = 64;
/// The largest numeric request `id` (2^53 - 1, exact in JavaScript).
pub const MAX_NUMERIC_ID: u64 = (1 << 53) - 1;

/// Colours on the wire: the core's [`Color`] as its name (`"white"`,
/// `"black"`), for `#[serde(with = "color")]`.
pub mod color {
    use hostage_core::Color;
    use serde::{de, Deserialize, Deserializer, Serializer};

    /// Writes [`Color::name`].
    ///
    /// # Errors
    ///
    /// The serializer's.
    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(c.name())
    }

    /// Reads a colour's name.
    ///
    /// # Errors
    ///
    /// Not `"white"` or `"black"`.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let name = String::deserialize(d)?;
        crate::domain::color_named(&name).ok_or_else(|| {
            de::Error::invalid_value(de::Unexpected::Str(&name), &"\"white\" or \"black\"")
        })
    }

    /// The same for an optional colour (`null` for none).
    pub mod opt {
        use hostage_core::Color;
        use serde::{Deserialize, Deserializer, Serializer};

        /// Writes [`Color::name`] or `null`.
        ///
        /// # Errors
        ///
        /// The serializer's.
        #[allow(clippy::ref_option)] // serde's `with` passes `&Option<T>`
        pub fn serialize<S: Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
            match c {
                Some(c) => super::serialize(c, s),
                None => s.serialize_none(),
            }
        }

        /// Reads a colour's name or `null`.
        ///
        /// # Errors
        ///
        /// Neither a colour's name nor `null`.
        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
            #[derive(Deserialize)]
            struct Named(#[serde(with = "super")] Color);
            Ok(Option::<Named>::deserialize(d)?.map(|n| n.0))
        }
    }
}

pub use crate::domain::ColorChoice;

pub mod encode;
pub mod lobby_wire;
pub mod ratings_wire;
pub(crate) mod strict;
pub mod time_control;

/// Checks a time control's bounds ([`CLOCK_INITIAL_MS`],
/// [`CLOCK_INCREMENT_MS`]).
///
/// # Errors
///
/// `invalid_clock`.
pub fn validate_clock(spec: &ClockSpec) -> Result<(), ProtoError> {
    if spec.in_bounds() {
        return Ok(());
    }
    Err(ProtoError::new(
        ErrorCode::InvalidClock,
        format!(
            "initial_ms must be {}..={} and increment_ms {}..={}",
            CLOCK_INITIAL_MS.0, CLOCK_INITIAL_MS.1, CLOCK_INCREMENT_MS.0, CLOCK_INCREMENT_MS.1
        ),
    )
    .given(format!("{}+{}", spec.initial_ms, spec.increment_ms)))
}

/// A client's request `id`, echoed in the direct answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum RequestId {
    /// A number, at most [`MAX_NUMERIC_ID`].
    Number(u64),
    /// A string of at most [`MAX_ID_CHARS`] characters.
    Text(String),
}

/// A client request, after parsing (`docs/protocol.md`, Client → server).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Request {
    /// Create a game and take a seat.
    Create {
        /// The seat wanted.
        color: ColorChoice,
        /// The time control, if any: Fischer clocks.
        clock: Option<ClockSpec>,
        /// Or days per move (correspondence); never both.
        days: Option<crate::domain::correspondence::Days>,
        /// The creator's display name, if given.
        name: Option<crate::domain::names::DisplayName>,
    },
    /// Take the free seat (or the one named).
    Join {
        /// Game id.
        game: String,
        /// The seat wanted, if any.
        color: Option<Color>,
        /// The player's display name, if given.
        name: Option<crate::domain::names::DisplayName>,
    },
    /// Post a line to a game's chat (a seated player; `chat.rs`).
    Chat {
        /// Game id.
        game: String,
        /// The seat's token (`None`: a spectator, refused).
        token: Option<String>,
        /// The line, checked by [`crate::domain::chat::checked_text`].
        text: String,
    },
    /// Follow a game as a spectator.
    Watch {
        /// Game id.
        game: String,
    },
    /// Stop following a game.
    Unwatch {
        /// Game id.
        game: String,
    },
    /// Come back to a seat after a lost connection.
    Resume {
        /// Game id.
        game: String,
        /// The seat's token.
        token: String,
    },
    /// Play a move.
    Move {
        /// Game id.
        game: String,
        /// The seat's token (`None`: a spectator).
        token: Option<String>,
        /// The move in long form.
        mv: String,
        /// The number of moves the client believes were played.
        ply: u64,
    },
    /// A seat action without arguments.
    Seat {
        /// Which.
        action: SeatAction,
        /// Game id.
        game: String,
        /// The seat's token (`None`: a spectator).
        token: Option<String>,
    },
    /// A new game against the same opponent, colours swapped (a seated
    /// player of a finished game).
    Rematch {
        /// The finished game's id.
        game: String,
        /// The seat's token (`None`: a spectator).
        token: Option<String>,
    },
    /// Keep-alive.
    Ping,
    /// A lobby request (`lobby.rs`; parsed by `lobby_wire.rs`).
    Lobby(crate::wire::protocol::lobby_wire::LobbyRequest),
}

/// The seat actions that carry only a game and a token.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SeatAction {
    /// Give up the game.
    Resign,
    /// Offer a draw (accepts the opponent's standing offer).
    OfferDraw,
    /// Accept the opponent's offer.
    AcceptDraw,
    /// Decline the opponent's offer.
    DeclineDraw,
    /// Claim the win: the opponent has been gone too long.
    ClaimWin,
    /// Claim a draw: the opponent has been gone too long.
    ClaimDraw,
    /// Call the game off, no result, before both sides have moved.
    Abort,
    /// Ask the opponent to take back the proposer's last move (and the
    /// opponent's reply, if it is the proposer's turn).
    ProposeTakeback,
    /// Accept the opponent's takeback request.
    AcceptTakeback,
    /// Decline the opponent's takeback request.
    DeclineTakeback,
}

/// A parsed request with its optional id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// The client's id, echoed in the answer.
    pub id: Option<RequestId>,
    /// The request.
    pub request: Request,
}

/// A message that did not parse: the error to send back, with the request
/// id when it could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The request id, if it was read before the error.
    pub id: Option<RequestId>,
    /// The error.
    pub error: ProtoError,
}

/// Parses one text message into a request.
///
/// # Errors
///
/// The [`Rejection`] to send back.
pub fn parse(text: &str) -> Result<Envelope, Box<Rejection>> {
    parse_inner(text).map_err(|(id, error)| Box::new(Rejection { id, error }))
}

#[allow(clippy::result_large_err)] // boxed once, by `parse`
fn parse_inner(text: &str) -> Result<Envelope, (Option<RequestId>, ProtoError)> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err((
            None,
            ProtoError::new(
                ErrorCode::MessageTooLarge,
                format!("a message may have at most {MAX_MESSAGE_BYTES} bytes"),
            )
            .given(text.len().to_string()),
        ));
    }
    let value = strict::parse(text).map_err(|e| {
        let error = match e {
            strict::Unread::Syntax(e) => {
                ProtoError::new(ErrorCode::InvalidJson, format!("not JSON: {e}"))
            }
            strict::Unread::Duplicate(e) => {
                ProtoError::new(ErrorCode::InvalidMessage, e.to_string())
            }
        };
        (None, error.given(text))
    })?;
    let Value::Object(mut map) = value else {
        return Err((
            None,
            ProtoError::new(ErrorCode::InvalidMessage, "a message is a JSON object").given(text),
        ));
    };
    let id = match map.remove("id") {
        None | Some(Value::Null) => None,
        Some(raw) => Some(request_id(&raw).ok_or_else(|| {
            (
                None,
                ProtoError::new(
                    ErrorCode::InvalidMessage,
                    format!(
                        "id must be an integer 0..={MAX_NUMERIC_ID} or a string of at most {MAX_ID_CHARS} characters"
                    ),
                )
                .given(raw.to_string()),
            )
        })?),
    };
    let fail = |e: ProtoError| (id.clone(), e);
    match map.remove("v") {
        Some(Value::Number(n)) if n.as_u64() == Some(PROTOCOL_VERSION) => {}
        other => {
            let mut e = ProtoError::new(
                ErrorCode::UnsupportedVersion,
                "every message needs \"v\": 1 (the protocol version)",
            );
            e.supported = Some(SUPPORTED_VERSIONS.to_vec());
            if let Some(v) = other {
                e = e.given(v.to_string());
            }
            return Err(fail(e));
        }
    }
    let kind = match map.remove("type") {
        Some(Value::String(kind)) => kind,
        other => {
            let e = ProtoError::new(ErrorCode::UnknownType, "\"type\" must name a message type");
            return Err(fail(match other {
                Some(v) => e.given(v.to_string()),
                None => e,
            }));
        }
    };
    let request = request(&kind, map).map_err(fail)?;
    Ok(Envelope { id, request })
}

fn request_id(raw: &Value) -> Option<RequestId> {
    match raw {
        Value::Number(n) => n
            .as_u64()
            .filter(|&n| n <= MAX_NUMERIC_ID)
            .map(RequestId::Number),
        Value::String(s) if s.chars().count() <= MAX_ID_CHARS => Some(RequestId::Text(s.clone())),
        _ => None,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateFields {
    #[serde(deserialize_with = "strict::named")]
    color: ColorChoice,
    #[serde(default, deserialize_with = "strict::optional_object")]
    clock: Option<time_control::ClockField>,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinFields {
    game: String,
    #[serde(default, with = "color::opt")]
    color: Option<Color>,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatFields {
    game: String,
    #[serde(default)]
    token: Option<String>,
    text: String,
}

/// A `name` field checked by the one naming rule (`invalid_name`).
fn checked_name(
    name: Option<String>,
) -> Result<Option<crate::domain::names::DisplayName>, ProtoError> {
    Ok(name
        .as_deref()
        .map(crate::domain::names::DisplayName::parse)
        .transpose()?)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFields {
    game: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResumeFields {
    game: String,
    token: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveFields {
    game: String,
    #[serde(default)]
    token: Option<String>,
    #[serde(rename = "move")]
    mv: String,
    ply: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatFields {
    game: String,
    #[serde(default)]
    token: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoFields {}

/// The request types, for error messages.
const TYPES: &str = "create, join, watch, unwatch, resume, move, resign, offer_draw, accept_draw, decline_draw, claim_win, claim_draw, abort, propose_takeback, accept_takeback, decline_takeback, rematch, chat, ping, lobby_watch, lobby_unwatch, lobby_seek, challenge_create, challenge_cancel, challenge_accept";

fn request(kind: &str, fields: Map<String, Value>) -> Result<Request, ProtoError> {
    let seat = |action, fields| {
        let f: SeatFields = fields_of(kind, fields)?;
        Ok(Request::Seat {
            action,
            game: f.game,
            token: f.token,
        })
    };
    match kind {
        "create" => {
            let f: CreateFields = fields_of(kind, fields)?;
            let (clock, days) = time_control::checked(f.clock)?;
            Ok(Request::Create {
                color: f.color,
                clock,
                days,
                name: checked_name(f.name)?,
            })
        }
        "join" => {
            let f: JoinFields = fields_of(kind, fields)?;
            Ok(Request::Join {
                game: f.game,
                color: f.color,
                name: checked_name(f.name)?,
            })
        }
        "chat" => {
            let f: ChatFields = fields_of(kind, fields)?;
            Ok(Request::Chat {
                game: f.game,
                token: f.token,
                text: crate::domain::chat::checked_text(&f.text)?,
            })
        }
        "watch" => Ok(Request::Watch {
            game: fields_of::<GameFields>(kind, fields)?.game,
        }),
        "unwatch" => Ok(Request::Unwatch {
            game: fields_of::<GameFields>(kind, fields)?.game,
        }),
        "resume" => {
            let f: ResumeFields = fields_of(kind, fields)?;
            Ok(Request::Resume {
                game: f.game,
                token: f.token,
            })
        }
        "move" => {
            let f: MoveFields = fields_of(kind, fields)?;
            Ok(Request::Move {
                game: f.game,
                token: f.token,
                mv: f.mv,
                ply: f.ply,
            })
        }
        "resign" => seat(SeatAction::Resign, fields),
        "offer_draw" => seat(SeatAction::OfferDraw, fields),
        "accept_draw" => seat(SeatAction::AcceptDraw, fields),
        "decline_draw" => seat(SeatAction::DeclineDraw, fields),
        "claim_win" => seat(SeatAction::ClaimWin, fields),
        "claim_draw" => seat(SeatAction::ClaimDraw, fields),
        "abort" => seat(SeatAction::Abort, fields),
        "propose_takeback" => seat(SeatAction::ProposeTakeback, fields),
        "accept_takeback" => seat(SeatAction::AcceptTakeback, fields),
        "decline_takeback" => seat(SeatAction::DeclineTakeback, fields),
        "rematch" => {
            let f: SeatFields = fields_of(kind, fields)?;
            Ok(Request::Rematch {
                game: f.game,
                token: f.token,
            })
        }
        "ping" => {
            fields_of::<NoFields>(kind, fields)?;
            Ok(Request::Ping)
        }
        kind if crate::wire::protocol::lobby_wire::is_lobby_type(kind) => Ok(Request::Lobby(
            crate::wire::protocol::lobby_wire::request(kind, fields)?,
        )),
        _ => Err(ProtoError::new(
            ErrorCode::UnknownType,
            format!("unknown message type (known: {TYPES})"),
        )
        .given(kind)),
    }
}

pub(crate) fn fields_of<T: DeserializeOwned>(
    kind: &str,
    fields: Map<String, Value>,
) -> Result<T, ProtoError> {
    let given = Value::Object(fields.clone()).to_string();
    serde_json::from_value(Value::Object(fields)).map_err(|e| {
        ProtoError::new(ErrorCode::InvalidMessage, format!("{kind}: {e}")).given(given)
    })
}

/// Each side's remaining time and the running clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Clocks {
    /// White's remaining time, in milliseconds.
    pub white_ms: u64,
    /// Black's remaining time, in milliseconds.
    pub black_ms: u64,
    /// The side whose clock runs, if any.
    #[serde(with = "color::opt")]
    pub running: Option<Color>,
}

impl From<ClockReading> for Clocks {
    fn from(r: ClockReading) -> Clocks {
        Clocks {
            white_ms: r.remaining.white,
            black_ms: r.remaining.black,
            running: r.running,
        }
    }
}

/// One move of a game's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveEntry {
    /// 0 for White's first move.
    pub ply: u64,
    /// Long form.
    #[serde(rename = "move")]
    pub mv: String,
    /// SAN.
    pub san: String,
    /// The mover.
    #[serde(with = "color")]
    pub by: Color,
}

/// Which seats are taken.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seats {
    /// White's seat is taken.
    pub white: bool,
    /// Black's seat is taken.
    pub black: bool,
}

/// Each seat's display name (`None`: none given, shown as the app likes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Names {
    /// White's name.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
}

/// One line of a game's chat, as `chat` and `state` carry it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatEntry {
    /// Its place in the game's chat, from 0.
    pub index: u64,
    /// The seat that wrote it.
    #[serde(with = "color")]
    pub by: Color,
    /// The text (plain text: never to be read as markup).
    pub text: String,
    /// When it was stored, milliseconds since the Unix epoch.
    pub at_ms: u64,
}

impl From<&crate::domain::chat::ChatLine> for ChatEntry {
    fn from(l: &crate::domain::chat::ChatLine) -> ChatEntry {
        ChatEntry {
            index: l.index,
            by: l.by,
            text: l.text.clone(),
            at_ms: l.at_ms,
        }
    }
}

/// A whole game as a client sees it (`state`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct GameState {
    /// Game id.
    pub game: String,
    /// The recipient's seat, or `None` for a spectator.
    #[serde(with = "color::opt")]
    pub you: Option<Color>,
    /// The start position.
    pub start_fen: String,
    /// The current position.
    pub fen: String,
    /// The moves played.
    pub moves: Vec<MoveEntry>,
    /// The number of moves played.
    pub ply: u64,
    /// The side to move.
    #[serde(with = "color")]
    pub turn: Color,
    /// Waiting, active or finished.
    pub status: Status,
    /// Which seats are taken.
    pub seats: Seats,
    /// The time control (`None`: untimed): Fischer clocks or days per move.
    pub clock: Option<time_control::TimeControl>,
    /// The clocks now (`None`: untimed, or correspondence).
    pub clocks: Option<Clocks>,
    /// In a correspondence game that goes on, when the side to move must
    /// have moved, milliseconds since the Unix epoch (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
    /// The milliseconds left until [`GameState::deadline_ms`] when the
    /// state was sent (absent with it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline_left_ms: Option<u64>,
    /// A standing draw offer, by whom.
    #[serde(with = "color::opt")]
    pub draw_offer: Option<Color>,
    /// A standing takeback request, by whom.
    #[serde(with = "color::opt")]
    pub takeback: Option<Color>,
    /// The milliseconds the side to move has left for its first move (a
    /// timed game before both first moves), else `None`.
    pub first_move_ms: Option<u64>,
    /// The rematch of this finished game, once a player asked for one.
    pub rematch: Option<String>,
    /// `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`.
    pub result: &'static str,
    /// How the game ended, if it has.
    pub termination: Option<&'static str>,
    /// The winner, if any.
    #[serde(with = "color::opt")]
    pub winner: Option<Color>,
    /// Each seat's display name.
    pub names: Names,
    /// When the game was created, milliseconds since the Unix epoch (for
    /// the PGN's `Date`, `UTCDate` and `UTCTime`).
    pub created_ms: u64,
    /// The game's chat, oldest first.
    pub chat: Vec<ChatEntry>,
    /// `true` for a rated game (absent for an unrated one).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// A rated game's players' ratings as it began (absent if unrated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratings: Option<ratings_wire::PerSeat<ratings_wire::ShownRating>>,
    /// A rated game's rating changes, once it is over (absent before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_changes: Option<ratings_wire::PerSeat<ratings_wire::ChangeView>>,
}

/// The limits announced in `hello`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Limits {
    /// [`MAX_MESSAGE_BYTES`].
    pub max_message_bytes: usize,
    /// Messages allowed in a burst.
    pub burst: u32,
    /// Messages per second, sustained.
    pub per_second: u32,
    /// [`MAX_GAMES_PER_CONNECTION`].
    pub max_games_per_connection: usize,
    /// [`MAX_FRAME_BYTES`].
    pub max_frame_bytes: usize,
    /// A connection that follows no game and sends nothing for this long
    /// is closed.
    pub idle_timeout_ms: u64,
    /// Open WebSocket connections allowed from one address.
    pub max_connections_per_address: usize,
    /// Unread messages queued for a client before it is dropped.
    pub max_queued_messages: usize,
    /// Unread bytes queued for a client before it is dropped.
    pub max_queued_bytes: usize,
    /// How long an opponent must be gone before `claim_win`/`claim_draw`.
    pub abandon_after_ms: u64,
    /// How long each side has for its first move in a timed game.
    pub first_move_ms: u64,
}

/// A server message (`docs/protocol.md`, Server → client).
#[allow(clippy::large_enum_variant)] // built once per send and serialized at once
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Message {
    /// On connect.
    Hello {
        /// `hostage/<version>`.
        server: &'static str,
        /// [`SUPPORTED_VERSIONS`].
        protocol: [u64; 1],
        /// The limits in force.
        limits: Limits,
    },
    /// A game was created; the creator's seat.
    Created {
        /// Game id.
        game: String,
        /// The creator's secret.
        token: String,
        /// The creator's seat.
        #[serde(with = "color")]
        color: Color,
        /// The link to share.
        link: String,
    },
    /// A seat was taken.
    Joined {
        /// Game id.
        game: String,
        /// The secret of the seat.
        token: String,
        /// The seat.
        #[serde(with = "color")]
        color: Color,
        /// The link to share.
        link: String,
    },
    /// A seat was taken back.
    Resumed {
        /// Game id.
        game: String,
        /// The seat.
        #[serde(with = "color")]
        color: Color,
    },
    /// Following as a spectator.
    Watching {
        /// Game id.
        game: String,
    },
    /// No longer following.
    Unwatched {
        /// Game id.
        game: String,
    },
    /// The whole game.
    State(GameState),
    /// The second seat was taken: the game starts.
    PlayerJoined {
        /// Game id.
        game: String,
        /// The seat taken.
        #[serde(with = "color")]
        color: Color,
        /// The clocks (`None`: untimed).
        clocks: Option<Clocks>,
        /// The player's display name, if given.
        name: Option<String>,
        /// In a correspondence game that goes on, when the side to move
        /// must have moved, milliseconds since the Unix epoch (absent
        /// otherwise).
        #[serde(skip_serializing_if = "Option::is_none")]
        deadline_ms: Option<u64>,
    },
    /// A line of the game's chat was stored.
    Chat {
        /// Game id.
        game: String,
        /// The line.
        #[serde(flatten)]
        line: ChatEntry,
    },
    /// A move was stored.
    Moved {
        /// Game id.
        game: String,
        /// Its ply.
        ply: u64,
        /// Long form.
        #[serde(rename = "move")]
        mv: String,
        /// SAN.
        san: String,
        /// The position after it.
        fen: String,
        /// The mover.
        #[serde(with = "color")]
        by: Color,
        /// The clocks after it.
        clocks: Option<Clocks>,
        /// A standing draw offer after it (always `None`: a move withdraws offers).
        #[serde(with = "color::opt")]
        draw_offer: Option<Color>,
        /// The side whose standing draw offer this move withdrew, if any.
        #[serde(with = "color::opt", skip_serializing_if = "Option::is_none")]
        draw_offer_withdrawn: Option<Color>,
        /// The side whose standing takeback request this move withdrew, if any.
        #[serde(with = "color::opt", skip_serializing_if = "Option::is_none")]
        takeback_withdrawn: Option<Color>,
        /// A repeated acknowledgement of a stored move.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        duplicate: bool,
        /// In a correspondence game that goes on, when the side to move
        /// must have moved, milliseconds since the Unix epoch (absent
        /// otherwise).
        #[serde(skip_serializing_if = "Option::is_none")]
        deadline_ms: Option<u64>,
    },
    /// A draw was offered.
    DrawOffered {
        /// Game id.
        game: String,
        /// The side offering.
        #[serde(with = "color")]
        by: Color,
    },
    /// The requester's seat in the rematch (made, joined, or already held).
    Rematched {
        /// The rematch's id.
        game: String,
        /// The seat's token.
        token: String,
        /// The seat.
        #[serde(with = "color")]
        color: Color,
        /// The rematch's link.
        link: String,
        /// The finished game it follows.
        rematch_of: String,
    },
    /// A player asked for a rematch of this finished game.
    RematchOffered {
        /// The finished game's id.
        game: String,
        /// The rematch's id.
        rematch: String,
    },
    /// A draw offer was declined.
    DrawDeclined {
        /// Game id.
        game: String,
        /// The side declining.
        #[serde(with = "color")]
        by: Color,
    },
    /// A player asks to take moves back (`docs/protocol.md`, Takebacks).
    TakebackOffered {
        /// Game id.
        game: String,
        /// The side asking.
        #[serde(with = "color")]
        by: Color,
        /// How many plies accepting would take back (1 or 2).
        plies: u64,
    },
    /// A takeback request was declined.
    TakebackDeclined {
        /// Game id.
        game: String,
        /// The side declining.
        #[serde(with = "color")]
        by: Color,
    },
    /// A takeback request was accepted: the last `plies` moves are gone.
    TakenBack {
        /// Game id.
        game: String,
        /// The side whose request it was.
        #[serde(with = "color")]
        by: Color,
        /// How many plies were taken back.
        plies: u64,
        /// The number of moves played now.
        ply: u64,
        /// The position now.
        fen: String,
        /// The clocks now.
        clocks: Option<Clocks>,
        /// The side whose standing draw offer the takeback withdrew, if any.
        #[serde(with = "color::opt", skip_serializing_if = "Option::is_none")]
        draw_offer_withdrawn: Option<Color>,
        /// In a correspondence game that goes on, when the side to move
        /// must have moved, milliseconds since the Unix epoch (absent
        /// otherwise).
        #[serde(skip_serializing_if = "Option::is_none")]
        deadline_ms: Option<u64>,
    },
    /// The game ended.
    GameOver {
        /// Game id.
        game: String,
        /// `"1-0"`, `"0-1"` or `"1/2-1/2"`.
        result: &'static str,
        /// How.
        termination: &'static str,
        /// The winner, if any.
        #[serde(with = "color::opt")]
        winner: Option<Color>,
        /// The clocks at the end.
        clocks: Option<Clocks>,
        /// A rated game's rating changes (absent for an unrated game).
        #[serde(skip_serializing_if = "Option::is_none")]
        ratings: Option<ratings_wire::PerSeat<ratings_wire::ChangeView>>,
    },
    /// No connection follows the game from the seat `color` any more.
    OpponentGone {
        /// Game id.
        game: String,
        /// The seat gone.
        #[serde(with = "color")]
        color: Color,
        /// Milliseconds from now until `claim_win`/`claim_draw` is accepted.
        claim_after_ms: u64,
    },
    /// The seat `color`, told gone, follows the game again.
    OpponentBack {
        /// Game id.
        game: String,
        /// The seat back.
        #[serde(with = "color")]
        color: Color,
    },
    /// After `ping`.
    Pong,
    /// The open challenges, after `lobby_watch` (oldest first).
    Lobby {
        /// At most the lobby's cap of them.
        challenges: Vec<crate::wire::protocol::lobby_wire::ChallengeView>,
    },
    /// No longer watching the lobby.
    LobbyUnwatched,
    /// A challenge was opened (to lobby watchers).
    ChallengeAdded {
        /// The challenge.
        challenge: crate::wire::protocol::lobby_wire::ChallengeView,
    },
    /// A challenge left the list: cancelled, accepted, or its creator left
    /// (to lobby watchers, and to its creator).
    ChallengeRemoved {
        /// Its id.
        challenge: String,
    },
    /// The requester's challenge is open.
    ChallengeCreated {
        /// The challenge.
        challenge: crate::wire::protocol::lobby_wire::ChallengeView,
    },
    /// The requester's challenge was cancelled.
    ChallengeCancelled {
        /// Its id.
        challenge: String,
    },
    /// The creator's challenge was accepted: `joined` and `state` follow.
    ChallengeAccepted {
        /// Its id.
        challenge: String,
        /// The game it became.
        game: String,
    },
    /// A refused message.
    Error(ProtoError),
}

#[derive(Serialize)]
struct Out<'a> {
    v: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a RequestId>,
    #[serde(flatten)]
    message: &'a Message,
}

impl Message {
    /// The message as JSON text, with `v` and the request id if any.
    #[must_use]
    pub fn to_text(&self, id: Option<&RequestId>) -> String {
        let out = Out {
            v: PROTOCOL_VERSION,
            id,
            message: self,
        };
        // Serializing these plain types cannot fail (no maps with non-string
        // keys, no failing Serialize impls); a failure is still an answer.
        serde_json::to_string(&out).unwrap_or_else(|e| {
            format!(
                r#"{{"v":1,"type":"error","code":"internal_error","message":{}}}"#,
                Value::String(e.to_string())
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> ErrorCode {
        parse(text).unwrap_err().error.code
    }

    #[test]
    fn parses_every_request() {
        let e = parse(r#"{"v":1,"type":"create","color":"random","clock":{"initial_ms":60000,"increment_ms":0},"id":3}"#).unwrap();
        assert_eq!(e.id, Some(RequestId::Number(3)));
        assert_eq!(
            e.request,
            Request::Create {
                color: ColorChoice::Random,
                days: None,
                clock: Some(ClockSpec {
                    initial_ms: 60000,
                    increment_ms: 0
                }),
                name: None,
            }
        );
        // Names and chat: checked when parsed.
        let e = parse(r#"{"v":1,"type":"join","game":"g","name":" Ada "}"#).unwrap();
        assert!(matches!(&e.request, Request::Join { name: Some(n), .. } if n.as_str() == "Ada"));
        let e =
            parse(r#"{"v":1,"type":"chat","game":"g","token":"t","text":"  <b>hi</b> "}"#).unwrap();
        assert!(matches!(&e.request, Request::Chat { text, .. } if text == "<b>hi</b>"));
        for (bad, want) in [
            (
                r#"{"v":1,"type":"create","color":"white","name":"<b>x</b>"}"#,
                ErrorCode::InvalidName,
            ),
            (
                r#"{"v":1,"type":"create","color":"white","name":"a\u0000b"}"#,
                ErrorCode::InvalidName,
            ),
            (
                r#"{"v":1,"type":"join","game":"g","name":"abcdefghijklmnopqrstu"}"#,
                ErrorCode::InvalidName,
            ),
            (
                r#"{"v":1,"type":"join","game":"g","name":7}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"chat","game":"g","text":""}"#,
                ErrorCode::InvalidChat,
            ),
            (
                r#"{"v":1,"type":"chat","game":"g","text":"a\nb"}"#,
                ErrorCode::InvalidChat,
            ),
            (
                r#"{"v":1,"type":"chat","game":"g","text":5}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"chat","game":"g"}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"chat","game":"g","text":"x","color":"white"}"#,
                ErrorCode::InvalidMessage,
            ),
        ] {
            assert_eq!(code(bad), want, "{bad}");
        }
        let long = format!(
            r#"{{"v":1,"type":"chat","game":"g","text":"{}"}}"#,
            "x".repeat(141)
        );
        assert_eq!(code(&long), ErrorCode::InvalidChat);
        let e =
            parse(r#"{"v":1,"type":"move","game":"g","token":"t","move":"e2e4","ply":0,"id":"a"}"#)
                .unwrap();
        assert_eq!(e.id, Some(RequestId::Text("a".into())));
        assert!(matches!(e.request, Request::Move { ply: 0, .. }));
        assert_eq!(
            parse(r#"{"v":1,"type":"resign","game":"g"}"#)
                .unwrap()
                .request,
            Request::Seat {
                action: SeatAction::Resign,
                game: "g".into(),
                token: None
            }
        );
        assert_eq!(
            parse(r#"{"v":1,"type":"ping"}"#).unwrap().request,
            Request::Ping
        );
        assert!(parse(r#"{"v":1,"type":"create","color":"white","clock":null}"#).is_ok());
    }

    #[test]
    fn rejects_with_stable_codes() {
        assert_eq!(code("nope"), ErrorCode::InvalidJson);
        assert_eq!(code("[1]"), ErrorCode::InvalidMessage);
        assert_eq!(code(r#"{"type":"ping"}"#), ErrorCode::UnsupportedVersion);
        assert_eq!(
            code(r#"{"v":2,"type":"ping"}"#),
            ErrorCode::UnsupportedVersion
        );
        assert_eq!(
            code(r#"{"v":"1","type":"ping"}"#),
            ErrorCode::UnsupportedVersion
        );
        assert_eq!(code(r#"{"v":1}"#), ErrorCode::UnknownType);
        assert_eq!(code(r#"{"v":1,"type":"fly"}"#), ErrorCode::UnknownType);
        assert_eq!(
            code(r#"{"v":1,"type":"ping","x":1}"#),
            ErrorCode::InvalidMessage
        );
        assert_eq!(
            code(r#"{"v":1,"type":"move","game":"g","move":"e2e4"}"#),
            ErrorCode::InvalidMessage
        );
        assert_eq!(
            code(r#"{"v":1,"type":"move","game":"g","move":"e2e4","ply":-1}"#),
            ErrorCode::InvalidMessage
        );
        assert_eq!(
            code(r#"{"v":1,"type":"create","color":"green"}"#),
            ErrorCode::InvalidMessage
        );
        assert_eq!(
            code(
                r#"{"v":1,"type":"create","color":"white","clock":{"initial_ms":5,"increment_ms":0}}"#
            ),
            ErrorCode::InvalidClock
        );
        assert_eq!(
            code(r#"{"v":1,"type":"ping","id":-4}"#),
            ErrorCode::InvalidMessage
        );
        assert_eq!(
            code(&"x".repeat(MAX_MESSAGE_BYTES + 1)),
            ErrorCode::MessageTooLarge
        );
    }

    #[test]
    fn the_id_is_kept_on_later_errors() {
        let r = parse(r#"{"v":1,"type":"fly","id":9}"#).unwrap_err();
        assert_eq!(r.id, Some(RequestId::Number(9)));
        assert_eq!(r.error.given.as_deref(), Some("fly"));
    }

    #[test]
    fn given_is_shortened() {
        let long = "é".repeat(200);
        let s = shorten(&long);
        assert_eq!(s.chars().count(), GIVEN_MAX_CHARS + 1);
        assert!(s.ends_with('…'));
        assert_eq!(shorten("abc"), "abc");
    }

    #[test]
    fn messages_carry_v_type_and_id() {
        let text = Message::Pong.to_text(Some(&RequestId::Number(5)));
        assert_eq!(text, r#"{"v":1,"id":5,"type":"pong"}"#);
        let e = Message::Error(ProtoError::new(ErrorCode::GameFull, "full").in_game("g"));
        assert_eq!(
            e.to_text(None),
            r#"{"v":1,"type":"error","code":"game_full","message":"full","game":"g"}"#
        );
    }
}
