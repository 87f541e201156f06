//! A room brought up to date from the end of its stored game: the catch-up
//! of a store several servers share reads only the game's row, the moves
//! after the ones the room knows and the chat lines after its own
//! ([`Store::load_since`](crate::store::Store::load_since)), and plays the
//! new moves on the room's game instead of replaying the whole game.
//!
//! Policy: exactness first. The result is the room [`Room::restore`] of
//! the whole game would give, or nothing (the caller reads the whole game):
//! - stored moves are only added at the next ply, except by an accepted
//!   takeback, which bumps the game's mark of takebacks in the same write.
//!   At the mark the room knows, no move it knows was taken back, so the
//!   stored moves up to its ply are its own; at another mark, nothing is
//!   assumed;
//! - the read starts one move and one chat line early, and the room's last
//!   move and line must be there, the same: a store whose mark was not kept
//!   (a bug, a database changed by hand) is caught there too;
//! - every other field (seats, names, clocks, offers, the ending, the
//!   rematch, the mark) is taken from the row as read, by the same code as
//!   a whole restore (`Room::assemble`); only the moves' game and the chat
//!   carry over from the room.
//!
//! A move another server announces with its record ([`AnnouncedMove`]) is
//! played without a read when the room is at the move's ply and mark of
//! takebacks, in a game that goes on with both seats taken: a move writes
//! nothing else but the clocks, the ending and the cleared offers, all in
//! the announcement, so the row after it is the room's with those. Any
//! other case reads the store.

use std::time::Instant;

use hostage_core::{uci::UciMove, Position};

use super::{restore::replay, Room};
use crate::domain::record::{AnnouncedMove, StoredGame, StoredMove, StoredTail};

impl Room {
    /// Where a read of this game's end starts ([`Room::restore_tail`]):
    /// the ply of the last move known and the index of the last chat line
    /// known (0 for none), each read again to check the store still has it.
    #[must_use]
    pub fn tail_from(&self) -> (u64, u64) {
        let plies = self.game.ply() as u64;
        let lines = self.chat.len() as u64;
        (plies.saturating_sub(1), lines.saturating_sub(1))
    }

    /// This room brought up to `tail`, a read of its stored game from
    /// [`Room::tail_from`], the clock of the side to move started at `now`
    /// (as [`Room::restore`]): the new moves played on this room's game,
    /// the new chat lines added, everything else from the row read. `None`
    /// when the tail cannot be known to continue this room (another mark of
    /// takebacks, fewer moves or lines than the room knows, a last move or
    /// line not the room's, another game, a move that does not play): the
    /// caller then reads and restores the whole game.
    #[must_use]
    pub fn restore_tail(&self, tail: StoredTail, now: Instant) -> Option<Room> {
        let StoredTail {
            mut game,
            from_ply,
            from_chat,
        } = tail;
        let same_game = game.id == self.id
            && game.created_ms == self.created_ms
            && game.clock == self.clock_spec()
            && game.days == self.days()
            && game.takebacks == self.takebacks
            && (from_ply, from_chat) == self.tail_from();
        if !same_game || !self.starts_at(&game.start_fen) {
            return None;
        }
        // The moves: the room's last one again, then the new ones in order.
        let known = self.game.ply();
        let mut moves = game.moves.as_slice();
        if known > 0 {
            let (last, rest) = moves.split_first()?;
            let position = self.game.position_at(known - 1)?;
            let stored = UciMove::from_ascii(last.uci.as_bytes())
                .ok()?
                .to_move(position)
                .ok()?;
            if last.ply != from_ply || Some(&stored) != self.game.moves().last() {
                return None;
            }
            moves = rest;
        }
        if (known as u64..).zip(moves).any(|(ply, m)| m.ply != ply) {
            return None;
        }
        let mut played = self.game.clone();
        replay(&mut played, &self.id, moves).ok()?;
        // The chat: the room's last line again, then the new ones in order.
        let mut lines = game.chat.as_slice();
        if let Some(own) = self.chat.last() {
            let (last, rest) = lines.split_first()?;
            if last != own {
                return None;
            }
            lines = rest;
        }
        if (self.chat.len() as u64..)
            .zip(lines)
            .any(|(index, l)| l.index != index)
        {
            return None;
        }
        let mut chat = self.chat.clone();
        chat.extend_from_slice(lines);
        game.chat = chat;
        Some(Room::assemble(game, played, now))
    }

    /// This room after `announced`, a move another server stored, the
    /// clock of the side to move started at `now` (as [`Room::restore`]):
    /// what [`Room::restore_tail`] gives after reading the store, when the
    /// store has nothing new besides the move. `None` when the room cannot
    /// be known to be the game just before the move (another ply or mark
    /// of takebacks, a game over or waiting for a seat, a timed game's move
    /// without clocks, a move that does not play): the caller reads the
    /// store. A chat line or another change this room has not heard of yet
    /// stays unheard of until its own announcement, as if the room had not
    /// heard of the move either.
    #[must_use]
    pub fn play_announced(&self, announced: &AnnouncedMove, now: Instant) -> Option<Room> {
        let fits = announced.ply == self.game.ply() as u64
            && announced.takebacks == self.takebacks
            && self.end.is_none()
            && self.tokens.white.is_some()
            && self.tokens.black.is_some()
            && self.clock.is_some() == announced.clocks.is_some();
        if !fits {
            return None;
        }
        let mut played = self.game.clone();
        let record = StoredMove {
            ply: announced.ply,
            uci: announced.uci.clone(),
            clocks: announced.clocks,
            at_ms: announced.at_ms,
            deadline_ms: announced.deadline_ms,
        };
        replay(&mut played, &self.id, &[record]).ok()?;
        let row = StoredGame {
            id: self.id.clone(),
            created_ms: self.created_ms,
            start_fen: self.game.start().fen(),
            clock: self.clock_spec(),
            days: self.days(),
            deadline_ms: announced.deadline_ms,
            tokens: self.tokens,
            devices: self.devices.clone(),
            clocks: announced.clocks,
            draw_offer: None,
            takeback: None,
            end: announced.end,
            moves: Vec::new(),
            rematch: self.rematch.clone(),
            updated_ms: announced.at_ms,
            names: self.names.clone(),
            chat: self.chat.clone(),
            takebacks: self.takebacks,
        };
        Some(Room::assemble(row, played, now))
    }

    /// Whether this room's game starts at the position of `fen`.
    fn starts_at(&self, fen: &str) -> bool {
        Position::from_fen(fen).is_ok_and(|p| p.fen() == self.game.start().fen())
    }
}
