//! Where the lobby's open challenges are kept: the [`LobbyStore`] trait,
//! its records and announcements. The store of one server alone is
//! `sqlite/lobby.rs` (in memory), the shared one `postgres/lobby.rs`.
//!
//! Policy:
//! - challenges are not games: they live in memory (one server on SQLite)
//!   or in a table of the shared PostgreSQL database (`postgres/lobby.rs`), and
//!   need not survive a restart of every server;
//! - every change is **announced** ([`LobbyEvent`]) to every server that
//!   shares the store, the one that made it included, in the order the
//!   changes were made; a server's lobby (`lobby.rs`) changes its view of
//!   the list only from these announcements, so each server's watchers see
//!   the same list;
//! - accepting is two steps so that exactly one player wins a challenge:
//!   [`LobbyStore::claim`] takes it off the list for one accepter only
//!   (a second claim finds it gone), then [`LobbyStore::accepted`] says
//!   which game it became once that game is stored, or
//!   [`LobbyStore::release`] puts it back if the game could not be stored;
//! - each challenge has an [`Owner`]: the server and the connection of its
//!   creator. Only the owner cancels it; its server removes it when the
//!   connection closes; with a shared store, a challenge whose server stops
//!   marking it alive is removed by the others ([`LobbyStore::heartbeat`]).

use tokio::sync::broadcast;

pub use crate::domain::lobby::{Challenge, Owner};
use crate::store::StoreFuture;

/// A change of the lobby, announced to every server sharing the store.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LobbyEvent {
    /// A challenge is open (new, or released after a failed acceptance).
    Added(Challenge),
    /// A challenge is being accepted: off the list.
    Taken(String),
    /// A challenge is gone for good (cancelled, its creator left or its
    /// server stopped).
    Removed(String),
    /// A challenge became `game` (stored before this is announced).
    Accepted {
        /// The challenge.
        challenge: String,
        /// The game.
        game: String,
    },
    /// Announcements may have been missed: read the list again.
    Resync,
}

/// Where the lobby's challenges are kept (see the module's policy).
pub trait LobbyStore: Send + Sync + 'static {
    /// This server's mark, the `instance` of the challenges it makes.
    fn instance(&self) -> &str;

    /// Adds an open challenge if fewer than `max` are open; `Ok(false)`
    /// when the lobby is full.
    fn add(&self, challenge: Challenge, max: usize) -> StoreFuture<'_, bool>;

    /// Removes the open challenge `id` if `owner` made it; whether it did.
    fn cancel<'a>(&'a self, id: &'a str, owner: &'a Owner) -> StoreFuture<'a, bool>;

    /// Removes every open challenge `owner` made (its connection closed).
    fn remove_owned<'a>(&'a self, owner: &'a Owner) -> StoreFuture<'a, ()>;

    /// Takes the open challenge `id` off the list for one accepter: the
    /// challenge, or `None` if it is not open (never was, gone, or
    /// already claimed).
    fn claim<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<Challenge>>;

    /// Puts a claimed challenge back on the list.
    fn release<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()>;

    /// Removes a claimed challenge and announces the game it became.
    fn accepted<'a>(&'a self, id: &'a str, game: &'a str) -> StoreFuture<'a, ()>;

    /// The open challenges, oldest first.
    fn list(&self) -> StoreFuture<'_, Vec<Challenge>>;

    /// The announcements, from now on.
    fn events(&self) -> broadcast::Receiver<LobbyEvent>;

    /// Marks this server's challenges alive at `now_ms` and removes those
    /// of servers that have not marked theirs since `now_ms - stale_ms`
    /// (and claims left unfinished that long). Nothing to do for a store
    /// only one server uses.
    fn heartbeat(&self, now_ms: u64, stale_ms: u64) -> StoreFuture<'_, ()> {
        let _ = (now_ms, stale_ms);
        Box::pin(async { Ok(()) })
    }
}
