//! The wire: the protocol's messages (`protocol.rs`, `protocol/`:
//! `docs/protocol.md`), and the mapping from the domain to them: a room's
//! [`Event`]s as the messages followers are sent, a room as the `state`
//! message (this file).
//!
//! Policy: the room decides in domain terms (`domain/event.rs`); this file
//! is the one place that turns a decision into what followers are sent, so
//! the wire format of a decision is written once and testable without a
//! room. Replies that only the service knows (a new seat's token, the link
//! to share) are the service's (`service/games.rs`).

pub mod protocol;

use std::time::Instant;

use hostage_core::{uci::UciMove, Color};

use crate::{
    domain::event::{Event, MovePlayed},
    domain::room::Room,
    wire::protocol::{time_control::TimeControl, GameState, Message, MoveEntry, Names, Seats},
};

/// The messages that tell a follower of `event`, in order (none for an
/// event that is not told).
#[must_use]
pub fn messages_for(event: &Event) -> Vec<Message> {
    match event {
        Event::SeatTaken {
            game,
            side,
            clocks,
            name,
            deadline_ms,
            ..
        } => vec![Message::PlayerJoined {
            game: game.clone(),
            color: *side,
            clocks: clocks.map(Into::into),
            name: name.as_ref().map(|n| n.as_str().to_string()),
            deadline_ms: *deadline_ms,
        }],
        Event::MovePlayed(m) => {
            let mut messages = vec![moved(m, false)];
            if let Some(end) = m.end {
                messages.push(game_over(&m.game, end, m.clocks));
            }
            messages
        }
        Event::MoveRepeated(m) => vec![moved(m, true)],
        // A further token is the requester's alone (`joined`), told nobody.
        Event::SeatTokenAdded { .. } => Vec::new(),
        Event::DrawOffered { game, by, .. } => vec![Message::DrawOffered {
            game: game.clone(),
            by: *by,
        }],
        Event::DrawDeclined { game, by, .. } => vec![Message::DrawDeclined {
            game: game.clone(),
            by: *by,
        }],
        Event::TakebackOffered {
            game, by, plies, ..
        } => vec![Message::TakebackOffered {
            game: game.clone(),
            by: *by,
            plies: *plies,
        }],
        Event::TakebackDeclined { game, by, .. } => vec![Message::TakebackDeclined {
            game: game.clone(),
            by: *by,
        }],
        Event::TakenBack {
            game,
            by,
            plies,
            ply,
            fen,
            clocks,
            withdrew,
            deadline_ms,
            ..
        } => vec![Message::TakenBack {
            game: game.clone(),
            by: *by,
            plies: *plies,
            ply: *ply,
            fen: fen.clone(),
            clocks: clocks.map(Into::into),
            draw_offer_withdrawn: *withdrew,
            deadline_ms: *deadline_ms,
        }],
        Event::GameEnded {
            game, end, clocks, ..
        } => vec![game_over(game, *end, *clocks)],
        Event::RematchLinked { game, rematch, .. } => vec![Message::RematchOffered {
            game: game.clone(),
            rematch: rematch.clone(),
        }],
        Event::ChatPosted { game, line } => vec![Message::Chat {
            game: game.clone(),
            line: line.into(),
        }],
    }
}

/// `moved` (a move withdraws any draw offer, so `draw_offer` is null).
fn moved(m: &MovePlayed, duplicate: bool) -> Message {
    Message::Moved {
        game: m.game.clone(),
        ply: m.ply,
        mv: m.uci.clone(),
        san: m.san.clone(),
        fen: m.fen.clone(),
        by: m.by,
        clocks: m.clocks.map(Into::into),
        draw_offer: None,
        draw_offer_withdrawn: if duplicate { None } else { m.withdrew },
        takeback_withdrawn: if duplicate { None } else { m.withdrew_takeback },
        duplicate,
        deadline_ms: m.deadline_ms,
    }
}

fn game_over(
    game: &str,
    end: crate::domain::End,
    clocks: Option<crate::domain::ClockReading>,
) -> Message {
    Message::GameOver {
        game: game.to_string(),
        result: end.result(),
        termination: end.termination(),
        winner: end.winner,
        clocks: clocks.map(Into::into),
        ratings: None,
    }
}

/// The whole game as `you` (a seat, or `None` for a spectator) sees it at `now`.
#[must_use]
pub fn game_state(room: &Room, you: Option<Color>, now: Instant) -> GameState {
    let game = room.game();
    let moves = game
        .moves()
        .iter()
        .zip(game.san_moves())
        .zip(game.positions())
        .enumerate()
        .map(|(ply, ((m, san), before))| MoveEntry {
            ply: ply as u64,
            mv: UciMove::from_move(m).to_string(),
            san,
            by: before.turn(),
        })
        .collect();
    let seats = room.seats_taken();
    let end = room.end();
    GameState {
        game: room.id().to_string(),
        you,
        start_fen: game.start().fen(),
        fen: game.position().fen(),
        moves,
        ply: game.ply() as u64,
        turn: room.turn(),
        status: room.status(),
        seats: Seats {
            white: seats.white,
            black: seats.black,
        },
        clock: TimeControl::of(room.clock_spec(), room.days()),
        clocks: room.clocks_at(now).map(Into::into),
        deadline_ms: room.due().map(|d| d.at_ms),
        deadline_left_ms: room.due().map(|d| d.left_at(now)),
        draw_offer: room.draw_offer(),
        takeback: room.takeback(),
        first_move_ms: room.first_move_left(now),
        rematch: room.rematch().map(str::to_string),
        result: end.map_or("*", |e| e.result()),
        termination: end.map(|e| e.termination()),
        winner: end.and_then(|e| e.winner),
        names: {
            let name = |side| room.name(side).map(|n| n.as_str().to_string());
            Names {
                white: name(Color::White),
                black: name(Color::Black),
            }
        },
        chat: room.chat_lines().iter().map(Into::into).collect(),
        created_ms: room.created_ms(),
        rated: false,
        ratings: None,
        rating_changes: None,
    }
}

#[cfg(test)]
mod tests {
    //! Each event against the message `docs/protocol.md` shows for it.

    use hostage_core::ByColor;
    use serde_json::{json, Value};

    use super::*;
    use crate::{
        domain::{ClockReading, End, EndReason, TokenHash},
        store::{NewGame, Seen},
    };

    /// The messages as JSON objects, without the version every message has.
    fn json_of(event: &Event) -> Vec<Value> {
        messages_for(event)
            .iter()
            .map(|m| {
                let mut v: Value = serde_json::from_str(&m.to_text(None)).unwrap();
                assert_eq!(v["v"], 1);
                v.as_object_mut().unwrap().remove("v");
                v
            })
            .collect()
    }

    fn reading(white: u64, black: u64, running: Option<Color>) -> Option<ClockReading> {
        Some(ClockReading {
            remaining: ByColor::new(white, black),
            running,
        })
    }

    fn seen() -> Seen {
        Seen {
            ply: 4,
            draw_offer: None,
        }
    }

    fn mv(end: Option<End>) -> MovePlayed {
        MovePlayed {
            game: "Xy3kP9mQ2aZ".into(),
            ply: 0,
            uci: "e2e4".into(),
            san: "e4".into(),
            fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".into(),
            by: Color::White,
            clocks: reading(301_000, 300_000, Some(Color::Black)),
            at_ms: 1_700_000_000_000,
            end,
            withdrew: None,
            deadline_ms: None,
            withdrew_takeback: None,
        }
    }

    #[test]
    fn a_move_is_moved_with_its_clocks_and_no_offer() {
        let got = json_of(&Event::MovePlayed(mv(None)));
        assert_eq!(got.len(), 1);
        let m = &got[0];
        assert_eq!(m["type"], "moved");
        assert_eq!(m["game"], "Xy3kP9mQ2aZ");
        assert_eq!(m["ply"], 0);
        assert_eq!(m["move"], "e2e4");
        assert_eq!(m["san"], "e4");
        assert_eq!(m["by"], "white");
        assert_eq!(m["draw_offer"], Value::Null);
        assert_eq!(
            m["clocks"],
            json!({"white_ms": 301_000, "black_ms": 300_000, "running": "black"})
        );
        // `duplicate` appears only on a repeated acknowledgement, and
        // `draw_offer_withdrawn` only when the move withdrew an offer.
        assert!(m.get("duplicate").is_none());
        assert!(m.get("draw_offer_withdrawn").is_none());
        let withdrew = MovePlayed {
            withdrew: Some(Color::Black),
            ..mv(None)
        };
        let got = json_of(&Event::MovePlayed(withdrew));
        assert_eq!(got[0]["draw_offer_withdrawn"], "black");
        assert_eq!(got[0]["draw_offer"], Value::Null);
        let again = json_of(&Event::MoveRepeated(mv(None)));
        assert_eq!(again.len(), 1);
        assert_eq!(again[0]["type"], "moved");
        assert_eq!(again[0]["duplicate"], true);
    }

    #[test]
    fn a_mating_move_is_moved_then_game_over() {
        let end = End {
            reason: EndReason::Rules(hostage_core::Termination::Checkmate),
            winner: Some(Color::White),
        };
        let got = json_of(&Event::MovePlayed(mv(Some(end))));
        let types: Vec<&Value> = got.iter().map(|m| &m["type"]).collect();
        assert_eq!(types, ["moved", "game_over"]);
        assert_eq!(got[1]["result"], "1-0");
        assert_eq!(got[1]["termination"], "checkmate");
        assert_eq!(got[1]["winner"], "white");
    }

    #[test]
    fn endings_offers_seats_and_rematches() {
        let draw = Event::GameEnded {
            game: "g".into(),
            end: End {
                reason: EndReason::Agreement,
                winner: None,
            },
            clocks: None,
            seen: seen(),
        };
        let m = &json_of(&draw)[0];
        assert_eq!(m["type"], "game_over");
        assert_eq!(m["result"], "1/2-1/2");
        assert_eq!(m["termination"], "agreement");
        assert_eq!(m["winner"], Value::Null);
        assert_eq!(m["clocks"], Value::Null);

        let resigned = Event::GameEnded {
            game: "g".into(),
            end: End {
                reason: EndReason::Resignation,
                winner: Some(Color::Black),
            },
            clocks: reading(1_000, 2_000, None),
            seen: seen(),
        };
        let m = &json_of(&resigned)[0];
        assert_eq!(m["result"], "0-1");
        assert_eq!(m["termination"], "resignation");
        assert_eq!(m["winner"], "black");
        assert_eq!(m["clocks"]["running"], Value::Null);

        let offered = Event::DrawOffered {
            game: "g".into(),
            by: Color::Black,
            clocks: None,
            seen: seen(),
        };
        assert_eq!(
            json_of(&offered),
            [json!({"type": "draw_offered", "game": "g", "by": "black"})]
        );
        let declined = Event::DrawDeclined {
            game: "g".into(),
            by: Color::White,
            clocks: None,
            seen: seen(),
        };
        assert_eq!(
            json_of(&declined),
            [json!({"type": "draw_declined", "game": "g", "by": "white"})]
        );

        let joined = Event::SeatTaken {
            game: "g".into(),
            side: Color::Black,
            token: TokenHash::of("t"),
            clocks: None,
            deadline_ms: None,
            name: None,
        };
        // The token's digest is never sent.
        assert_eq!(
            json_of(&joined),
            [
                json!({"type": "player_joined", "game": "g", "color": "black", "clocks": null, "name": null})
            ]
        );
        let named = Event::SeatTaken {
            game: "g".into(),
            side: Color::White,
            token: TokenHash::of("t"),
            clocks: None,
            deadline_ms: None,
            name: crate::domain::names::DisplayName::parse(" Ada ").ok(),
        };
        assert_eq!(json_of(&named)[0]["name"], "Ada");

        let rematch = Event::RematchLinked {
            game: "g".into(),
            rematch: "h".into(),
            new: Some(NewGame {
                id: "h".into(),
                created_ms: 0,
                start_fen: String::new(),
                days: None,
                clock: None,
                seat: Color::Black,
                token: TokenHash::of("t"),
                name: None,
            }),
        };
        assert_eq!(
            json_of(&rematch),
            [json!({"type": "rematch_offered", "game": "g", "rematch": "h"})]
        );
    }

    #[test]
    fn a_chat_line_is_chat_with_its_seat_index_and_time() {
        let posted = Event::ChatPosted {
            game: "g".into(),
            line: crate::domain::chat::ChatLine {
                index: 2,
                by: Color::White,
                text: "<b>hi</b>".into(),
                at_ms: 1_700_000_000_000,
            },
        };
        // The text goes as it is: it is plain text, for the client to set
        // as text.
        assert_eq!(
            json_of(&posted),
            [
                json!({"type": "chat", "game": "g", "index": 2, "by": "white",
                    "text": "<b>hi</b>", "at_ms": 1_700_000_000_000_u64})
            ]
        );
    }
}
