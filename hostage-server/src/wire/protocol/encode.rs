//! The canonical text of a client request: what a client written from
//! `docs/protocol.md` sends, one way only (`v` and `type` first, then the
//! fields in the order of the document, optional fields left out when
//! absent, the `id` last; a clock's two keys in alphabetical order).
//!
//! The server never sends a request; this is the inverse of
//! [`super::parse`], for the tests and the protocol fuzz target: every
//! request the parser accepts encodes to a text that parses back to it.

use hostage_core::Color;
use serde_json::{json, Value};

use super::lobby_wire::LobbyRequest;
use super::{ClockSpec, ColorChoice, Envelope, Request, RequestId, SeatAction, PROTOCOL_VERSION};
use crate::domain::names::DisplayName;

/// The canonical JSON text of `envelope`.
///
/// ```
/// use hostage_server::wire::protocol::{encode::encode, parse, Envelope, Request, RequestId};
///
/// let env = Envelope { id: Some(RequestId::Number(7)), request: Request::Ping };
/// assert_eq!(encode(&env), r#"{"v":1,"type":"ping","id":7}"#);
/// assert_eq!(parse(&encode(&env)).unwrap(), env);
/// ```
#[must_use]
pub fn encode(envelope: &Envelope) -> String {
    let (kind, mut fields) = fields(&envelope.request);
    if let Some(id) = &envelope.id {
        let id = match id {
            RequestId::Number(n) => Value::from(*n),
            RequestId::Text(s) => Value::from(s.as_str()),
        };
        fields.push(("id", id));
    }
    // Written key by key: a `serde_json::Map` would sort the keys.
    let mut text = format!("{{\"v\":{PROTOCOL_VERSION},\"type\":\"{kind}\"");
    for (key, value) in fields {
        text.push_str(&format!(",\"{key}\":{value}"));
    }
    text.push('}');
    text
}

/// A message's fields: each key and its value, in order.
type Fields = Vec<(&'static str, Value)>;

/// The seat action's message type.
#[must_use]
pub const fn seat_type(action: SeatAction) -> &'static str {
    match action {
        SeatAction::Resign => "resign",
        SeatAction::OfferDraw => "offer_draw",
        SeatAction::AcceptDraw => "accept_draw",
        SeatAction::DeclineDraw => "decline_draw",
        SeatAction::ClaimWin => "claim_win",
        SeatAction::ClaimDraw => "claim_draw",
        SeatAction::Abort => "abort",
        SeatAction::ProposeTakeback => "propose_takeback",
        SeatAction::AcceptTakeback => "accept_takeback",
        SeatAction::DeclineTakeback => "decline_takeback",
    }
}

/// A request's type and its fields, in the document's order.
fn fields(request: &Request) -> (&'static str, Fields) {
    let game = |g: &str| ("game", Value::from(g));
    let mut out = Vec::new();
    let kind = match request {
        Request::Create {
            color,
            clock,
            days,
            name,
        } => {
            out.push(("color", choice(*color)));
            push_clock(&mut out, *clock, *days);
            push_name(&mut out, name.as_ref());
            "create"
        }
        Request::Join {
            game: g,
            color,
            name,
        } => {
            out.push(game(g));
            if let Some(c) = color {
                out.push(("color", colour(*c)));
            }
            push_name(&mut out, name.as_ref());
            "join"
        }
        Request::Chat {
            game: g,
            token,
            text,
        } => {
            out.push(game(g));
            push_token(&mut out, token.as_deref());
            out.push(("text", Value::from(text.as_str())));
            "chat"
        }
        Request::Watch { game: g } => {
            out.push(game(g));
            "watch"
        }
        Request::Unwatch { game: g } => {
            out.push(game(g));
            "unwatch"
        }
        Request::Resume { game: g, token } => {
            out.push(game(g));
            out.push(("token", Value::from(token.as_str())));
            "resume"
        }
        Request::Move {
            game: g,
            token,
            mv,
            ply,
        } => {
            out.push(game(g));
            push_token(&mut out, token.as_deref());
            out.push(("move", Value::from(mv.as_str())));
            out.push(("ply", Value::from(*ply)));
            "move"
        }
        Request::Seat {
            action,
            game: g,
            token,
        } => {
            out.push(game(g));
            push_token(&mut out, token.as_deref());
            seat_type(*action)
        }
        Request::Rematch { game: g, token } => {
            out.push(game(g));
            push_token(&mut out, token.as_deref());
            "rematch"
        }
        Request::Ping => "ping",
        Request::Lobby(lobby) => return lobby_fields(lobby),
    };
    (kind, out)
}

fn lobby_fields(request: &LobbyRequest) -> (&'static str, Fields) {
    let mut out = Vec::new();
    let kind = match request {
        LobbyRequest::Watch => "lobby_watch",
        LobbyRequest::Unwatch => "lobby_unwatch",
        LobbyRequest::Create {
            name,
            color,
            clock,
            days,
            rated,
            range,
        } => {
            out.push(("color", choice(*color)));
            push_clock(&mut out, *clock, *days);
            push_name(&mut out, name.as_ref());
            push_terms(&mut out, *rated, *range);
            "challenge_create"
        }
        LobbyRequest::Cancel { challenge } => {
            out.push(("challenge", Value::from(challenge.as_str())));
            "challenge_cancel"
        }
        LobbyRequest::Accept { challenge, name } => {
            out.push(("challenge", Value::from(challenge.as_str())));
            push_name(&mut out, name.as_ref());
            "challenge_accept"
        }
        LobbyRequest::Seek {
            name,
            clock,
            days,
            rated,
            range,
        } => {
            push_clock(&mut out, *clock, *days);
            push_name(&mut out, name.as_ref());
            push_terms(&mut out, *rated, *range);
            "lobby_seek"
        }
    };
    (kind, out)
}

/// `rated` when true, `rating_range` when given (after the name).
fn push_terms(out: &mut Fields, rated: bool, range: Option<crate::domain::lobby::RatingRange>) {
    if rated {
        out.push(("rated", Value::from(true)));
    }
    if let Some(r) = range {
        out.push((
            "rating_range",
            serde_json::json!({"max": r.max, "min": r.min}),
        ));
    }
}

fn choice(c: ColorChoice) -> Value {
    Value::from(match c {
        ColorChoice::White => "white",
        ColorChoice::Black => "black",
        ColorChoice::Random => "random",
    })
}

fn colour(c: Color) -> Value {
    Value::from(c.name())
}

fn push_clock(
    out: &mut Fields,
    clock: Option<ClockSpec>,
    days: Option<crate::domain::correspondence::Days>,
) {
    if let Some(d) = days {
        out.push(("clock", json!({"days": d.get()})));
    } else if let Some(c) = clock {
        out.push((
            "clock",
            json!({"initial_ms": c.initial_ms, "increment_ms": c.increment_ms}),
        ));
    }
}

fn push_name(out: &mut Fields, name: Option<&DisplayName>) {
    if let Some(n) = name {
        out.push(("name", Value::from(n.as_str())));
    }
}

fn push_token(out: &mut Fields, token: Option<&str>) {
    if let Some(t) = token {
        out.push(("token", Value::from(t)));
    }
}
