//! The catch-up: a game in memory read again from a store other servers
//! write too, and its followers told what changed.
//!
//! Policy: the room knows the game up to its ply, at the store's mark of
//! takebacks it last read or wrote. A catch-up reads only the game's row
//! and the end of its moves and chat ([`Store::load_since`], from the
//! room's last move and line) and plays the new moves on the room
//! ([`Room::restore_tail`]); when that read cannot be known to continue the
//! room (moves were taken back since: another mark; anything else
//! unexpected), it reads and replays the whole game, as a room is first
//! loaded. Either way the new room is the one the whole game gives, and
//! the followers are told the difference of the two rooms. A move
//! announced with its record is played on the room without a read when
//! the room is just before it (`room/tail.rs`).

use super::*;
use crate::store::AnnouncedMove;

impl Hub {
    /// Reads a game in memory again from the store, and tells its followers
    /// what changed (another server changed it). Returns false if the game
    /// could not be read (it stays as it was).
    pub(super) async fn catch_up(&self, id: &str) -> bool {
        self.catch_up_with(id, None).await
    }

    /// As [`Hub::catch_up`], after another server announced `announced`,
    /// a move it stored: played without reading the store when the room
    /// is just before it (`room/tail.rs`), else read.
    pub(super) async fn catch_up_with(&self, id: &str, announced: Option<&AnnouncedMove>) -> bool {
        let Some(cell) = self.lookup(id) else {
            return true; // not in memory: it is read afresh when needed
        };
        let mut inner = cell.inner.lock().await;
        if inner.evicted {
            return true;
        }
        let played = announced.and_then(|a| self.play_announced(&inner.room, a));
        let room = match played {
            Some(room) => room,
            None => match self.read_again(id, &inner.room).await {
                Some(room) => room,
                None => return false,
            },
        };
        let mut messages: Vec<Message> = room
            .events_since(&inner.room, Instant::now())
            .iter()
            .flat_map(wire::messages_for)
            .collect();
        inner.room = room;
        super::ratings::rate_messages(&*self.store, &mut inner, &mut messages).await;
        if !messages.is_empty() {
            inner.last_change = Instant::now();
            inner.broadcast(&messages, None);
        }
        drop(inner);
        if self.limits_clock_may_run(&cell).await {
            self.ensure_clock_task(&cell);
        }
        cell.wake.notify_one();
        true
    }

    /// `old` after the move `announced`, if it is the game just before it.
    fn play_announced(&self, old: &Room, announced: &AnnouncedMove) -> Option<Room> {
        let from = self.counted_from(announced.at_ms);
        let mut room = old.play_announced(announced, from)?;
        self.limit(&mut room, from);
        Some(room)
    }

    /// The game `id` as stored now, `old` being its room in memory: from
    /// the end of the stored game when it continues `old`, else from the
    /// whole game. `None` (logged) if it cannot be read or does not replay.
    async fn read_again(&self, id: &str, old: &Room) -> Option<Room> {
        let (from_ply, from_chat) = old.tail_from();
        let tail = match self.store.load_since(id, from_ply, from_chat).await {
            Ok(Some(tail)) => tail,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "catch-up read failed");
                return None;
            }
        };
        let from = self.counted_from(tail.game.updated_ms);
        if let Some(mut room) = old.restore_tail(tail, from) {
            self.limit(&mut room, from);
            return Some(room);
        }
        // Moves were taken back since (or the end read does not continue
        // the room for any other reason): the whole game, replayed.
        let stored = match self.store.load(id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "catch-up read failed");
                return None;
            }
        };
        match self.restore(stored) {
            Ok(room) => Some(room),
            Err(e) => {
                tracing::error!(game = %id, error = %e, "stored game does not replay");
                None
            }
        }
    }
}
