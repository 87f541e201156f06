//! One game's authoritative state: the core's [`Game`], the two seats and
//! their secret tokens, the clocks, a standing draw offer, a standing
//! takeback request (`room/takeback.rs`), and the ending; rebuilt from the
//! store and caught up with it in `room/restore.rs`, brought up to date from
//! the end of the stored game in `room/tail.rs`.
//!
//! Policy: a [`Room`] decides, it does not store or send. Every action either
//! is refused with a [`ProtoError`] and changes nothing, or changes the room
//! and returns a [`Change`]: the domain [`Event`] it decided (`event.rs`)
//! and an [`Undo`] that puts the room back exactly as it was if the store
//! refuses. The room builds no wire message and no store write: the edges
//! map the event, `store/persist.rs` to the write to store and `wire/mod.rs` to the
//! messages to send once it is stored. The game service (`games.rs`) holds
//! the room's lock across the write, so no one sees a change before it is
//! stored.
//!
//! Every move is checked by `hostage-core`; the rules' endings come from
//! [`Game::outcome`]; resignation, agreement and time are added here.

use std::time::{Duration, Instant};

use hostage_core::{
    game::Game, pgn::PgnGame, pgn::PgnResult, uci::UciMove, ByColor, Color, Position,
};

mod devices;
mod restore;
mod tail;
mod takeback;

use crate::{
    domain::chat::{self, ChatLine},
    domain::clock::Clock,
    domain::correspondence::{Correspondence, Days, Due},
    domain::event::{Event, MovePlayed},
    domain::names::DisplayName,
    domain::record::{NewGame, Seen},
    domain::refusal::{ErrorCode, ProtoError},
    domain::{
        self, ClockReading, ClockSpec, End, EndReason, SeatDevices, SeatHashes, Status, TokenHash,
    },
};

/// What a room needs to be put back as it was before a change.
#[derive(Clone, Debug)]
pub struct Undo {
    tokens: SeatHashes,
    devices: SeatDevices,
    clock: Option<Clock>,
    draw_offer: Option<Color>,
    takeback: Option<Color>,
    end: Option<End>,
    rematch: Option<String>,
    first_move_by: Option<Instant>,
    corr: Option<Correspondence>,
    pushed_move: bool,
    /// The moves a takeback popped, last first (pushed back by [`Room::undo`]).
    popped: Vec<hostage_core::Move>,
    names: ByColor<Option<DisplayName>>,
    chat_len: usize,
    takebacks: u64,
}

/// A change made to a room, not yet stored.
#[derive(Debug)]
pub struct Change {
    /// What the room decided: to store, then to tell.
    pub event: Event,
    /// How to take the change back if the store refuses it.
    pub undo: Undo,
}

/// The answer to a `move`.
#[derive(Debug)]
#[non_exhaustive]
pub enum MoveOutcome {
    /// A new move, to store and broadcast.
    Played(Change),
    /// A resent move already stored at that ply: acknowledge it again
    /// ([`Event::MoveRepeated`]).
    Duplicate(Event),
    /// The mover's flag had fallen: store the ending, broadcast it, and
    /// refuse the move with `game_over`.
    Flagged(Change),
}

/// One game on the server.
#[derive(Clone, Debug)]
pub struct Room {
    id: String,
    created_ms: u64,
    game: Game,
    tokens: SeatHashes,
    /// Each seat's further tokens, one per device of its account
    /// (`room/devices.rs`).
    devices: SeatDevices,
    clock: Option<Clock>,
    draw_offer: Option<Color>,
    /// The standing takeback request, by the side asking.
    takeback: Option<Color>,
    end: Option<End>,
    /// The rematch's id, once a player of the finished game asked for one.
    rematch: Option<String>,
    /// How long each side has for its first move in a timed game (`None`:
    /// no limit, until the game service sets it).
    first_move: Option<Duration>,
    /// When the side to move's first move is due (a timed game before
    /// both first moves); past it the game is aborted.
    first_move_by: Option<Instant>,
    /// Days per move and the standing deadline, for a correspondence game
    /// (`correspondence.rs`).
    corr: Option<Correspondence>,
    /// Each seat's display name, if given.
    names: ByColor<Option<DisplayName>>,
    /// The game's chat, by index (`chat.rs`).
    chat: Vec<ChatLine>,
    /// How many takebacks were accepted in the game, as stored (the mark
    /// a catch-up compares: `room/tail.rs`).
    takebacks: u64,
}

fn err(code: ErrorCode, message: impl Into<String>) -> ProtoError {
    ProtoError::new(code, message)
}

impl Room {
    /// A new game from the start position, with its creator's seat; and the
    /// record to store.
    #[must_use]
    pub fn create(
        id: String,
        created_ms: u64,
        clock: Option<ClockSpec>,
        seat: Color,
        token: TokenHash,
    ) -> (Room, NewGame) {
        Room::create_named(id, created_ms, clock, seat, token, None)
    }

    /// As [`Room::create`], the creator's seat named `name`.
    #[must_use]
    pub fn create_named(
        id: String,
        created_ms: u64,
        clock: Option<ClockSpec>,
        seat: Color,
        token: TokenHash,
        name: Option<DisplayName>,
    ) -> (Room, NewGame) {
        Room::create_with_days(id, created_ms, clock, None, seat, token, name)
    }

    /// As [`Room::create_named`], a correspondence game of `days` per
    /// move when `days` is given (then `clock` is `None`: a game has one
    /// time control).
    #[must_use]
    pub fn create_with_days(
        id: String,
        created_ms: u64,
        clock: Option<ClockSpec>,
        days: Option<Days>,
        seat: Color,
        token: TokenHash,
        name: Option<DisplayName>,
    ) -> (Room, NewGame) {
        let clock = if days.is_some() { None } else { clock };
        let mut tokens = SeatHashes::default();
        *tokens.get_mut(seat) = Some(token);
        let mut names = ByColor::<Option<DisplayName>>::default();
        *names.get_mut(seat) = name.clone();
        let room = Room {
            id: id.clone(),
            created_ms,
            game: Game::new(),
            tokens,
            devices: SeatDevices::default(),
            clock: clock.map(Clock::new),
            draw_offer: None,
            takeback: None,
            end: None,
            rematch: None,
            first_move: None,
            first_move_by: None,
            corr: days.map(Correspondence::new),
            names,
            chat: Vec::new(),
            takebacks: 0,
        };
        let record = NewGame {
            id,
            created_ms,
            start_fen: room.game.start().fen(),
            clock,
            days,
            seat,
            token,
            name,
        };
        (room, record)
    }

    /// Starts the side to move's clock if the game goes on and both sides
    /// have made their first move (no clock runs before: lichess's rule).
    fn start_clock_if_due(&mut self, now: Instant) {
        if self.status() == Status::Active && self.game.ply() >= 2 {
            let turn = self.turn();
            if let Some(clock) = &mut self.clock {
                if clock.running().is_none() {
                    clock.start(turn, now);
                }
            }
        }
    }

    /// Sets how long each side has for its first move in a timed game, and,
    /// if a first move is due now, starts counting it from `since` (a game
    /// just read from the store: the time since its last stored change, as
    /// the clocks count it). A deadline already counting is kept.
    pub fn limit_first_move(&mut self, limit: Duration, since: Instant) {
        self.first_move = Some(limit);
        if self.first_move_by.is_none() {
            self.arm_first_move(since);
        }
    }

    /// Counts the side to move's first move from `since`, if one is due:
    /// a timed game that goes on, before both first moves.
    fn arm_first_move(&mut self, since: Instant) {
        let due = self.clock.is_some() && self.status() == Status::Active && self.game.ply() < 2;
        self.first_move_by = match self.first_move {
            Some(limit) if due => since.checked_add(limit),
            _ => None,
        };
    }

    /// The milliseconds left at `now` for the first move due, if one is.
    #[must_use]
    pub fn first_move_left(&self, now: Instant) -> Option<u64> {
        let left = self.first_move_by?.saturating_duration_since(now);
        Some(u64::try_from(left.as_millis()).unwrap_or(u64::MAX))
    }

    /// When the first move due is, if one is (see [`Room::limit_first_move`]).
    #[must_use]
    pub fn first_move_by(&self) -> Option<Instant> {
        self.first_move_by
    }

    /// Sets the length of a correspondence game's day (the server's
    /// option; [`crate::domain::correspondence::DAY`] unless set). A
    /// deadline already standing is kept: it was stored as an instant.
    pub fn set_correspondence_day(&mut self, day: Duration) {
        if let Some(corr) = &mut self.corr {
            corr.day = day;
        }
    }

    /// Whether a seat gone may be told as gone and claimed against: a game
    /// that goes on, not a correspondence game (its players are away
    /// between moves; the deadline is its only limit).
    #[must_use]
    pub fn abandonment_applies(&self) -> bool {
        self.status() == Status::Active && self.corr.is_none()
    }

    /// Days per move, for a correspondence game.
    #[must_use]
    pub fn days(&self) -> Option<Days> {
        self.corr.map(|c| c.days)
    }

    /// The standing deadline of the side to move, in a correspondence game
    /// that goes on.
    #[must_use]
    pub fn due(&self) -> Option<Due> {
        self.corr.and_then(|c| c.due)
    }

    /// Sets the side to move's correspondence deadline from `now` if the
    /// game goes on (both seats taken, no ending), else clears it.
    fn restart_due(&mut self, now: Instant, now_ms: u64) {
        let goes_on = self.status() == Status::Active;
        if let Some(corr) = &mut self.corr {
            if goes_on {
                corr.restart(now, now_ms);
            } else {
                corr.due = None;
            }
        }
    }

    /// The next instant at which the game may end by itself: a flag fall,
    /// a first move not made in time, or a correspondence deadline.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        let flag = self
            .clock
            .and_then(|c| c.deadline())
            .or(self.due().map(|d| d.by));
        match (flag, self.first_move_by) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The game id.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The core's game record.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The clocks, for a timed game.
    #[must_use]
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The time control (`None`: untimed).
    #[must_use]
    pub fn clock_spec(&self) -> Option<ClockSpec> {
        self.clock.map(|c| c.spec())
    }

    /// For `rematch`: the requester's seat in this game and the rematch
    /// already linked to it, if any.
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`, `game_not_over`.
    pub fn rematch_seat(&self, token: Option<&str>) -> Result<(Color, Option<String>), ProtoError> {
        let side = self.seat(token)?;
        if self.end.is_none() {
            return Err(err(
                ErrorCode::GameNotOver,
                "a rematch is for a game that has ended",
            ));
        }
        Ok((side, self.rematch.clone()))
    }

    /// Links the rematch `new` to this finished game (the caller has
    /// checked it has none): the change stores the new game and the link.
    pub fn link_rematch(&mut self, new: NewGame) -> Change {
        let undo = self.undo_point();
        self.rematch = Some(new.id.clone());
        Change {
            event: Event::RematchLinked {
                game: self.id.clone(),
                rematch: new.id.clone(),
                new: Some(new),
            },
            undo,
        }
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.game.position().turn()
    }

    /// Waiting, active or finished.
    #[must_use]
    pub fn status(&self) -> Status {
        if self.end.is_some() {
            Status::Finished
        } else if self.tokens.iter().all(|(_, t)| t.is_some()) {
            Status::Active
        } else {
            Status::Waiting
        }
    }

    /// The clocks as they read at `now` (`None`: untimed).
    #[must_use]
    pub fn clocks_at(&self, now: Instant) -> Option<ClockReading> {
        self.clock.map(|c| c.at(now))
    }

    /// Which seats are taken.
    #[must_use]
    pub fn seats_taken(&self) -> ByColor<bool> {
        ByColor::new_with(|side| self.tokens.get(side).is_some())
    }

    /// The standing draw offer, by the side that made it.
    #[must_use]
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// The standing takeback request, by the side that made it.
    #[must_use]
    pub fn takeback(&self) -> Option<Color> {
        self.takeback
    }

    /// The rematch's id, once a player asked for one.
    #[must_use]
    pub fn rematch(&self) -> Option<&str> {
        self.rematch.as_deref()
    }

    /// The display name of `side`'s player, if given.
    #[must_use]
    pub fn name(&self, side: Color) -> Option<&DisplayName> {
        self.names.get(side).as_ref()
    }

    /// When the game was created, milliseconds since the Unix epoch.
    #[must_use]
    pub fn created_ms(&self) -> u64 {
        self.created_ms
    }

    /// How many takebacks were accepted in the game (the store's mark of
    /// takebacks, [`StoredGame::takebacks`](crate::store::StoredGame)).
    #[must_use]
    pub fn takebacks(&self) -> u64 {
        self.takebacks
    }

    /// The game's chat, oldest first.
    #[must_use]
    pub fn chat_lines(&self) -> &[ChatLine] {
        &self.chat
    }

    /// `chat`: a seated player posts `text` at `now_ms` (wall clock, as
    /// the stored lines' times). Allowed in any status, after the end too.
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`, `invalid_chat`, `chat_full`,
    /// `chat_too_fast`.
    pub fn post_chat(
        &mut self,
        token: Option<&str>,
        text: &str,
        now_ms: u64,
    ) -> Result<Change, ProtoError> {
        let by = self.seat(token)?;
        let text = chat::checked_text(text)?;
        chat::check_room(&self.chat, by, now_ms)?;
        let undo = self.undo_point();
        let line = ChatLine {
            index: self.chat.len() as u64,
            by,
            text,
            at_ms: now_ms,
        };
        self.chat.push(line.clone());
        Ok(Change {
            event: Event::ChatPosted {
                game: self.id.clone(),
                line,
            },
            undo,
        })
    }

    /// The game as it is now, for a write's condition.
    fn seen(&self) -> Seen {
        Seen {
            ply: self.game.ply() as u64,
            draw_offer: self.draw_offer,
        }
    }

    fn undo_point(&self) -> Undo {
        Undo {
            tokens: self.tokens,
            devices: self.devices.clone(),
            clock: self.clock,
            draw_offer: self.draw_offer,
            takeback: self.takeback,
            end: self.end,
            rematch: self.rematch.clone(),
            first_move_by: self.first_move_by,
            corr: self.corr,
            pushed_move: false,
            popped: Vec::new(),
            names: self.names.clone(),
            chat_len: self.chat.len(),
            takebacks: self.takebacks,
        }
    }

    /// Takes back a change the store refused.
    pub fn undo(&mut self, undo: Undo) {
        if undo.pushed_move {
            self.game.pop();
        }
        for m in undo.popped.into_iter().rev() {
            // Moves that were legal here a moment ago are legal again.
            let _ = self.game.push(m);
        }
        self.tokens = undo.tokens;
        self.devices = undo.devices;
        self.clock = undo.clock;
        self.draw_offer = undo.draw_offer;
        self.takeback = undo.takeback;
        self.end = undo.end;
        self.rematch = undo.rematch;
        self.first_move_by = undo.first_move_by;
        self.corr = undo.corr;
        self.names = undo.names;
        self.chat.truncate(undo.chat_len);
        self.takebacks = undo.takebacks;
    }

    /// The ending as an event (for catch-up: the game as it is).
    fn ended_event(&self, now: Instant) -> Option<Event> {
        Some(Event::GameEnded {
            game: self.id.clone(),
            end: self.end?,
            clocks: self.clocks_at(now),
            seen: self.seen(),
        })
    }

    /// Ends the game now (the caller has checked it goes on).
    fn finish(&mut self, end: End, now: Instant) -> Change {
        let undo = self.undo_point();
        let seen = self.seen();
        if let Some(clock) = &mut self.clock {
            clock.stop(now);
        }
        self.draw_offer = None;
        self.takeback = None;
        self.first_move_by = None;
        if let Some(corr) = &mut self.corr {
            corr.due = None;
        }
        self.end = Some(end);
        Change {
            event: Event::GameEnded {
                game: self.id.clone(),
                end,
                clocks: self.clocks_at(now),
                seen,
            },
            undo,
        }
    }

    /// The seat acting with `token`, refusing spectators (`not_a_player`)
    /// and strangers (`invalid_token`).
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`.
    pub fn seat(&self, token: Option<&str>) -> Result<Color, ProtoError> {
        let token = token.ok_or_else(|| {
            err(
                ErrorCode::NotAPlayer,
                "this action needs a seat's token; spectators cannot act",
            )
        })?;
        domain::seat_of(&self.tokens, &self.devices, token).ok_or_else(|| {
            err(
                ErrorCode::InvalidToken,
                "this token is no seat of this game",
            )
        })
    }

    fn ensure_not_over(&self) -> Result<(), ProtoError> {
        match self.end {
            Some(end) => Err(err(
                ErrorCode::GameOver,
                format!(
                    "the game is over ({} by {})",
                    end.result(),
                    end.termination()
                ),
            )),
            None => Ok(()),
        }
    }

    fn ensure_active(&self) -> Result<(), ProtoError> {
        self.ensure_not_over()?;
        if self.status() == Status::Waiting {
            return Err(err(
                ErrorCode::GameNotStarted,
                "the game starts when both seats are taken",
            ));
        }
        Ok(())
    }

    /// Takes a free seat (`want`, or the free one) with `token`.
    ///
    /// # Errors
    ///
    /// `game_over`, `game_full`, `seat_taken`.
    pub fn join(
        &mut self,
        want: Option<Color>,
        token: TokenHash,
        now: Instant,
    ) -> Result<(Color, Change), ProtoError> {
        self.join_named(want, token, None, now)
    }

    /// As [`Room::join`], the seat named `name`.
    ///
    /// # Errors
    ///
    /// `game_over`, `game_full`, `seat_taken`.
    pub fn join_named(
        &mut self,
        want: Option<Color>,
        token: TokenHash,
        name: Option<DisplayName>,
        now: Instant,
    ) -> Result<(Color, Change), ProtoError> {
        self.ensure_not_over()?;
        let free: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|&s| self.tokens.get(s).is_none())
            .collect();
        let side = match (want, free.first()) {
            (_, None) => {
                return Err(err(
                    ErrorCode::GameFull,
                    "both seats are taken; watch the game instead",
                ))
            }
            (Some(side), Some(_)) if !free.contains(&side) => {
                return Err(err(
                    ErrorCode::SeatTaken,
                    format!("the {} seat is taken", side.name()),
                )
                .given(side.name()))
            }
            (Some(side), Some(_)) => side,
            (None, Some(&side)) => side,
        };
        let undo = self.undo_point();
        *self.tokens.get_mut(side) = Some(token);
        *self.names.get_mut(side) = name.clone();
        self.start_clock_if_due(now);
        self.arm_first_move(now);
        self.restart_due(now, domain::time::now_ms());
        let change = Change {
            event: Event::SeatTaken {
                game: self.id.clone(),
                side,
                token,
                clocks: self.clocks_at(now),
                name,
                deadline_ms: self.due().map(|d| d.at_ms),
            },
            undo,
        };
        Ok((side, change))
    }

    /// An already played ply, with the clocks to tell, the time to store
    /// and the ending it brought (none: told apart, or not brought).
    fn move_at(
        &self,
        ply: usize,
        clocks: Option<ClockReading>,
        at_ms: u64,
        end: Option<End>,
    ) -> Option<MovePlayed> {
        let m = self.game.moves().get(ply)?;
        let before = self.game.position_at(ply)?;
        let after = self.game.position_at(ply + 1)?;
        Some(MovePlayed {
            game: self.id.clone(),
            ply: ply as u64,
            uci: UciMove::from_move(m).to_string(),
            san: self.game.san(ply)?,
            fen: after.fen(),
            by: before.turn(),
            clocks,
            at_ms,
            end,
            withdrew: None,
            withdrew_takeback: None,
            deadline_ms: None,
        })
    }

    /// The move `text` in long form, if it is legal at ply `current` (the
    /// game's ply).
    fn legal_move(&self, text: &str, current: u64) -> Result<hostage_core::Move, ProtoError> {
        let uci = UciMove::from_ascii(text.as_bytes()).map_err(|e| {
            err(
                ErrorCode::InvalidMove,
                format!("not a long-form move ({e}); examples: e2e4, e7e8q, N@c7, N#B@c7"),
            )
            .given(text)
        })?;
        uci.to_move(self.game.position()).map_err(|e| {
            err(
                ErrorCode::IllegalMove,
                format!("{uci} is not a legal move at ply {current}"),
            )
            .given(text)
            .because(e.reason())
        })
    }

    /// A `move` request: checks everything, in the order of
    /// `docs/protocol.md`, and plays the move.
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`, `game_over`, `game_not_started`,
    /// `ply_mismatch`, `not_your_turn`, `invalid_move`, `illegal_move`.
    pub fn play(
        &mut self,
        token: Option<&str>,
        text: &str,
        ply: u64,
        now: Instant,
    ) -> Result<MoveOutcome, ProtoError> {
        let side = self.seat(token)?;
        let current = self.game.ply() as u64;
        let mismatch = || {
            let mut e = err(
                ErrorCode::PlyMismatch,
                format!("the game is at ply {current}, the move was sent for ply {ply}"),
            )
            .given(ply.to_string());
            e.expected = Some(current);
            e
        };
        if ply < current {
            // A resend of a stored move is acknowledged again, never replayed.
            let index = ply as usize;
            let stored = self.game.moves().get(index).map(UciMove::from_move);
            let by = self.game.position_at(index).map(Position::turn);
            let sent = UciMove::from_ascii(text.as_bytes()).ok();
            if stored.is_some() && stored == sent && by == Some(side) {
                if let Some(ack) = self.move_at(index, self.clocks_at(now), 0, None) {
                    return Ok(MoveOutcome::Duplicate(Event::MoveRepeated(ack)));
                }
            }
            return Err(mismatch());
        }
        self.ensure_active()?;
        if ply > current {
            return Err(mismatch());
        }
        if side != self.turn() {
            return Err(err(
                ErrorCode::NotYourTurn,
                format!("{} is to move", self.turn().name()),
            ));
        }
        let m = self.legal_move(text, current)?;
        if let Some(change) = self.check_deadline(now) {
            return Ok(MoveOutcome::Flagged(change));
        }
        let mut undo = self.undo_point();
        if self.game.push(m).is_err() {
            return Err(err(
                ErrorCode::InternalError,
                "the core refused a legal move",
            ));
        }
        undo.pushed_move = true;
        if let Some(clock) = &mut self.clock {
            // Not flagged (checked above), so the press succeeds. No clock
            // runs before both first moves: the first move that completes
            // them starts the opponent's.
            if clock.running().is_some() {
                let _ = clock.press(now);
            }
        }
        self.start_clock_if_due(now);
        self.arm_first_move(now);
        let withdrew = self.draw_offer.take();
        let withdrew_takeback = self.takeback.take();
        self.end = self.game.outcome().map(|o| End {
            reason: EndReason::Rules(o.termination),
            winner: o.winner,
        });
        if self.end.is_some() {
            if let Some(clock) = &mut self.clock {
                clock.stop(now);
            }
        }
        if self.end.is_some() {
            self.first_move_by = None;
        }
        let at_ms = domain::time::now_ms();
        self.restart_due(now, at_ms);
        let mut played = self
            .move_at(current as usize, self.clocks_at(now), at_ms, self.end)
            .ok_or_else(|| err(ErrorCode::InternalError, "the move just played is missing"))?;
        played.withdrew = withdrew;
        played.withdrew_takeback = withdrew_takeback;
        played.deadline_ms = self.due().map(|d| d.at_ms);
        Ok(MoveOutcome::Played(Change {
            event: Event::MovePlayed(played),
            undo,
        }))
    }

    /// `resign`.
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`, `game_over`.
    pub fn resign(&mut self, token: Option<&str>, now: Instant) -> Result<Change, ProtoError> {
        let side = self.seat(token)?;
        self.ensure_not_over()?;
        let end = End {
            reason: EndReason::Resignation,
            winner: Some(side.other()),
        };
        Ok(self.finish(end, now))
    }

    /// `offer_draw` (accepts a standing offer of the opponent).
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`, `game_over`, `game_not_started`,
    /// `draw_already_offered`.
    pub fn offer_draw(&mut self, token: Option<&str>, now: Instant) -> Result<Change, ProtoError> {
        let side = self.seat(token)?;
        self.ensure_active()?;
        match self.draw_offer {
            Some(by) if by == side => Err(err(
                ErrorCode::DrawAlreadyOffered,
                "your draw offer already stands",
            )),
            Some(_) => Ok(self.finish(
                End {
                    reason: EndReason::Agreement,
                    winner: None,
                },
                now,
            )),
            None => {
                let undo = self.undo_point();
                let seen = self.seen();
                self.draw_offer = Some(side);
                Ok(Change {
                    event: Event::DrawOffered {
                        game: self.id.clone(),
                        by: side,
                        clocks: self.clocks_at(now),
                        seen,
                    },
                    undo,
                })
            }
        }
    }

    /// `accept_draw` (`accept == true`) or `decline_draw`.
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`, `game_over`, `game_not_started`,
    /// `no_draw_offer`.
    pub fn answer_draw(
        &mut self,
        token: Option<&str>,
        accept: bool,
        now: Instant,
    ) -> Result<Change, ProtoError> {
        let side = self.seat(token)?;
        self.ensure_active()?;
        if self.draw_offer != Some(side.other()) {
            return Err(err(
                ErrorCode::NoDrawOffer,
                "no draw offer from the opponent stands",
            ));
        }
        if accept {
            return Ok(self.finish(
                End {
                    reason: EndReason::Agreement,
                    winner: None,
                },
                now,
            ));
        }
        let undo = self.undo_point();
        let seen = self.seen();
        self.draw_offer = None;
        Ok(Change {
            event: Event::DrawDeclined {
                game: self.id.clone(),
                by: side,
                clocks: self.clocks_at(now),
                seen,
            },
            undo,
        })
    }

    /// `claim_win` (`win == true`) or `claim_draw`: the opponent has had no
    /// connection following the game for `after` (`gone_for` tells how
    /// long each seat has been gone, `None` if present).
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`, `game_over`, `game_not_started`,
    /// `claim_too_early`.
    pub fn claim(
        &mut self,
        token: Option<&str>,
        win: bool,
        gone_for: impl Fn(Color) -> Option<std::time::Duration>,
        after: std::time::Duration,
        now: Instant,
    ) -> Result<Change, ProtoError> {
        let side = self.seat(token)?;
        self.ensure_active()?;
        if self.corr.is_some() {
            return Err(err(
                ErrorCode::ClaimTooEarly,
                "a correspondence game has no abandonment claim: it ends on time when the deadline passes",
            ));
        }
        let gone = gone_for(side.other()).unwrap_or_default();
        if gone_for(side.other()).is_none() || gone < after {
            let wait = after.saturating_sub(gone).as_millis();
            return Err(err(
                ErrorCode::ClaimTooEarly,
                format!(
                    "the opponent must be gone for {} ms first (another {wait} ms at least)",
                    after.as_millis()
                ),
            ));
        }
        let end = End {
            reason: EndReason::Abandonment,
            winner: win.then_some(side),
        };
        Ok(self.finish(end, now))
    }

    /// The ending the time brings at `now`: the game aborted when a first
    /// move due was not made in time, or lost on time when the running
    /// side's flag has fallen or a correspondence deadline has passed
    /// (aborted, before both first moves: `correspondence.rs`).
    pub fn check_deadline(&mut self, now: Instant) -> Option<Change> {
        if self.end.is_some() {
            return None;
        }
        if self.corr.is_some_and(|c| c.passed(now)) {
            let end = if self.game.ply() < 2 {
                End {
                    reason: EndReason::Aborted,
                    winner: None,
                }
            } else {
                End {
                    reason: EndReason::Timeout,
                    winner: Some(self.turn().other()),
                }
            };
            return Some(self.finish(end, now));
        }
        if self.first_move_by.is_some_and(|by| now >= by) {
            let end = End {
                reason: EndReason::Aborted,
                winner: None,
            };
            return Some(self.finish(end, now));
        }
        let flagged = self.clock?.flagged(now)?;
        let end = End {
            reason: EndReason::Timeout,
            winner: Some(flagged.other()),
        };
        Some(self.finish(end, now))
    }

    /// `abort`: calls the game off, with no result, before both sides have
    /// made their first move (also while a seat is still free).
    ///
    /// # Errors
    ///
    /// `not_a_player`, `invalid_token`, `game_over`, `cannot_abort`.
    pub fn abort(&mut self, token: Option<&str>, now: Instant) -> Result<Change, ProtoError> {
        self.seat(token)?;
        self.ensure_not_over()?;
        if self.game.ply() >= 2 {
            return Err(err(
                ErrorCode::CannotAbort,
                "both sides have moved: the game can no longer be aborted (resign or offer a draw)",
            ));
        }
        let end = End {
            reason: EndReason::Aborted,
            winner: None,
        };
        Ok(self.finish(end, now))
    }

    /// The PGN `TimeControl` tag (PGN standard, 9.6.1): `initial+increment`
    /// in seconds, `1/seconds` for a correspondence game (one move in so
    /// many seconds, by the standard day), `-` for none.
    fn time_control_tag(&self) -> String {
        if let Some(days) = self.days() {
            return format!("1/{}", days.window(domain::correspondence::DAY).as_secs());
        }
        self.clock.map_or("-".to_string(), |c| {
            let s = c.spec();
            format!("{}+{}", s.initial_ms / 1000, s.increment_ms / 1000)
        })
    }

    /// The game as PGN, with the tags of `docs/protocol.md`.
    #[must_use]
    pub fn pgn(&self) -> String {
        self.pgn_at(None)
    }

    /// The game as PGN, its `Site` the server's public address `site` if
    /// known: the players' names (`?` for none, as PGN has it), and the
    /// date and time (UTC) the game was created.
    #[must_use]
    pub fn pgn_at(&self, site: Option<&str>) -> String {
        self.pgn_rated(site, None)
    }

    /// As [`Room::pgn_at`], for a rated game with `elo`, each player's
    /// rating as the game began: the `Event` says rated, and `WhiteElo`
    /// and `BlackElo` carry the ratings (`?` in an unrated game, as PGN
    /// writes an unknown value).
    #[must_use]
    pub fn pgn_rated(&self, site: Option<&str>, elo: Option<ByColor<u32>>) -> String {
        let mut pgn = PgnGame::from_game(&self.game);
        let event = if elo.is_some() {
            "Rated Hostage Chess online game"
        } else {
            "Hostage Chess online game"
        };
        pgn.set_tag("Event", event);
        match site {
            Some(site) => pgn.set_tag("Site", site),
            None => pgn.set_tag("Site", &format!("hostage serve, game {}", self.id)),
        }
        pgn.set_tag("Date", &crate::domain::time::pgn_date(self.created_ms));
        pgn.set_tag("Round", "-");
        let name = |side| self.name(side).map_or("?", DisplayName::as_str);
        pgn.set_tag("White", name(Color::White));
        pgn.set_tag("Black", name(Color::Black));
        for (tag, side) in [("WhiteElo", Color::White), ("BlackElo", Color::Black)] {
            let shown = elo.map_or_else(|| "?".to_string(), |e| e.get(side).to_string());
            pgn.set_tag(tag, &shown);
        }
        pgn.set_tag("UTCDate", &crate::domain::time::pgn_date(self.created_ms));
        pgn.set_tag("UTCTime", &crate::domain::time::pgn_time(self.created_ms));
        pgn.set_tag("TimeControl", &self.time_control_tag());
        pgn.set_tag("GameId", &self.id);
        if let Some(end) = self.end {
            pgn.set_tag("Termination", end.termination());
        }
        pgn.result = self.end.map_or(PgnResult::Unknown, |e| e.pgn_result());
        pgn.write()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::{
        store::persist::write_for, store::Write, wire::messages_for, wire::protocol::Message,
    };

    fn state(r: &Room, now: Instant) -> crate::wire::protocol::GameState {
        crate::wire::game_state(r, None, now)
    }

    // The seats' tokens and a started room, shared with the takeback
    // tests (`room/takeback.rs`).
    pub(super) const W: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    pub(super) const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    pub(super) fn room(clock: Option<ClockSpec>, now: Instant) -> Room {
        let (mut room, _) = Room::create("g".into(), 0, clock, Color::White, TokenHash::of(W));
        room.join(None, TokenHash::of(B), now).unwrap();
        room
    }

    fn played(outcome: Result<MoveOutcome, ProtoError>) -> Change {
        match outcome {
            Ok(MoveOutcome::Played(c)) => c,
            other => panic!("not played: {other:?}"),
        }
    }

    pub(super) fn code<T: std::fmt::Debug>(r: Result<T, ProtoError>) -> ErrorCode {
        r.unwrap_err().code
    }

    #[test]
    fn refusals_change_nothing() {
        let now = Instant::now();
        let (mut waiting, _) = Room::create("g".into(), 0, None, Color::White, TokenHash::of(W));
        assert_eq!(
            code(waiting.play(Some(W), "e2e4", 0, now)),
            ErrorCode::GameNotStarted
        );
        let mut r = room(None, now);
        let fen = r.game().position().fen();
        assert_eq!(code(r.play(None, "e2e4", 0, now)), ErrorCode::NotAPlayer);
        assert_eq!(
            code(r.play(Some("x"), "e2e4", 0, now)),
            ErrorCode::InvalidToken
        );
        assert_eq!(
            code(r.play(Some(B), "e7e5", 0, now)),
            ErrorCode::NotYourTurn
        );
        assert_eq!(
            code(r.play(Some(W), "e2e9", 0, now)),
            ErrorCode::InvalidMove
        );
        let illegal = r.play(Some(W), "e2e5", 0, now).expect_err("illegal");
        assert_eq!(illegal.code, ErrorCode::IllegalMove);
        // A pawn does not move three squares (R1): the core's reason.
        assert_eq!(illegal.reason.map(|r| r.code()), Some("wrong_way"));
        assert!(
            illegal.message.ends_with("does not move that way"),
            "{}",
            illegal.message
        );
        assert_eq!(
            code(r.play(Some(W), "e2e4", 3, now)),
            ErrorCode::PlyMismatch
        );
        assert_eq!(
            code(r.answer_draw(Some(W), true, now)),
            ErrorCode::NoDrawOffer
        );
        assert_eq!(
            code(r.join(None, TokenHash::of("c"), now)),
            ErrorCode::GameFull
        );
        assert_eq!(r.game().ply(), 0);
        assert_eq!(r.game().position().fen(), fen);
    }

    #[test]
    fn a_resent_move_is_acknowledged_not_doubled() {
        let now = Instant::now();
        let mut r = room(None, now);
        played(r.play(Some(W), "e2e4", 0, now));
        match r.play(Some(W), "e2e4", 0, now) {
            Ok(MoveOutcome::Duplicate(ack)) => match &messages_for(&ack)[..] {
                [Message::Moved {
                    ply: 0,
                    duplicate: true,
                    ..
                }] => assert_eq!(write_for(&ack), None),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
        // Another move for a past ply, or the opponent resending it, is a mismatch.
        assert_eq!(
            code(r.play(Some(W), "d2d4", 0, now)),
            ErrorCode::PlyMismatch
        );
        assert_eq!(
            code(r.play(Some(B), "e2e4", 0, now)),
            ErrorCode::PlyMismatch
        );
        assert_eq!(r.game().ply(), 1);
    }

    #[test]
    fn undo_restores_a_refused_write() {
        let now = Instant::now();
        let spec = ClockSpec {
            initial_ms: 60_000,
            increment_ms: 1_000,
        };
        let mut r = room(Some(spec), now);
        let before = state(&r, now);
        let c = played(r.play(Some(W), "e2e4", 0, now + Duration::from_secs(2)));
        r.undo(c.undo);
        assert_eq!(state(&r, now), before);
        let c = r.offer_draw(Some(W), now).unwrap();
        r.undo(c.undo);
        assert_eq!(state(&r, now), before);
        let c = r.resign(Some(B), now).unwrap();
        r.undo(c.undo);
        assert_eq!(state(&r, now), before);
    }

    #[test]
    fn draws_resignation_and_mate() {
        let now = Instant::now();
        let mut r = room(None, now);
        r.offer_draw(Some(W), now).unwrap();
        assert_eq!(
            code(r.offer_draw(Some(W), now)),
            ErrorCode::DrawAlreadyOffered
        );
        assert_eq!(
            code(r.answer_draw(Some(W), true, now)),
            ErrorCode::NoDrawOffer
        );
        r.answer_draw(Some(B), false, now).unwrap();
        r.offer_draw(Some(B), now).unwrap();
        // A move withdraws the offer.
        played(r.play(Some(W), "f2f3", 0, now));
        assert_eq!(
            code(r.answer_draw(Some(W), true, now)),
            ErrorCode::NoDrawOffer
        );
        for (i, (t, m)) in [(B, "e7e5"), (W, "g2g4")].into_iter().enumerate() {
            played(r.play(Some(t), m, i as u64 + 1, now));
        }
        let mate = played(r.play(Some(B), "d8h4", 3, now));
        assert!(matches!(
            messages_for(&mate.event).last(),
            Some(Message::GameOver {
                result: "0-1",
                termination: "checkmate",
                ..
            })
        ));
        assert_eq!(code(r.resign(Some(W), now)), ErrorCode::GameOver);
        assert!(r.pgn().contains("[Termination \"checkmate\"]"));
        assert!(r.pgn().contains("0-1"));
    }

    #[test]
    fn a_flag_falls_on_a_late_move_and_by_itself() {
        let t0 = Instant::now();
        let spec = ClockSpec {
            initial_ms: 1_000,
            increment_ms: 0,
        };
        // Both first moves made: White's clock runs from Black's.
        let opened = |t: Instant| {
            let mut r = room(Some(spec), t);
            played(r.play(Some(W), "e2e4", 0, t));
            played(r.play(Some(B), "e7e5", 1, t));
            r
        };
        let mut r = opened(t0);
        assert!(r.check_deadline(t0).is_none());
        let late = t0 + Duration::from_millis(1_500);
        match r.play(Some(W), "d2d4", 2, late) {
            Ok(MoveOutcome::Flagged(c)) => {
                assert!(matches!(write_for(&c.event), Some(Write::Finish { .. })));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(r.end().map(|e| e.winner), Some(Some(Color::Black)));
        let mut r = opened(t0);
        let c = r.check_deadline(late).unwrap();
        assert!(matches!(
            messages_for(&c.event)[0],
            Message::GameOver {
                termination: "timeout",
                ..
            }
        ));
    }

    #[test]
    fn no_clock_runs_before_both_first_moves_and_they_take_no_time() {
        let t0 = Instant::now();
        let spec = ClockSpec {
            initial_ms: 10_000,
            increment_ms: 1_000,
        };
        let mut r = room(Some(spec), t0);
        assert_eq!(r.clocks_at(t0).unwrap().running, None);
        let t1 = t0 + Duration::from_secs(4);
        played(r.play(Some(W), "e2e4", 0, t1));
        let after_white = r.clocks_at(t1).unwrap();
        // No time off, no increment, nothing running yet.
        assert_eq!(after_white.remaining, ByColor::new(10_000, 10_000));
        assert_eq!(after_white.running, None);
        let t2 = t1 + Duration::from_secs(3);
        played(r.play(Some(B), "e7e5", 1, t2));
        let after_black = r.clocks_at(t2).unwrap();
        assert_eq!(after_black.remaining, ByColor::new(10_000, 10_000));
        assert_eq!(after_black.running, Some(Color::White));
        // From then on, as Fischer clocks do.
        let t3 = t2 + Duration::from_secs(2);
        played(r.play(Some(W), "d2d4", 2, t3));
        assert_eq!(
            r.clocks_at(t3).unwrap().remaining,
            ByColor::new(9_000, 10_000)
        );
    }

    #[test]
    fn a_first_move_not_made_in_time_aborts_the_game() {
        let t0 = Instant::now();
        let spec = ClockSpec {
            initial_ms: 60_000,
            increment_ms: 0,
        };
        let limit = Duration::from_secs(30);
        let (mut r, _) = Room::create("g".into(), 0, Some(spec), Color::White, TokenHash::of(W));
        r.limit_first_move(limit, t0);
        // Nothing is due while a seat is free.
        assert_eq!(r.deadline(), None);
        r.join(None, TokenHash::of(B), t0).unwrap();
        assert_eq!(r.deadline(), Some(t0 + limit));
        assert_eq!(
            r.first_move_left(t0 + Duration::from_secs(10)),
            Some(20_000)
        );
        // White moves in time; Black's 30 s count from that move.
        let t1 = t0 + Duration::from_secs(29);
        played(r.play(Some(W), "e2e4", 0, t1));
        assert_eq!(r.deadline(), Some(t1 + limit));
        assert!(r.check_deadline(t1 + Duration::from_secs(29)).is_none());
        let late = t1 + limit;
        // A move after the time is refused: the game is aborted instead.
        match r.play(Some(B), "e7e5", 1, late) {
            Ok(MoveOutcome::Flagged(c)) => match &messages_for(&c.event)[..] {
                [Message::GameOver {
                    result: "*",
                    termination: "aborted",
                    winner: None,
                    ..
                }] => {}
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
        assert_eq!(r.game().ply(), 1);
        assert!(r.pgn().contains("[Result \"*\"]"), "{}", r.pgn());
        // An untimed game has no first-move limit.
        let (mut u, _) = Room::create("u".into(), 0, None, Color::White, TokenHash::of(W));
        u.limit_first_move(limit, t0);
        u.join(None, TokenHash::of(B), t0).unwrap();
        assert_eq!(u.deadline(), None);
        assert!(u.check_deadline(t0 + Duration::from_secs(3600)).is_none());
    }

    #[test]
    fn abort_is_for_before_both_first_moves() {
        let now = Instant::now();
        let mut r = room(None, now);
        assert_eq!(code(r.abort(None, now)), ErrorCode::NotAPlayer);
        assert_eq!(code(r.abort(Some("x"), now)), ErrorCode::InvalidToken);
        played(r.play(Some(W), "e2e4", 0, now));
        // Either side may abort after one first move.
        let c = r.abort(Some(W), now).unwrap();
        r.undo(c.undo);
        assert_eq!(r.end(), None);
        played(r.play(Some(B), "e7e5", 1, now));
        assert_eq!(code(r.abort(Some(B), now)), ErrorCode::CannotAbort);
        assert_eq!(r.end(), None);
        let mut r = room(None, now);
        let c = r.abort(Some(B), now).unwrap();
        assert!(matches!(write_for(&c.event), Some(Write::Finish { .. })));
        assert_eq!(code(r.abort(Some(W), now)), ErrorCode::GameOver);
        // A creator alone may call off a game nobody joined.
        let (mut waiting, _) = Room::create("g".into(), 0, None, Color::White, TokenHash::of(W));
        assert!(waiting.abort(Some(W), now).is_ok());
    }

    #[test]
    fn a_move_says_which_offer_it_withdrew() {
        let now = Instant::now();
        let mut r = room(None, now);
        r.offer_draw(Some(B), now).unwrap();
        let c = played(r.play(Some(W), "e2e4", 0, now));
        match &messages_for(&c.event)[..] {
            [Message::Moved {
                draw_offer: None,
                draw_offer_withdrawn: Some(Color::Black),
                ..
            }] => {}
            other => panic!("{other:?}"),
        }
        let c = played(r.play(Some(B), "e7e5", 1, now));
        assert!(matches!(
            &messages_for(&c.event)[..],
            [Message::Moved {
                draw_offer_withdrawn: None,
                ..
            }]
        ));
        // The same, told to another server's followers (read from the store).
        let old = r.clone();
        r.offer_draw(Some(W), now).unwrap();
        let mid = r.clone();
        played(r.play(Some(W), "d2d4", 2, now));
        let told = r.events_since(&mid, now);
        match &told[..] {
            [Event::MovePlayed(m)] => assert_eq!(m.withdrew, Some(Color::White)),
            other => panic!("{other:?}"),
        }
        let told = r.events_since(&old, now);
        assert!(matches!(&told[..], [Event::MovePlayed(m)] if m.withdrew.is_none()));
    }

    #[test]
    fn names_and_chat_are_kept_undone_told_and_in_the_pgn() {
        let now = Instant::now();
        let ada = DisplayName::parse("Ada").ok();
        let (mut r, record) =
            Room::create_named("g".into(), 0, None, Color::White, TokenHash::of(W), ada);
        assert_eq!(record.name.as_ref().map(DisplayName::as_str), Some("Ada"));
        let old = r.clone();
        let (_, c) = r
            .join_named(None, TokenHash::of(B), DisplayName::parse("Bo").ok(), now)
            .unwrap();
        assert!(matches!(&c.event, Event::SeatTaken { name: Some(n), .. } if n.as_str() == "Bo"));
        // A line: only a seat writes; a refused write is taken back.
        assert_eq!(code(r.post_chat(None, "hi", 5)), ErrorCode::NotAPlayer);
        assert_eq!(
            code(r.post_chat(Some("x"), "hi", 5)),
            ErrorCode::InvalidToken
        );
        assert_eq!(code(r.post_chat(Some(W), " ", 5)), ErrorCode::InvalidChat);
        let c = r.post_chat(Some(W), " hi ", 5).unwrap();
        assert!(
            matches!(&c.event, Event::ChatPosted { line, .. } if line.text == "hi" && line.index == 0)
        );
        r.undo(c.undo);
        assert!(r.chat_lines().is_empty());
        r.post_chat(Some(B), "<b>yo</b>", 6).unwrap();
        // Told to another server's followers: the seat with its name, the line.
        let told = r.events_since(&old, now);
        assert!(
            matches!(&told[..], [Event::SeatTaken { name: Some(_), .. }, Event::ChatPosted { line, .. }] if line.by == Color::Black)
        );
        // Chat goes on after the end.
        r.resign(Some(W), now).unwrap();
        assert!(r.post_chat(Some(W), "gg", 7).is_ok());
        let pgn = r.pgn();
        for tag in [
            "[White \"Ada\"]",
            "[Black \"Bo\"]",
            "[UTCDate \"1970.01.01\"]",
            "[UTCTime \"00:00:00\"]",
        ] {
            assert!(pgn.contains(tag), "{tag} in {pgn}");
        }
        let (anon, _) = Room::create("h".into(), 0, None, Color::White, TokenHash::of(W));
        assert!(anon.pgn().contains("[White \"?\"]"), "{}", anon.pgn());
    }
}
