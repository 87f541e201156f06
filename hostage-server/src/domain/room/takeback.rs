//! Takeback requests: a player asks the opponent to take moves back, as on
//! lichess (`docs/protocol.md`, Takebacks).
//!
//! Policy:
//! - a request takes back the proposer's last move: on the proposer's turn
//!   that is two plies (their move and the opponent's reply), on the
//!   opponent's turn one. A proposer who has not moved has nothing to take
//!   back (`no_takeback`);
//! - one request stands at a time (`takeback_already_offered`, whoever made
//!   it); any move withdraws it, as it withdraws a draw offer; an ending
//!   clears it;
//! - only the opponent answers it (`no_takeback_offer` otherwise, also for
//!   one's own request); accepting pops the plies from the core's game,
//!   clears a standing draw offer, and books the clocks as a local
//!   take-back does in the app (`app/src/play.js`): the running side is
//!   charged the time it used, nothing is refunded, and the side to move
//!   after the takeback runs (from both first moves on, as always);
//! - a flag fallen before the acceptance ends the game on time instead;
//! - every refusal changes nothing; every change carries its
//!   [`Undo`](super::Undo), so a store that refuses it (the game moved on
//!   elsewhere) leaves the room as it was.

use std::time::Instant;

use hostage_core::Color;

use super::{err, Change, Room};
use crate::{
    domain::event::Event,
    domain::refusal::{ErrorCode, ProtoError},
    domain::ClockReading,
};

impl Room {
    /// How many plies a takeback request of `by` takes back now: 2 on
    /// `by`'s turn, 1 on the opponent's, 0 if `by` has made no move to take
    /// back.
    #[must_use]
    pub fn takeback_plies(&self, by: Color) -> u64 {
        let want: usize = if self.turn() == by { 2 } else { 1 };
        if self.game.ply() >= want {
            want as u64
        } else {
            0
        }
    }

    /// `propose_takeback`.
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`, `game_over`, `game_not_started`,
    /// `takeback_already_offered`, `no_takeback`.
    pub fn propose_takeback(
        &mut self,
        token: Option<&str>,
        now: Instant,
    ) -> Result<Change, ProtoError> {
        let side = self.seat(token)?;
        self.ensure_active()?;
        match self.takeback {
            Some(by) if by == side => {
                return Err(err(
                    ErrorCode::TakebackAlreadyOffered,
                    "your takeback request already stands",
                ))
            }
            Some(_) => {
                return Err(err(
                    ErrorCode::TakebackAlreadyOffered,
                    "the opponent's takeback request stands: accept or decline it first",
                ))
            }
            None => {}
        }
        let plies = self.takeback_plies(side);
        if plies == 0 {
            return Err(err(
                ErrorCode::NoTakeback,
                "you have made no move to take back",
            ));
        }
        let undo = self.undo_point();
        let seen = self.seen();
        self.takeback = Some(side);
        Ok(Change {
            event: Event::TakebackOffered {
                game: self.id.clone(),
                by: side,
                plies,
                clocks: self.clocks_at(now),
                seen,
            },
            undo,
        })
    }

    /// `accept_takeback` (`accept == true`) or `decline_takeback`.
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`, `game_over`, `game_not_started`,
    /// `no_takeback_offer`, `no_takeback` (a stored request with nothing
    /// left to take back).
    pub fn answer_takeback(
        &mut self,
        token: Option<&str>,
        accept: bool,
        now: Instant,
    ) -> Result<Change, ProtoError> {
        let side = self.seat(token)?;
        self.ensure_active()?;
        let by = side.other();
        if self.takeback != Some(by) {
            return Err(err(
                ErrorCode::NoTakebackOffer,
                "no takeback request from the opponent stands",
            ));
        }
        if !accept {
            let undo = self.undo_point();
            let seen = self.seen();
            self.takeback = None;
            return Ok(Change {
                event: Event::TakebackDeclined {
                    game: self.id.clone(),
                    by: side,
                    clocks: self.clocks_at(now),
                    seen,
                },
                undo,
            });
        }
        // The flag fell before the answer: the game is lost on time, as a
        // move arriving late would be.
        if let Some(change) = self.check_deadline(now) {
            return Ok(change);
        }
        let plies = self.takeback_plies(by);
        if plies == 0 {
            return Err(err(
                ErrorCode::NoTakeback,
                "the request has no move left to take back",
            ));
        }
        let mut undo = self.undo_point();
        let seen = self.seen();
        for _ in 0..plies {
            undo.popped.extend(self.game.pop());
        }
        if let Some(clock) = &mut self.clock {
            // As a local take-back: the running side pays the time it used
            // (no refund, no increment back), then the side to move runs.
            clock.stop(now);
        }
        self.start_clock_if_due(now);
        self.arm_first_move(now);
        // The side to move now gets a whole move's window again.
        self.restart_due(now, crate::domain::time::now_ms());
        let withdrew = self.draw_offer.take();
        self.takeback = None;
        // The store counts it too, in the same write (`store/mod.rs`).
        self.takebacks += 1;
        Ok(Change {
            event: Event::TakenBack {
                game: self.id.clone(),
                by,
                plies,
                ply: self.game.ply() as u64,
                fen: self.game.position().fen(),
                clocks: self.clocks_at(now),
                deadline_ms: self.due().map(|d| d.at_ms),
                withdrew,
                seen,
            },
            undo,
        })
    }

    /// The plies this room and `old` (this game as it was known) share
    /// from the start: fewer than `old` has when moves were taken back.
    pub(super) fn shared_plies(&self, old: &Room) -> usize {
        self.game
            .moves()
            .iter()
            .zip(old.game.moves())
            .take_while(|(a, b)| a == b)
            .count()
    }

    /// The takeback that turned `old` into this game's first `from` plies,
    /// if moves were taken back (for another server's followers: told, not
    /// stored). The proposer is the side to move after it: their own move
    /// was the last one taken back.
    pub(super) fn taken_back_since(
        &self,
        old: &Room,
        from: usize,
        clocks: Option<ClockReading>,
    ) -> Option<Event> {
        let plies = old.game.ply().checked_sub(from).filter(|&n| n > 0)?;
        let position = self.game.position_at(from)?;
        Some(Event::TakenBack {
            game: self.id.clone(),
            by: position.turn(),
            plies: plies as u64,
            ply: from as u64,
            fen: position.fen(),
            clocks,
            deadline_ms: self.due().map(|d| d.at_ms),
            withdrew: old.draw_offer,
            seen: self.seen(),
        })
    }

    /// The request made or declined since `old` (`moved`: moves were
    /// played or taken back since, which withdrew any request `old` had).
    pub(super) fn takeback_request_since(
        &self,
        old: &Room,
        moved: bool,
        clocks: Option<ClockReading>,
    ) -> Option<Event> {
        match (old.takeback, self.takeback) {
            (was, Some(by)) if moved || was != Some(by) => Some(Event::TakebackOffered {
                game: self.id.clone(),
                by,
                plies: self.takeback_plies(by),
                clocks,
                seen: self.seen(),
            }),
            (Some(by), None) if !moved && self.end.is_none() => Some(Event::TakebackDeclined {
                game: self.id.clone(),
                by: by.other(),
                clocks,
                seen: self.seen(),
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    //! The room's takeback decisions: each refusal changes nothing, an
    //! acceptance restores the position and books the clocks, the edges
    //! map each event.

    use std::time::{Duration, Instant};

    use hostage_core::{ByColor, Color};

    use super::super::{MoveOutcome, Room};
    use crate::{
        domain::event::Event,
        domain::{ClockSpec, TokenHash},
        store::persist::write_for,
        store::{Seen, Write},
        wire::protocol::{ErrorCode, Message},
        wire::{game_state, messages_for},
    };

    use super::super::tests::{code, room, B, W};

    fn play(r: &mut Room, token: &str, mv: &str, now: Instant) {
        let ply = r.game().ply() as u64;
        match r.play(Some(token), mv, ply, now) {
            Ok(MoveOutcome::Played(_)) => {}
            other => panic!("{mv}: {other:?}"),
        }
    }

    #[test]
    fn refusals_change_nothing() {
        let now = Instant::now();
        let (mut waiting, _) = Room::create("g".into(), 0, None, Color::White, TokenHash::of(W));
        assert_eq!(
            code(waiting.propose_takeback(Some(W), now)),
            ErrorCode::GameNotStarted
        );
        let mut r = room(None, now);
        let before = game_state(&r, None, now);
        // Nobody has moved: nothing to take back.
        assert_eq!(
            code(r.propose_takeback(Some(W), now)),
            ErrorCode::NoTakeback
        );
        assert_eq!(game_state(&r, None, now), before);
        play(&mut r, W, "e2e4", now);
        let after_e4 = game_state(&r, None, now);
        // Black has not moved yet.
        assert_eq!(
            code(r.propose_takeback(Some(B), now)),
            ErrorCode::NoTakeback
        );
        assert_eq!(code(r.propose_takeback(None, now)), ErrorCode::NotAPlayer);
        assert_eq!(
            code(r.propose_takeback(Some("x"), now)),
            ErrorCode::InvalidToken
        );
        assert_eq!(
            code(r.answer_takeback(Some(B), true, now)),
            ErrorCode::NoTakebackOffer
        );
        assert_eq!(
            code(r.answer_takeback(Some(W), false, now)),
            ErrorCode::NoTakebackOffer
        );
        assert_eq!(game_state(&r, None, now), after_e4);
        r.propose_takeback(Some(W), now).unwrap();
        assert_eq!(
            code(r.propose_takeback(Some(W), now)),
            ErrorCode::TakebackAlreadyOffered
        );
        // One request at a time, whoever asks.
        play(&mut r, B, "e7e5", now);
        r.propose_takeback(Some(B), now).unwrap();
        assert_eq!(
            code(r.propose_takeback(Some(W), now)),
            ErrorCode::TakebackAlreadyOffered
        );
        // Accepting one's own request, a watcher, a stranger.
        assert_eq!(
            code(r.answer_takeback(Some(B), true, now)),
            ErrorCode::NoTakebackOffer
        );
        assert_eq!(
            code(r.answer_takeback(None, true, now)),
            ErrorCode::NotAPlayer
        );
        assert_eq!(
            code(r.answer_takeback(Some("x"), true, now)),
            ErrorCode::InvalidToken
        );
        assert_eq!(r.takeback(), Some(Color::Black));
        assert_eq!(r.game().ply(), 2);
        let standing = game_state(&r, None, now);
        r.resign(Some(W), now).unwrap();
        // A finished game: refused, and the request is gone with the game.
        assert_eq!(r.takeback(), None);
        assert_eq!(code(r.propose_takeback(Some(W), now)), ErrorCode::GameOver);
        assert_eq!(
            code(r.answer_takeback(Some(W), true, now)),
            ErrorCode::GameOver
        );
        assert_eq!(r.game().ply(), 2);
        assert_eq!(game_state(&r, None, now).fen, standing.fen);
    }

    #[test]
    fn on_your_turn_two_plies_on_theirs_one() {
        let now = Instant::now();
        let mut r = room(None, now);
        play(&mut r, W, "e2e4", now);
        play(&mut r, B, "e7e5", now);
        play(&mut r, W, "g1f3", now);
        // Black to move: White's request is one ply, Black's two.
        assert_eq!(r.takeback_plies(Color::White), 1);
        assert_eq!(r.takeback_plies(Color::Black), 2);
        let offer = r.propose_takeback(Some(B), now).unwrap();
        assert_eq!(
            messages_for(&offer.event),
            [Message::TakebackOffered {
                game: "g".into(),
                by: Color::Black,
                plies: 2,
            }]
        );
        let after_e4 = {
            let mut g = room(None, now);
            play(&mut g, W, "e2e4", now);
            g.game().position().fen()
        };
        let accepted = r.answer_takeback(Some(W), true, now).unwrap();
        assert_eq!(r.game().ply(), 1);
        assert_eq!(r.game().position().fen(), after_e4);
        assert_eq!(r.turn(), Color::Black);
        assert_eq!(r.takeback(), None);
        match &messages_for(&accepted.event)[..] {
            [Message::TakenBack {
                by: Color::Black,
                plies: 2,
                ply: 1,
                fen,
                ..
            }] => assert_eq!(fen, &after_e4),
            other => panic!("{other:?}"),
        }
        // White's one-ply request on Black's turn.
        play(&mut r, B, "d7d5", now);
        r.propose_takeback(Some(B), now).unwrap();
        r.answer_takeback(Some(W), false, now).unwrap();
        play(&mut r, W, "d2d4", now);
        r.propose_takeback(Some(W), now).unwrap();
        r.answer_takeback(Some(B), true, now).unwrap();
        assert_eq!(r.game().ply(), 2);
        assert_eq!(r.turn(), Color::White);
    }

    #[test]
    fn a_move_withdraws_the_request_and_an_acceptance_the_draw_offer() {
        let now = Instant::now();
        let mut r = room(None, now);
        play(&mut r, W, "e2e4", now);
        r.propose_takeback(Some(W), now).unwrap();
        let c = match r.play(Some(B), "e7e5", 1, now) {
            Ok(MoveOutcome::Played(c)) => c,
            other => panic!("{other:?}"),
        };
        match &messages_for(&c.event)[..] {
            [Message::Moved {
                takeback_withdrawn: Some(Color::White),
                ..
            }] => {}
            other => panic!("{other:?}"),
        }
        assert_eq!(r.takeback(), None);
        assert_eq!(
            code(r.answer_takeback(Some(B), true, now)),
            ErrorCode::NoTakebackOffer
        );
        r.offer_draw(Some(B), now).unwrap();
        r.propose_takeback(Some(W), now).unwrap();
        let c = r.answer_takeback(Some(B), true, now).unwrap();
        assert!(matches!(
            c.event,
            Event::TakenBack {
                withdrew: Some(Color::Black),
                ..
            }
        ));
        assert_eq!(r.draw_offer(), None);
        assert_eq!(r.game().ply(), 0);
    }

    #[test]
    fn the_clocks_are_booked_as_a_local_takeback() {
        let t0 = Instant::now();
        let spec = ClockSpec {
            initial_ms: 60_000,
            increment_ms: 2_000,
        };
        let mut r = room(Some(spec), t0);
        let s = |n: u64| t0 + Duration::from_secs(n);
        play(&mut r, W, "e2e4", s(1));
        play(&mut r, B, "e7e5", s(2));
        // White thinks 5 s (55 + 2 = 57), Black 3 s (57 + 2 = 59).
        play(&mut r, W, "g1f3", s(7));
        play(&mut r, B, "b8c6", s(10));
        r.propose_takeback(Some(B), s(11)).unwrap();
        // White's clock runs meanwhile: 4 s used before the answer.
        let c = r.answer_takeback(Some(W), true, s(14)).unwrap();
        // One ply taken back: Black to move; White paid its 4 s, nobody
        // got a refund, Black's clock runs.
        assert_eq!(r.game().ply(), 3);
        let after = r.clocks_at(s(14)).unwrap();
        assert_eq!(after.remaining, ByColor::new(53_000, 59_000));
        assert_eq!(after.running, Some(Color::Black));
        assert_eq!(
            write_for(&c.event),
            Some(Write::TakeBack {
                game: "g".into(),
                by: Color::Black,
                ply: 3,
                clocks: Some(ByColor::new(53_000, 59_000)),
                deadline_ms: None,
                seen: Seen {
                    ply: 4,
                    draw_offer: None
                },
            })
        );
        // Back before both first moves: no clock runs, a first move is due.
        r.limit_first_move(Duration::from_secs(30), s(14));
        r.propose_takeback(Some(W), s(15)).unwrap();
        r.answer_takeback(Some(B), true, s(15)).unwrap();
        assert_eq!(r.game().ply(), 2);
        r.propose_takeback(Some(W), s(15)).unwrap();
        r.answer_takeback(Some(B), true, s(16)).unwrap();
        assert_eq!(r.game().ply(), 0);
        assert_eq!(r.clocks_at(s(20)).unwrap().running, None);
        assert_eq!(r.first_move_left(s(20)), Some(26_000));
    }

    #[test]
    fn a_flag_fallen_before_the_answer_ends_the_game() {
        let t0 = Instant::now();
        let spec = ClockSpec {
            initial_ms: 5_000,
            increment_ms: 0,
        };
        let mut r = room(Some(spec), t0);
        play(&mut r, W, "e2e4", t0);
        play(&mut r, B, "e7e5", t0);
        play(&mut r, W, "g1f3", t0);
        r.propose_takeback(Some(W), t0).unwrap();
        let c = r
            .answer_takeback(Some(B), true, t0 + Duration::from_secs(6))
            .unwrap();
        assert!(matches!(c.event, Event::GameEnded { .. }));
        assert_eq!(r.game().ply(), 3);
        assert_eq!(r.end().map(|e| e.winner), Some(Some(Color::White)));
    }

    #[test]
    fn undo_puts_the_moves_back() {
        let t0 = Instant::now();
        let spec = ClockSpec {
            initial_ms: 60_000,
            increment_ms: 0,
        };
        let mut r = room(Some(spec), t0);
        play(&mut r, W, "e2e4", t0);
        play(&mut r, B, "e7e5", t0);
        play(&mut r, W, "g1f3", t0);
        let before = game_state(&r, None, t0);
        let c = r.propose_takeback(Some(B), t0).unwrap();
        r.undo(c.undo);
        assert_eq!(game_state(&r, None, t0), before);
        r.offer_draw(Some(W), t0).unwrap();
        r.propose_takeback(Some(B), t0).unwrap();
        let standing = game_state(&r, None, t0);
        assert_eq!(standing.takeback, Some(Color::Black));
        let c = r.answer_takeback(Some(W), true, t0).unwrap();
        assert_eq!(r.game().ply(), 1);
        r.undo(c.undo);
        assert_eq!(game_state(&r, None, t0), standing);
        let c = r.answer_takeback(Some(W), false, t0).unwrap();
        r.undo(c.undo);
        assert_eq!(game_state(&r, None, t0), standing);
    }

    /// The messages of `event` as JSON, without the version.
    fn json_of(event: &Event) -> Vec<serde_json::Value> {
        messages_for(event)
            .iter()
            .map(|m| {
                let mut v: serde_json::Value = serde_json::from_str(&m.to_text(None)).unwrap();
                v.as_object_mut().unwrap().remove("v");
                v
            })
            .collect()
    }

    #[test]
    fn the_edges_map_each_takeback_event() {
        use serde_json::json;
        let seen = Seen {
            ply: 4,
            draw_offer: None,
        };
        let clocks = Some(crate::domain::ClockReading {
            remaining: ByColor::new(1_000, 2_000),
            running: Some(Color::White),
        });
        let offered = Event::TakebackOffered {
            game: "g".into(),
            by: Color::White,
            plies: 2,
            clocks,
            seen,
        };
        assert_eq!(
            json_of(&offered),
            [json!({"type": "takeback_offered", "game": "g", "by": "white", "plies": 2})]
        );
        assert_eq!(
            write_for(&offered),
            Some(Write::TakebackOffer {
                game: "g".into(),
                by: Some(Color::White),
                standing: None,
                clocks: Some(ByColor::new(1_000, 2_000)),
                seen,
            })
        );
        // A decline clears the request of the other side, and says who declined.
        let declined = Event::TakebackDeclined {
            game: "g".into(),
            by: Color::Black,
            clocks: None,
            seen,
        };
        assert_eq!(
            json_of(&declined),
            [json!({"type": "takeback_declined", "game": "g", "by": "black"})]
        );
        assert_eq!(
            write_for(&declined),
            Some(Write::TakebackOffer {
                game: "g".into(),
                by: None,
                standing: Some(Color::White),
                clocks: None,
                seen,
            })
        );
        let taken = Event::TakenBack {
            game: "g".into(),
            by: Color::White,
            plies: 2,
            ply: 2,
            fen: "fen".into(),
            clocks,
            deadline_ms: None,
            withdrew: None,
            seen,
        };
        assert_eq!(
            json_of(&taken),
            [json!({
                "type": "taken_back", "game": "g", "by": "white", "plies": 2, "ply": 2,
                "fen": "fen",
                "clocks": {"white_ms": 1_000, "black_ms": 2_000, "running": "white"}
            })]
        );
        let mut withdrew = taken.clone();
        if let Event::TakenBack { withdrew: w, .. } = &mut withdrew {
            *w = Some(Color::Black);
        }
        assert_eq!(json_of(&withdrew)[0]["draw_offer_withdrawn"], "black");
        assert_eq!(
            write_for(&taken),
            Some(Write::TakeBack {
                game: "g".into(),
                by: Color::White,
                ply: 2,
                clocks: Some(ByColor::new(1_000, 2_000)),
                deadline_ms: None,
                seen,
            })
        );
    }

    #[test]
    fn another_servers_takeback_is_told() {
        let now = Instant::now();
        let mut r = room(None, now);
        for (t, m) in [(W, "e2e4"), (B, "e7e5"), (W, "g1f3")] {
            play(&mut r, t, m, now);
        }
        let old = r.clone();
        r.propose_takeback(Some(B), now).unwrap();
        let offered = r.clone();
        match &r.events_since(&old, now)[..] {
            [Event::TakebackOffered {
                by: Color::Black,
                plies: 2,
                ..
            }] => {}
            other => panic!("{other:?}"),
        }
        r.answer_takeback(Some(W), false, now).unwrap();
        match &r.events_since(&offered, now)[..] {
            [Event::TakebackDeclined {
                by: Color::White, ..
            }] => {}
            other => panic!("{other:?}"),
        }
        r.propose_takeback(Some(B), now).unwrap();
        let offered = r.clone();
        r.answer_takeback(Some(W), true, now).unwrap();
        let fen = r.game().position().fen();
        match &r.events_since(&offered, now)[..] {
            [Event::TakenBack {
                by: Color::Black,
                plies: 2,
                ply: 1,
                fen: told,
                ..
            }] => assert_eq!(told, &fen),
            other => panic!("{other:?}"),
        }
        // Taken back and another move played between two reads: both told,
        // and the move withdrew nothing (the takeback had).
        play(&mut r, B, "c7c5", now);
        let told = r.events_since(&offered, now);
        assert!(
            matches!(
                &told[..],
                [Event::TakenBack { ply: 1, .. }, Event::MovePlayed(m)]
                    if m.ply == 1 && m.withdrew_takeback.is_none()
            ),
            "{told:?}"
        );
        // A move withdrew the request: told on the move.
        let mut r2 = old.clone();
        r2.propose_takeback(Some(W), now).unwrap();
        let asked = r2.clone();
        play(&mut r2, B, "b8c6", now);
        match &r2.events_since(&asked, now)[..] {
            [Event::MovePlayed(m)] => assert_eq!(m.withdrew_takeback, Some(Color::White)),
            other => panic!("{other:?}"),
        }
    }
}
