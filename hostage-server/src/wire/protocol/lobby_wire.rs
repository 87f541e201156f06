//! The lobby's part of the wire (`docs/protocol.md`, Lobby): its requests,
//! their parsing, and a challenge as clients see it.
//!
//! Policy: as `protocol.rs`, parsing is total and typed: a wrong shape is
//! `invalid_message`, a clock out of bounds `invalid_clock`, a name that
//! breaks the naming rule `invalid_name` (checked by `names.rs`, the one
//! rule), in that order. A challenge shown to clients carries no secret:
//! not its creator's connection, server or seat token.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{
    domain::correspondence::Days,
    domain::lobby::{Challenge, RatingRange},
    domain::names::{self, DisplayName},
    domain::ClockSpec,
    wire::protocol::time_control::{checked, ClockField, TimeControl},
    wire::protocol::{fields_of, ColorChoice, ErrorCode, ProtoError},
};

/// A lobby request, after parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LobbyRequest {
    /// `lobby_watch`: the list now, then each change.
    Watch,
    /// `lobby_unwatch`: no more changes.
    Unwatch,
    /// `challenge_create`: open a challenge.
    Create {
        /// The creator's name, if given.
        name: Option<DisplayName>,
        /// The creator's seat.
        color: ColorChoice,
        /// The time control, if any.
        clock: Option<ClockSpec>,
        /// Or days per move (correspondence).
        days: Option<Days>,
        /// A rated challenge (`rated`, default false).
        rated: bool,
        /// The opponents' ratings accepted (`rating_range`).
        range: Option<RatingRange>,
    },
    /// `challenge_cancel`: withdraw one's own challenge.
    Cancel {
        /// Its id.
        challenge: String,
    },
    /// `challenge_accept`: take the other seat of a challenge.
    Accept {
        /// Its id.
        challenge: String,
        /// The accepter's name, if given.
        name: Option<DisplayName>,
    },
    /// `lobby_seek`: quick pairing, accept an open challenge with this time
    /// control or open one.
    Seek {
        /// The player's name, if given.
        name: Option<DisplayName>,
        /// The time control, if any.
        clock: Option<ClockSpec>,
        /// Or days per move (correspondence).
        days: Option<Days>,
        /// A rated seek (`rated`, default false).
        rated: bool,
        /// The opponents' ratings accepted (`rating_range`).
        range: Option<RatingRange>,
    },
}

/// Whether `kind` is a lobby request type.
#[must_use]
pub fn is_lobby_type(kind: &str) -> bool {
    matches!(
        kind,
        "lobby_watch"
            | "lobby_unwatch"
            | "lobby_seek"
            | "challenge_create"
            | "challenge_cancel"
            | "challenge_accept"
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoFields {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateFields {
    #[serde(default)]
    name: Option<String>,
    #[serde(deserialize_with = "crate::wire::protocol::strict::named")]
    color: ColorChoice,
    #[serde(
        default,
        deserialize_with = "crate::wire::protocol::strict::optional_object"
    )]
    clock: Option<ClockField>,
    #[serde(default)]
    rated: bool,
    #[serde(
        default,
        deserialize_with = "crate::wire::protocol::strict::optional_object"
    )]
    rating_range: Option<RangeFields>,
}

/// `rating_range`: both bounds, inclusive.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangeFields {
    min: u32,
    max: u32,
}

/// The highest bound a rating range may name (ratings stay within
/// 400..=4000).
pub const MAX_RATING_BOUND: u32 = 4000;

fn checked_range(range: Option<RangeFields>) -> Result<Option<RatingRange>, ProtoError> {
    let Some(RangeFields { min, max }) = range else {
        return Ok(None);
    };
    if min > max || max > MAX_RATING_BOUND {
        return Err(ProtoError::new(
            ErrorCode::InvalidRatingRange,
            format!("rating_range needs min <= max <= {MAX_RATING_BOUND}"),
        )
        .given(format!("{min}-{max}")));
    }
    Ok(Some(RatingRange { min, max }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChallengeFields {
    challenge: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AcceptFields {
    challenge: String,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeekFields {
    #[serde(default)]
    name: Option<String>,
    #[serde(
        default,
        deserialize_with = "crate::wire::protocol::strict::optional_object"
    )]
    clock: Option<ClockField>,
    #[serde(default)]
    rated: bool,
    #[serde(
        default,
        deserialize_with = "crate::wire::protocol::strict::optional_object"
    )]
    rating_range: Option<RangeFields>,
}

/// A name field checked by the one naming rule.
fn checked_name(name: Option<String>) -> Result<Option<DisplayName>, ProtoError> {
    Ok(name.as_deref().map(DisplayName::parse).transpose()?)
}

/// Parses the fields of the lobby request `kind` ([`is_lobby_type`]).
///
/// # Errors
///
/// `invalid_message`, `invalid_clock`, `invalid_name`.
pub fn request(kind: &str, fields: Map<String, Value>) -> Result<LobbyRequest, ProtoError> {
    Ok(match kind {
        "lobby_watch" => {
            fields_of::<NoFields>(kind, fields)?;
            LobbyRequest::Watch
        }
        "lobby_unwatch" => {
            fields_of::<NoFields>(kind, fields)?;
            LobbyRequest::Unwatch
        }
        "challenge_create" => {
            let f: CreateFields = fields_of(kind, fields)?;
            let (clock, days) = checked(f.clock)?;
            LobbyRequest::Create {
                name: checked_name(f.name)?,
                color: f.color,
                clock,
                days,
                rated: f.rated,
                range: checked_range(f.rating_range)?,
            }
        }
        "challenge_cancel" => LobbyRequest::Cancel {
            challenge: fields_of::<ChallengeFields>(kind, fields)?.challenge,
        },
        "challenge_accept" => {
            let f: AcceptFields = fields_of(kind, fields)?;
            LobbyRequest::Accept {
                challenge: f.challenge,
                name: checked_name(f.name)?,
            }
        }
        _ => {
            let f: SeekFields = fields_of(kind, fields)?;
            let (clock, days) = checked(f.clock)?;
            LobbyRequest::Seek {
                name: checked_name(f.name)?,
                clock,
                days,
                rated: f.rated,
                range: checked_range(f.rating_range)?,
            }
        }
    })
}

/// A challenge as clients see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChallengeView {
    /// Its id.
    pub id: String,
    /// The creator's name, or `Anonymous`.
    pub name: String,
    /// The creator's seat: `white`, `black` or `random`.
    pub color: ColorChoice,
    /// The time control (`null`: untimed).
    pub clock: Option<TimeControl>,
    /// When it was made, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Whether the game will be rated.
    pub rated: bool,
    /// The creator's rating in the challenge's category (`None`: a guest,
    /// or untimed).
    pub rating: Option<ShownRating>,
    /// The opponents' ratings the challenge accepts (`None`: any).
    pub rating_range: Option<RangeView>,
}

/// A rating as shown beside a name: rounded, and whether provisional
/// (lichess writes `1500?`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownRating {
    /// The rating, rounded.
    pub rating: u32,
    /// Whether it is provisional.
    pub provisional: bool,
}

/// A rating range as shown.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RangeView {
    /// The lowest rating accepted.
    pub min: u32,
    /// The highest.
    pub max: u32,
}

impl From<&Challenge> for ChallengeView {
    fn from(c: &Challenge) -> ChallengeView {
        ChallengeView {
            id: c.id.clone(),
            name: names::shown(c.name.as_ref()).to_string(),
            color: c.color,
            clock: TimeControl::of(c.clock, c.days),
            created_ms: c.created_ms,
            rated: c.terms.rated,
            rating: c.terms.creator.as_ref().map(|p| ShownRating {
                rating: p.rating,
                provisional: p.provisional,
            }),
            rating_range: c.terms.range.map(|r| RangeView {
                min: r.min,
                max: r.max,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::wire::protocol::{parse, ErrorCode, Request};

    use super::*;

    fn lobby(text: &str) -> LobbyRequest {
        match parse(text).unwrap().request {
            Request::Lobby(r) => r,
            other => panic!("not a lobby request: {other:?}"),
        }
    }

    fn code(text: &str) -> ErrorCode {
        parse(text).unwrap_err().error.code
    }

    #[test]
    fn parses_each_lobby_request() {
        assert_eq!(
            lobby(r#"{"v":1,"type":"lobby_watch"}"#),
            LobbyRequest::Watch
        );
        assert_eq!(
            lobby(
                r#"{"v":1,"type":"challenge_create","name":" Ada ","color":"black","clock":{"initial_ms":180000,"increment_ms":2000}}"#
            ),
            LobbyRequest::Create {
                name: Some(DisplayName::parse("Ada").unwrap()),
                color: ColorChoice::Black,
                days: None,
                clock: Some(ClockSpec {
                    initial_ms: 180_000,
                    increment_ms: 2000
                }),
                rated: false,
                range: None,
            }
        );
        assert_eq!(
            lobby(r#"{"v":1,"type":"challenge_accept","challenge":"abc"}"#),
            LobbyRequest::Accept {
                challenge: "abc".into(),
                name: None
            }
        );
        assert_eq!(
            lobby(r#"{"v":1,"type":"lobby_seek","clock":null}"#),
            LobbyRequest::Seek {
                name: None,
                clock: None,
                days: None,
                rated: false,
                range: None,
            }
        );
        assert_eq!(
            lobby(
                r#"{"v":1,"type":"lobby_seek","rated":true,"rating_range":{"min":1200,"max":1800}}"#
            ),
            LobbyRequest::Seek {
                name: None,
                clock: None,
                days: None,
                rated: true,
                range: Some(RatingRange {
                    min: 1200,
                    max: 1800
                }),
            }
        );
    }

    #[test]
    fn refuses_bad_lobby_requests_with_their_codes() {
        for (text, want) in [
            (
                r#"{"v":1,"type":"lobby_watch","x":1}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"challenge_create"}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"challenge_create","color":"green"}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"challenge_create","color":"white","name":7}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"challenge_create","color":"white","name":"<b>"}"#,
                ErrorCode::InvalidName,
            ),
            (
                r#"{"v":1,"type":"challenge_create","color":"white","clock":{"initial_ms":1,"increment_ms":0},"name":"<b>"}"#,
                ErrorCode::InvalidClock,
            ),
            (
                r#"{"v":1,"type":"challenge_accept","challenge":5}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"challenge_accept","challenge":"a","name":"aaaaaaaaaaaaaaaaaaaaa"}"#,
                ErrorCode::InvalidName,
            ),
            (
                r#"{"v":1,"type":"lobby_seek","clock":{"initial_ms":60000}}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"lobby_seek","rated":1}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"lobby_seek","rated":"true"}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"challenge_create","color":"white","rated":null}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"lobby_seek","rating_range":[1000,2000]}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"lobby_seek","rating_range":{"min":1000}}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"lobby_seek","rating_range":{"min":-1,"max":2000}}"#,
                ErrorCode::InvalidMessage,
            ),
            (
                r#"{"v":1,"type":"lobby_seek","rating_range":{"min":1800,"max":1700}}"#,
                ErrorCode::InvalidRatingRange,
            ),
            (
                r#"{"v":1,"type":"challenge_create","color":"white","rating_range":{"min":0,"max":4001}}"#,
                ErrorCode::InvalidRatingRange,
            ),
        ] {
            assert_eq!(code(text), want, "{text}");
        }
    }
}
