//! Where the lobby's open challenges are kept: the [`LobbyStore`] trait,
//! its records and announcements, and the store of one server alone
//! ([`MemoryLobby`]).
//!
//! Policy:
//! - challenges are not games: they live in memory (one server on SQLite)
//!   or in a table of the shared PostgreSQL database (`lobby_pg.rs`), and
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

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::broadcast;

use crate::{
    domain::{ClockSpec, ColorChoice, TokenHash},
    names::DisplayName,
    store::{StoreError, StoreFuture},
};

/// Who made a challenge: a server (its random mark) and a connection on it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Owner {
    /// The server's mark ([`LobbyStore::instance`]).
    pub instance: String,
    /// The connection's id on that server.
    pub conn: u64,
}

/// An open challenge, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Its id (as a game id: 10 characters `[a-z0-9]`).
    pub id: String,
    /// The creator's display name, if given.
    pub name: Option<DisplayName>,
    /// The creator's seat.
    pub color: ColorChoice,
    /// The time control (`None`: untimed).
    pub clock: Option<ClockSpec>,
    /// When it was made, milliseconds since the Unix epoch.
    pub created_ms: u64,
    /// Who made it.
    pub owner: Owner,
    /// The digest of the creator's seat token, drawn when the challenge was
    /// made: the game is created with it, and only the owner's server
    /// knows the token itself.
    pub token: TokenHash,
}

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

/// One challenge in memory, and whether it is claimed.
struct Entry {
    challenge: Challenge,
    claimed: bool,
}

/// The lobby of a server alone (SQLite): a map in memory. Each change and
/// its announcement happen under one lock, so they are announced in order.
pub struct MemoryLobby {
    entries: Mutex<HashMap<String, Entry>>,
    events: broadcast::Sender<LobbyEvent>,
}

impl MemoryLobby {
    /// An empty lobby.
    #[must_use]
    pub fn new() -> Arc<MemoryLobby> {
        Arc::new(MemoryLobby {
            entries: Mutex::new(HashMap::new()),
            events: broadcast::channel(4096).0,
        })
    }

    /// Runs `f` on the map under its lock, with the sender to announce on.
    fn with<T>(
        &self,
        f: impl FnOnce(&mut HashMap<String, Entry>, &broadcast::Sender<LobbyEvent>) -> T,
    ) -> Result<T, StoreError> {
        let mut entries = self
            .entries
            .lock()
            .map_err(|_| StoreError::Backend("the lobby's lock is poisoned".into()))?;
        Ok(f(&mut entries, &self.events))
    }
}

/// The mark of the one server a [`MemoryLobby`] serves.
const LOCAL: &str = "local";

impl LobbyStore for MemoryLobby {
    fn instance(&self) -> &str {
        LOCAL
    }

    fn add(&self, challenge: Challenge, max: usize) -> StoreFuture<'_, bool> {
        let result = self.with(|entries, events| {
            if entries.values().filter(|e| !e.claimed).count() >= max {
                return false;
            }
            let _ = events.send(LobbyEvent::Added(challenge.clone()));
            entries.insert(
                challenge.id.clone(),
                Entry {
                    challenge,
                    claimed: false,
                },
            );
            true
        });
        Box::pin(async move { result })
    }

    fn cancel<'a>(&'a self, id: &'a str, owner: &'a Owner) -> StoreFuture<'a, bool> {
        let result = self.with(|entries, events| {
            let open_and_owned = entries
                .get(id)
                .is_some_and(|e| !e.claimed && &e.challenge.owner == owner);
            if open_and_owned {
                entries.remove(id);
                let _ = events.send(LobbyEvent::Removed(id.to_string()));
            }
            open_and_owned
        });
        Box::pin(async move { result })
    }

    fn remove_owned<'a>(&'a self, owner: &'a Owner) -> StoreFuture<'a, ()> {
        let result = self.with(|entries, events| {
            entries.retain(|id, e| {
                let gone = !e.claimed && &e.challenge.owner == owner;
                if gone {
                    let _ = events.send(LobbyEvent::Removed(id.clone()));
                }
                !gone
            });
        });
        Box::pin(async move { result })
    }

    fn claim<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<Challenge>> {
        let result = self.with(|entries, events| {
            let entry = entries.get_mut(id).filter(|e| !e.claimed)?;
            entry.claimed = true;
            let _ = events.send(LobbyEvent::Taken(id.to_string()));
            Some(entry.challenge.clone())
        });
        Box::pin(async move { result })
    }

    fn release<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        let result = self.with(|entries, events| {
            if let Some(entry) = entries.get_mut(id).filter(|e| e.claimed) {
                entry.claimed = false;
                let _ = events.send(LobbyEvent::Added(entry.challenge.clone()));
            }
        });
        Box::pin(async move { result })
    }

    fn accepted<'a>(&'a self, id: &'a str, game: &'a str) -> StoreFuture<'a, ()> {
        let result = self.with(|entries, events| {
            entries.remove(id);
            let _ = events.send(LobbyEvent::Accepted {
                challenge: id.to_string(),
                game: game.to_string(),
            });
        });
        Box::pin(async move { result })
    }

    fn list(&self) -> StoreFuture<'_, Vec<Challenge>> {
        let result = self.with(|entries, _| {
            let mut open: Vec<Challenge> = entries
                .values()
                .filter(|e| !e.claimed)
                .map(|e| e.challenge.clone())
                .collect();
            open.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
            open
        });
        Box::pin(async move { result })
    }

    fn events(&self) -> broadcast::Receiver<LobbyEvent> {
        self.events.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn challenge(id: &str, conn: u64) -> Challenge {
        Challenge {
            id: id.into(),
            name: None,
            color: ColorChoice::Random,
            clock: None,
            created_ms: 1,
            owner: Owner {
                instance: LOCAL.into(),
                conn,
            },
            token: TokenHash::of("t"),
        }
    }

    #[tokio::test]
    async fn one_claim_wins_and_each_change_is_announced_in_order() {
        let lobby = MemoryLobby::new();
        let mut events = lobby.events();
        assert!(lobby.add(challenge("a", 1), 2).await.unwrap());
        assert!(lobby.add(challenge("b", 1), 2).await.unwrap());
        assert!(!lobby.add(challenge("c", 2), 2).await.unwrap(), "full");
        assert!(lobby.claim("a").await.unwrap().is_some());
        assert_eq!(lobby.claim("a").await.unwrap(), None, "claimed once");
        assert!(!lobby.cancel("a", &challenge("a", 1).owner).await.unwrap());
        lobby.release("a").await.unwrap();
        assert!(!lobby.cancel("a", &challenge("a", 2).owner).await.unwrap());
        lobby.remove_owned(&challenge("x", 1).owner).await.unwrap();
        assert!(lobby.list().await.unwrap().is_empty());
        let seen: Vec<LobbyEvent> = std::iter::from_fn(|| events.try_recv().ok()).collect();
        assert_eq!(
            seen,
            vec![
                LobbyEvent::Added(challenge("a", 1)),
                LobbyEvent::Added(challenge("b", 1)),
                LobbyEvent::Taken("a".into()),
                LobbyEvent::Added(challenge("a", 1)),
                // `remove_owned` goes through a map: either order.
                seen[4].clone(),
                seen[5].clone(),
            ]
        );
        let mut removed = [seen[4].clone(), seen[5].clone()];
        removed.sort_by_key(|e| format!("{e:?}"));
        assert_eq!(
            removed,
            [
                LobbyEvent::Removed("a".into()),
                LobbyEvent::Removed("b".into())
            ]
        );
    }
}
