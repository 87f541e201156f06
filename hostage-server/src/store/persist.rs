//! The store edge: a room's [`Event`]s as the [`Write`]s the store keeps.
//!
//! Policy: the room decides in domain terms (`event.rs`); this file is the
//! one place that turns a decision into a store record, so what a decision
//! stores is written once and testable without a room or a database. Each
//! change a room makes is one event and so one write (stored before anyone
//! is told, `games.rs`); an event only told, never stored (a move
//! acknowledged again, a rematch link read from the store), maps to none.

use crate::{
    domain::event::Event,
    store::{StoredClocks, Write},
};

/// The write that stores `event`, if it is stored.
#[must_use]
pub fn write_for(event: &Event) -> Option<Write> {
    Some(match event {
        Event::SeatTaken {
            game,
            side,
            token,
            clocks,
            name,
            deadline_ms,
        } => Write::TakeSeat {
            game: game.clone(),
            side: *side,
            token: *token,
            clocks: remaining(clocks),
            name: name.clone(),
            deadline_ms: *deadline_ms,
        },
        Event::MovePlayed(m) => Write::Move {
            game: m.game.clone(),
            ply: m.ply,
            uci: m.uci.clone(),
            clocks: remaining(&m.clocks),
            at_ms: m.at_ms,
            end: m.end,
            deadline_ms: m.deadline_ms,
        },
        Event::MoveRepeated(_) => return None,
        Event::SeatTokenAdded {
            game,
            side,
            devices,
            was,
        } => Write::SeatTokens {
            game: game.clone(),
            side: *side,
            devices: devices.clone(),
            was: was.clone(),
        },
        Event::DrawOffered { .. }
        | Event::DrawDeclined { .. }
        | Event::TakebackOffered { .. }
        | Event::TakebackDeclined { .. } => return offer_write(event),
        Event::TakenBack {
            game,
            by,
            ply,
            clocks,
            seen,
            deadline_ms,
            ..
        } => Write::TakeBack {
            game: game.clone(),
            by: *by,
            ply: *ply,
            clocks: remaining(clocks),
            deadline_ms: *deadline_ms,
            seen: *seen,
        },
        Event::GameEnded {
            game,
            end,
            clocks,
            seen,
        } => Write::Finish {
            game: game.clone(),
            end: *end,
            clocks: remaining(clocks),
            seen: *seen,
        },
        Event::RematchLinked { game, new, .. } => Write::Rematch {
            game: game.clone(),
            new: new.clone()?,
        },
        Event::ChatPosted { game, line } => Write::Chat {
            game: game.clone(),
            line: line.clone(),
        },
    })
}

/// Each side's remaining time of a clock reading, as stored.
fn remaining(clocks: &Option<crate::domain::ClockReading>) -> StoredClocks {
    clocks.map(|c| c.remaining)
}

/// The write of a draw offer or takeback request made or declined.
fn offer_write(event: &Event) -> Option<Write> {
    Some(match event {
        Event::DrawOffered {
            game,
            by,
            clocks,
            seen,
        } => Write::DrawOffer {
            game: game.clone(),
            by: Some(*by),
            clocks: remaining(clocks),
            seen: *seen,
        },
        Event::DrawDeclined {
            game, clocks, seen, ..
        } => Write::DrawOffer {
            game: game.clone(),
            by: None,
            clocks: remaining(clocks),
            seen: *seen,
        },
        Event::TakebackOffered {
            game,
            by,
            clocks,
            seen,
            ..
        } => Write::TakebackOffer {
            game: game.clone(),
            by: Some(*by),
            standing: None,
            clocks: remaining(clocks),
            seen: *seen,
        },
        Event::TakebackDeclined {
            game,
            by,
            clocks,
            seen,
        } => Write::TakebackOffer {
            game: game.clone(),
            by: None,
            standing: Some(by.other()),
            clocks: remaining(clocks),
            seen: *seen,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    //! Each event against the record `store/mod.rs` documents for it.

    use hostage_core::{ByColor, Color};

    use super::*;
    use crate::{
        domain::event::MovePlayed,
        domain::{ClockReading, End, EndReason, TokenHash},
        store::{NewGame, Seen},
    };

    fn running(white: u64, black: u64, side: Color) -> Option<ClockReading> {
        Some(ClockReading {
            remaining: ByColor::new(white, black),
            running: Some(side),
        })
    }

    const SEEN: Seen = Seen {
        ply: 7,
        draw_offer: Some(Color::White),
    };

    fn mv(end: Option<End>) -> MovePlayed {
        MovePlayed {
            game: "g".into(),
            ply: 7,
            uci: "d8h4".into(),
            san: "Qh4#".into(),
            fen: String::new(),
            by: Color::Black,
            clocks: running(5_000, 6_000, Color::White),
            at_ms: 42,
            end,
            withdrew: None,
            deadline_ms: None,
            withdrew_takeback: None,
        }
    }

    #[test]
    fn a_move_stores_its_ply_text_remaining_times_time_and_ending() {
        let mate = End {
            reason: EndReason::Rules(hostage_core::Termination::Checkmate),
            winner: Some(Color::Black),
        };
        assert_eq!(
            write_for(&Event::MovePlayed(mv(Some(mate)))),
            Some(Write::Move {
                game: "g".into(),
                ply: 7,
                uci: "d8h4".into(),
                clocks: Some(ByColor::new(5_000, 6_000)),
                at_ms: 42,
                deadline_ms: None,
                end: Some(mate),
            })
        );
        // A move acknowledged again is not stored again.
        assert_eq!(write_for(&Event::MoveRepeated(mv(None))), None);
    }

    #[test]
    fn offers_answers_and_endings_carry_the_game_as_seen() {
        let offered = Event::DrawOffered {
            game: "g".into(),
            by: Color::Black,
            clocks: None,
            seen: SEEN,
        };
        assert_eq!(
            write_for(&offered),
            Some(Write::DrawOffer {
                game: "g".into(),
                by: Some(Color::Black),
                clocks: None,
                seen: SEEN,
            })
        );
        // A decline clears the offer: the record names no side.
        let declined = Event::DrawDeclined {
            game: "g".into(),
            by: Color::Black,
            clocks: running(1, 2, Color::Black),
            seen: SEEN,
        };
        assert_eq!(
            write_for(&declined),
            Some(Write::DrawOffer {
                game: "g".into(),
                by: None,
                clocks: Some(ByColor::new(1, 2)),
                seen: SEEN,
            })
        );
        let flag = End {
            reason: EndReason::Timeout,
            winner: Some(Color::White),
        };
        let ended = Event::GameEnded {
            game: "g".into(),
            end: flag,
            clocks: running(3, 0, Color::Black),
            seen: SEEN,
        };
        assert_eq!(
            write_for(&ended),
            Some(Write::Finish {
                game: "g".into(),
                end: flag,
                clocks: Some(ByColor::new(3, 0)),
                seen: SEEN,
            })
        );
    }

    #[test]
    fn a_seat_and_a_rematch() {
        let token = TokenHash::of("t");
        let ada = crate::domain::names::DisplayName::parse("Ada").ok();
        let seat = Event::SeatTaken {
            game: "g".into(),
            side: Color::White,
            token,
            clocks: None,
            deadline_ms: None,
            name: ada.clone(),
        };
        // The seat's name is stored with it.
        assert_eq!(
            write_for(&seat),
            Some(Write::TakeSeat {
                game: "g".into(),
                side: Color::White,
                token,
                clocks: None,
                deadline_ms: None,
                name: ada,
            })
        );
        let new = NewGame {
            id: "h".into(),
            created_ms: 9,
            start_fen: "fen".into(),
            days: None,
            clock: None,
            seat: Color::Black,
            token,
            name: None,
        };
        let linked = Event::RematchLinked {
            game: "g".into(),
            rematch: "h".into(),
            new: Some(new.clone()),
        };
        assert_eq!(
            write_for(&linked),
            Some(Write::Rematch {
                game: "g".into(),
                new,
            })
        );
        // A link made on another server, read from the store, is only told.
        let read = Event::RematchLinked {
            game: "g".into(),
            rematch: "h".into(),
            new: None,
        };
        assert_eq!(write_for(&read), None);
    }

    #[test]
    fn a_chat_line_is_stored_as_it_was_posted() {
        let line = crate::domain::chat::ChatLine {
            index: 3,
            by: Color::Black,
            text: "<b>hi</b>".into(),
            at_ms: 77,
        };
        let posted = Event::ChatPosted {
            game: "g".into(),
            line: line.clone(),
        };
        assert_eq!(
            write_for(&posted),
            Some(Write::Chat {
                game: "g".into(),
                line,
            })
        );
    }
}
