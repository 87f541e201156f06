//! The lobby of a server alone (SQLite): its open challenges in a map in
//! memory, under the policy of `store/lobby.rs`.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use tokio::sync::broadcast;

use crate::store::{
    lobby::{Challenge, LobbyEvent, LobbyStore, Owner},
    StoreError, StoreFuture,
};

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
    use crate::domain::{ColorChoice, TokenHash};

    fn challenge(id: &str, conn: u64) -> Challenge {
        Challenge {
            id: id.into(),
            name: None,
            color: ColorChoice::Random,
            clock: None,
            days: None,
            created_ms: 1,
            owner: Owner {
                instance: LOCAL.into(),
                conn,
            },
            token: TokenHash::of("t"),
            terms: crate::domain::lobby::Terms::default(),
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
