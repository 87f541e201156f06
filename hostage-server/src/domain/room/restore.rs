//! A room from the store, and in step with it again: a stored game rebuilt
//! by replaying its moves through the core (after a restart, or on any
//! server of a shared store), and the events between two versions of a
//! game, which tell the followers of a game another server changed what
//! changed (the catch-up).

use std::time::Instant;

use hostage_core::{game::Game, Color, Position};

use super::Room;
use crate::{
    domain::clock::Clock,
    domain::correspondence::{Correspondence, Due},
    domain::event::Event,
    domain::record::{StoredGame, StoredMove},
};

impl Room {
    /// Rebuilds a stored game, replaying its moves through the core; the
    /// clock of the side to move counts from `now`, which the caller
    /// chooses: the present after a restart of a lone server (the time it
    /// was down is charged to no one, `clock.rs`), the last stored change
    /// on a shared store (the game went on elsewhere).
    ///
    /// # Errors
    ///
    /// A description of the first record that does not replay.
    pub fn restore(stored: StoredGame, now: Instant) -> Result<Room, String> {
        let start = Position::from_fen(&stored.start_fen)
            .map_err(|e| format!("game {}: start FEN: {e}", stored.id))?;
        if let Some((i, m)) = (0u64..).zip(&stored.moves).find(|(i, m)| m.ply != *i) {
            return Err(format!("game {}: ply {} stored at {i}", stored.id, m.ply));
        }
        let mut game = Game::from_position(start);
        replay(&mut game, &stored.id, &stored.moves)?;
        Ok(Room::assemble(stored, game, now))
    }

    /// The room of `stored`'s row and chat with `game` (its moves played),
    /// the clock of the side to move started at `now`: everything but the
    /// moves comes from the row as read, so a room rebuilt from the whole
    /// game and one brought up to date from its end (`room/tail.rs`) are
    /// the same.
    pub(super) fn assemble(stored: StoredGame, game: Game, now: Instant) -> Room {
        let clock = match (stored.clock, stored.clocks) {
            (Some(spec), Some(remaining)) => Some(Clock::restore(spec, remaining)),
            (Some(spec), None) => Some(Clock::new(spec)),
            (None, _) => None,
        };
        // A stored deadline is an instant of the wall clock: read on both
        // clocks at once, so a deadline passed while no server ran has
        // passed for the room too.
        let corr = stored.days.map(|days| Correspondence {
            due: stored
                .deadline_ms
                .filter(|_| stored.end.is_none())
                .map(|at| Due::stored(at, Instant::now(), crate::domain::time::now_ms())),
            ..Correspondence::new(days)
        });
        let mut room = Room {
            id: stored.id,
            created_ms: stored.created_ms,
            game,
            tokens: stored.tokens,
            devices: stored.devices,
            clock,
            draw_offer: stored.draw_offer,
            takeback: stored.takeback,
            end: stored.end,
            rematch: stored.rematch,
            first_move: None,
            first_move_by: None,
            corr,
            names: stored.names,
            chat: stored.chat,
            takebacks: stored.takebacks,
        };
        room.start_clock_if_due(now);
        room
    }

    /// The events that turn `old` (this game as it was known) into this
    /// room: seats taken, moves, draw offers and declines, the ending, the
    /// rematch; to tell the followers of a game another server changed
    /// (they are told, never stored: this server did not decide them).
    ///
    /// These are the difference of two states, not a log: an offer made and
    /// declined (or withdrawn by a move) between two reads is not told, as
    /// it no longer matters (the followers get the state that follows it).
    #[must_use]
    pub fn events_since(&self, old: &Room, now: Instant) -> Vec<Event> {
        let clocks = self.clocks_at(now);
        let mut events = Vec::new();
        for side in Color::ALL {
            if let (None, Some(token)) = (old.tokens.get(side), self.tokens.get(side)) {
                events.push(Event::SeatTaken {
                    game: self.id.clone(),
                    side,
                    token: *token,
                    clocks,
                    name: self.names.get(side).clone(),
                    deadline_ms: self.due().map(|d| d.at_ms),
                });
            }
        }
        // Moves taken back since (`room/takeback.rs`) are told first; the
        // moves played after the position both share follow.
        let from = self.shared_plies(old);
        let taken_back = self.taken_back_since(old, from, clocks);
        let took_back = taken_back.is_some();
        events.extend(taken_back);
        for ply in from..self.game.ply() {
            let mut played = self.move_at(ply, clocks, 0, None);
            if let Some(m) = played.as_mut().filter(|_| ply == from && !took_back) {
                // The first move read withdrew the offer and the request
                // standing before it (a takeback told withdrew them first).
                m.withdrew = old.draw_offer;
                m.withdrew_takeback = old.takeback;
            }
            if let Some(m) = played.as_mut().filter(|_| ply + 1 == self.game.ply()) {
                m.deadline_ms = self.due().map(|d| d.at_ms);
            }
            events.extend(played.map(Event::MovePlayed));
        }
        let moved = self.game.ply() > from || took_back;
        match (old.draw_offer, self.draw_offer) {
            (None, Some(by)) => events.push(Event::DrawOffered {
                game: self.id.clone(),
                by,
                clocks,
                seen: self.seen(),
            }),
            (Some(by), None) if !moved && self.end.is_none() => {
                events.push(Event::DrawDeclined {
                    game: self.id.clone(),
                    by: by.other(),
                    clocks,
                    seen: self.seen(),
                });
            }
            _ => {}
        }
        events.extend(self.takeback_request_since(old, moved, clocks));
        if old.end.is_none() {
            events.extend(self.ended_event(now));
        }
        if let (None, Some(new)) = (&old.rematch, &self.rematch) {
            events.push(Event::RematchLinked {
                game: self.id.clone(),
                rematch: new.clone(),
                new: None,
            });
        }
        // The lines posted since (on another server), in their order.
        for line in self.chat.iter().skip(old.chat.len()) {
            events.push(Event::ChatPosted {
                game: self.id.clone(),
                line: line.clone(),
            });
        }
        events
    }
}

/// Plays stored moves on `game`. They are long form, as the server wrote
/// them, so they are read as long form only: reading them as SAN first
/// (the core's lenient `Game::from_moves`) would build an error, FEN and
/// all, for every piece move (`g1f3` is no pawn move) before falling back.
/// A failure is worded as the core's move-list errors are.
pub(super) fn replay(game: &mut Game, id: &str, moves: &[StoredMove]) -> Result<(), String> {
    for m in moves {
        let (turn, fullmove) = (game.position().turn(), game.position().fullmoves().get());
        game.push_uci(&m.uci).map_err(|e| {
            format!(
                "game {id}: cannot play move {} ({}'s move {fullmove}): {e}",
                m.ply + 1,
                turn.name()
            )
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use hostage_core::{ByColor, Position};

    use crate::{
        domain::room::{
            tests::{B, W},
            Room,
        },
        domain::TokenHash,
        store::StoredGame,
    };

    #[test]
    fn a_stored_game_replays_through_the_core_and_a_bad_move_is_named() {
        use crate::store::StoredMove;
        let stored = |moves: &[&str]| StoredGame {
            id: "g".into(),
            created_ms: 0,
            start_fen: Position::new().fen(),
            clock: None,
            days: None,
            deadline_ms: None,
            tokens: ByColor::new(Some(TokenHash::of(W)), Some(TokenHash::of(B))),
            devices: ByColor::default(),
            clocks: None,
            draw_offer: None,
            takeback: None,
            end: None,
            moves: (0u64..)
                .zip(moves)
                .map(|(ply, m)| StoredMove {
                    ply,
                    uci: (*m).to_string(),
                    clocks: None,
                    at_ms: 0,
                    deadline_ms: None,
                })
                .collect(),
            rematch: None,
            updated_ms: 0,
            names: ByColor::default(),
            chat: Vec::new(),
            takebacks: 0,
        };
        let now = Instant::now();
        let r = Room::restore(stored(&["e2e4", "e7e5"]), now).unwrap();
        assert_eq!(r.game().ply(), 2);
        let e = Room::restore(stored(&["e2e4", "e7e5", "e1e3"]), now).unwrap_err();
        // Worded as the core's move-list error: the 1-based move, its text,
        // whose move it was, and why, in which position.
        assert!(
            e.starts_with("game g: cannot play move 3 (white's move 2): illegal uci: 'e1e3' in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w"),
            "{e}"
        );
    }
}
