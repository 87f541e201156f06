//! The lobby's challenges in the PostgreSQL database that several
//! `hostage serve` instances share ([`LobbyStore`]).
//!
//! Policy:
//! - one table, `lobby_challenges`: a row per open or claimed challenge,
//!   with its owner (the instance's random mark and the connection), the
//!   creator's token digest (never the token), `seen_ms` (the last time
//!   its instance marked it alive) and `claimed_ms` (set while an accepter
//!   makes its game);
//! - each change is one transaction that also sends `NOTIFY hostage_lobby`
//!   with the change as JSON, so it is announced exactly when committed,
//!   to every instance, this one included, in commit order; one more
//!   connection `LISTEN`s and passes the changes on. When that connection
//!   drops, it reconnects and announces [`LobbyEvent::Resync`];
//! - a claim is one conditional `UPDATE` (`claimed_ms IS NULL`): of two
//!   accepters, on any instances, exactly one gets the row;
//! - adding counts the open challenges under an advisory lock, so the
//!   lobby's cap holds across instances;
//! - the heartbeat (as `presence` does for seats) marks this instance's
//!   rows alive and deletes the rows of instances that stopped marking
//!   theirs, and claims left unfinished, for `stale_ms`;
//! - the lobby uses connections of its own (one for changes, one to
//!   listen), apart from the games' pool (`mod.rs`).

use std::sync::Arc;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, Mutex};
use tokio_postgres::{AsyncMessage, Client, NoTls, Row, Transaction};

use crate::{
    domain::correspondence::Days,
    domain::lobby::{Player, RatingRange, Terms},
    domain::names::DisplayName,
    domain::{ClockSpec, ColorChoice, TokenHash},
    store::columns::{int, uint},
    store::lobby::{Challenge, LobbyEvent, LobbyStore, Owner},
    store::postgres::connect,
    store::{StoreError, StoreFuture},
};

/// The channel of the lobby's announcements.
const CHANNEL: &str = "hostage_lobby";

/// Serializes the schema's creation between instances starting at once.
const SCHEMA_LOCK: i64 = 7_470_012;
/// Serializes adding (the count against the cap) between instances.
const ADD_LOCK: i64 = 7_470_013;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS lobby_challenges (
    id           TEXT PRIMARY KEY,
    name         TEXT,
    color        TEXT NOT NULL,
    initial_ms   BIGINT,
    increment_ms BIGINT,
    created_ms   BIGINT NOT NULL,
    instance     TEXT NOT NULL,
    conn         BIGINT NOT NULL,
    token        TEXT NOT NULL, -- the SHA-256 of the creator's seat token, in hex
    seen_ms      BIGINT NOT NULL,
    claimed_ms   BIGINT
);
-- The rating terms (added with ratings): JSON, null for a casual
-- challenge of a guest with no range.
ALTER TABLE lobby_challenges ADD COLUMN IF NOT EXISTS terms TEXT;
-- Days per move of a correspondence challenge (added with correspondence).
ALTER TABLE lobby_challenges ADD COLUMN IF NOT EXISTS days BIGINT;
";

const COLUMNS: &str =
    "id, name, color, initial_ms, increment_ms, created_ms, instance, conn, token, days, terms";

/// A challenge as announced (JSON in a notification's payload).
#[derive(Serialize, Deserialize)]
struct Announced {
    id: String,
    name: Option<String>,
    color: ColorChoice,
    clock: Option<ClockSpec>,
    #[serde(default)]
    days: Option<u8>,
    created_ms: u64,
    instance: String,
    conn: u64,
    token: String,
    /// The rating terms ([`TermsJson`]), absent from an older server's.
    #[serde(default)]
    terms: Option<TermsJson>,
}

/// A challenge's rating terms as stored and announced.
#[derive(Clone, Serialize, Deserialize)]
struct TermsJson {
    rated: bool,
    #[serde(default)]
    account: Option<String>,
    #[serde(default)]
    rating: Option<u32>,
    #[serde(default)]
    provisional: bool,
    #[serde(default)]
    range: Option<(u32, u32)>,
}

impl TermsJson {
    fn of(t: &Terms) -> Option<TermsJson> {
        if *t == Terms::default() {
            return None;
        }
        Some(TermsJson {
            rated: t.rated,
            account: t.creator.as_ref().map(|p| p.account.clone()),
            rating: t.creator.as_ref().map(|p| p.rating),
            provisional: t.creator.as_ref().is_some_and(|p| p.provisional),
            range: t.range.map(|r| (r.min, r.max)),
        })
    }

    fn terms(self) -> Terms {
        Terms {
            rated: self.rated,
            creator: self
                .account
                .zip(self.rating)
                .map(|(account, rating)| Player {
                    account,
                    rating,
                    provisional: self.provisional,
                }),
            range: self.range.map(|(min, max)| RatingRange { min, max }),
        }
    }
}

/// A change as announced.
#[derive(Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum Announcement {
    Added { challenge: Announced },
    Taken { id: String },
    Removed { id: String },
    Accepted { id: String, game: String },
}

fn corrupt(what: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt(format!("lobby challenge: {what}"))
}

impl Announced {
    fn of(c: &Challenge) -> Announced {
        Announced {
            id: c.id.clone(),
            name: c.name.as_ref().map(|n| n.as_str().to_string()),
            color: c.color,
            clock: c.clock,
            days: c.days.map(Days::get),
            created_ms: c.created_ms,
            instance: c.owner.instance.clone(),
            conn: c.owner.conn,
            token: c.token.to_hex(),
            terms: TermsJson::of(&c.terms),
        }
    }

    fn challenge(self) -> Result<Challenge, StoreError> {
        let name = match self.name {
            Some(n) => Some(DisplayName::parse(&n).map_err(|e| corrupt(e.to_string()))?),
            None => None,
        };
        Ok(Challenge {
            id: self.id,
            name,
            color: self.color,
            clock: self.clock,
            days: match self.days {
                None => None,
                Some(n) => Some(Days::new(u64::from(n)).ok_or_else(|| corrupt("days"))?),
            },
            created_ms: self.created_ms,
            owner: Owner {
                instance: self.instance,
                conn: self.conn,
            },
            token: TokenHash::from_hex(&self.token).ok_or_else(|| corrupt("token"))?,
            terms: self.terms.map(TermsJson::terms).unwrap_or_default(),
        })
    }
}

fn color_name(c: ColorChoice) -> &'static str {
    match c {
        ColorChoice::White => "white",
        ColorChoice::Black => "black",
        ColorChoice::Random => "random",
    }
}

fn color_of(name: &str) -> Result<ColorChoice, StoreError> {
    match name {
        "white" => Ok(ColorChoice::White),
        "black" => Ok(ColorChoice::Black),
        "random" => Ok(ColorChoice::Random),
        other => Err(corrupt(format!("colour {other:?}"))),
    }
}

fn backend(e: &tokio_postgres::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// A row of [`COLUMNS`] as a challenge.
fn read(row: &Row) -> Result<Challenge, StoreError> {
    let get = |e: tokio_postgres::Error| corrupt(e);
    let clock = match (
        row.try_get::<_, Option<i64>>(3).map_err(get)?,
        row.try_get::<_, Option<i64>>(4).map_err(get)?,
    ) {
        (Some(initial), Some(increment)) => Some(ClockSpec {
            initial_ms: uint(initial),
            increment_ms: uint(increment),
        }),
        _ => None,
    };
    Announced {
        id: row.try_get(0).map_err(get)?,
        name: row.try_get(1).map_err(get)?,
        color: color_of(row.try_get::<_, &str>(2).map_err(get)?)?,
        clock,
        days: row
            .try_get::<_, Option<i64>>(9)
            .map_err(get)?
            .map(|n| u8::try_from(n).unwrap_or(0)),
        created_ms: uint(row.try_get(5).map_err(get)?),
        instance: row.try_get(6).map_err(get)?,
        conn: uint(row.try_get(7).map_err(get)?),
        token: row.try_get(8).map_err(get)?,
        terms: match row.try_get::<_, Option<&str>>(10).map_err(get)? {
            Some(text) => Some(serde_json::from_str(text).map_err(corrupt)?),
            None => None,
        },
    }
    .challenge()
}

/// Sends `announcement` inside `tx`: delivered when (and if) it commits.
async fn announce(tx: &Transaction<'_>, announcement: &Announcement) -> Result<(), StoreError> {
    let payload =
        serde_json::to_string(announcement).map_err(|e| StoreError::Backend(e.to_string()))?;
    tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])
        .await
        .map_err(|e| backend(&e))?;
    Ok(())
}

/// The lobby's challenges in PostgreSQL.
pub struct PgLobby {
    url: String,
    client: Mutex<Option<Client>>,
    instance: String,
    events: broadcast::Sender<LobbyEvent>,
}

impl PgLobby {
    /// Connects to `url`, creates the table if missing, and starts
    /// listening for the lobby's announcements.
    ///
    /// # Errors
    ///
    /// The database cannot be reached or refuses the schema.
    pub async fn open(url: &str) -> Result<Arc<PgLobby>, StoreError> {
        let client = connect(url).await?;
        client
            .batch_execute(&format!(
                "BEGIN; SELECT pg_advisory_xact_lock({SCHEMA_LOCK}); {SCHEMA} COMMIT;"
            ))
            .await
            .map_err(|e| backend(&e))?;
        let instance = crate::store::ids::token()
            .map_err(|_| StoreError::Backend("no random source".into()))?;
        let (events, _) = broadcast::channel(4096);
        let listening = listen(url, events.clone()).await?;
        tokio::spawn(keep_listening(url.to_string(), events.clone(), listening));
        Ok(Arc::new(PgLobby {
            url: url.to_string(),
            client: Mutex::new(Some(client)),
            instance,
            events,
        }))
    }

    /// The lobby's connection, locked (reconnected if it dropped).
    async fn connection(&self) -> Result<tokio::sync::MutexGuard<'_, Option<Client>>, StoreError> {
        let mut slot = self.client.lock().await;
        if slot.as_ref().is_none_or(Client::is_closed) {
            *slot = Some(connect(&self.url).await?);
        }
        Ok(slot)
    }
}

/// A transaction on the locked connection `slot`.
async fn begin(slot: &mut Option<Client>) -> Result<Transaction<'_>, StoreError> {
    let client = slot
        .as_mut()
        .ok_or_else(|| StoreError::Backend("no connection".into()))?;
    client.transaction().await.map_err(|e| backend(&e))
}

async fn commit(tx: Transaction<'_>) -> Result<(), StoreError> {
    tx.commit().await.map_err(|e| backend(&e))
}

/// A `LISTEN`ing connection: its announcements go to `events` until it
/// drops, when the returned task ends. The client must be kept meanwhile.
async fn listen(
    url: &str,
    events: broadcast::Sender<LobbyEvent>,
) -> Result<(Client, tokio::task::JoinHandle<()>), StoreError> {
    let (client, mut connection) = tokio_postgres::connect(url, NoTls)
        .await
        .map_err(|e| backend(&e))?;
    let task = tokio::spawn(async move {
        let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = messages.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => match heard(n.payload()) {
                    Ok(event) => {
                        let _ = events.send(event);
                    }
                    Err(e) => tracing::warn!(error = %e, "a lobby announcement was not read"),
                },
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "PostgreSQL lobby listener failed");
                    break;
                }
            }
        }
    });
    if let Err(e) = client.batch_execute(&format!("LISTEN {CHANNEL}")).await {
        task.abort();
        return Err(backend(&e));
    }
    Ok((client, task))
}

/// An announcement's payload as an event.
fn heard(payload: &str) -> Result<LobbyEvent, StoreError> {
    let announcement: Announcement = serde_json::from_str(payload).map_err(corrupt)?;
    Ok(match announcement {
        Announcement::Added { challenge } => LobbyEvent::Added(challenge.challenge()?),
        Announcement::Taken { id } => LobbyEvent::Taken(id),
        Announcement::Removed { id } => LobbyEvent::Removed(id),
        Announcement::Accepted { id, game } => LobbyEvent::Accepted {
            challenge: id,
            game,
        },
    })
}

/// Keeps a listener running: when it ends, reconnects (once a second until
/// it can) and announces [`LobbyEvent::Resync`].
async fn keep_listening(
    url: String,
    events: broadcast::Sender<LobbyEvent>,
    mut current: (Client, tokio::task::JoinHandle<()>),
) {
    loop {
        let _ = (&mut current.1).await;
        if events.receiver_count() == 0 {
            return; // the lobby is gone
        }
        tracing::warn!("PostgreSQL lobby listener lost; reconnecting");
        loop {
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            if let Ok(next) = listen(&url, events.clone()).await {
                current = next;
                break;
            }
        }
        let _ = events.send(LobbyEvent::Resync);
    }
}

impl LobbyStore for PgLobby {
    fn instance(&self) -> &str {
        &self.instance
    }

    fn add(&self, challenge: Challenge, max: usize) -> StoreFuture<'_, bool> {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let tx = begin(&mut slot).await?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&ADD_LOCK])
                .await
                .map_err(|e| backend(&e))?;
            let open: i64 = tx
                .query_one(
                    "SELECT count(*) FROM lobby_challenges WHERE claimed_ms IS NULL",
                    &[],
                )
                .await
                .map_err(|e| backend(&e))?
                .get(0);
            if open >= max {
                return Ok(false);
            }
            let c = &challenge;
            let (initial, increment) = match c.clock {
                Some(k) => (Some(int(k.initial_ms)), Some(int(k.increment_ms))),
                None => (None, None),
            };
            tx.execute(
                "INSERT INTO lobby_challenges (id, name, color, initial_ms, increment_ms,
                    created_ms, instance, conn, token, seen_ms, days, terms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $6, $10, $11)",
                &[
                    &c.id,
                    &c.name.as_ref().map(DisplayName::as_str),
                    &color_name(c.color),
                    &initial,
                    &increment,
                    &int(c.created_ms),
                    &c.owner.instance,
                    &int(c.owner.conn),
                    &c.token.to_hex(),
                    &c.days.map(|d| i64::from(d.get())),
                    &TermsJson::of(&c.terms)
                        .map(|t| serde_json::to_string(&t))
                        .transpose()
                        .map_err(|e| StoreError::Backend(e.to_string()))?,
                ],
            )
            .await
            .map_err(|e| backend(&e))?;
            let challenge = Announced::of(c);
            announce(&tx, &Announcement::Added { challenge }).await?;
            commit(tx).await?;
            Ok(true)
        })
    }

    fn cancel<'a>(&'a self, id: &'a str, owner: &'a Owner) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let tx = begin(&mut slot).await?;
            let n = tx
                .execute(
                    "DELETE FROM lobby_challenges
                     WHERE id = $1 AND instance = $2 AND conn = $3 AND claimed_ms IS NULL",
                    &[&id, &owner.instance, &int(owner.conn)],
                )
                .await
                .map_err(|e| backend(&e))?;
            if n == 1 {
                let id = id.to_string();
                announce(&tx, &Announcement::Removed { id }).await?;
            }
            commit(tx).await?;
            Ok(n == 1)
        })
    }

    fn remove_owned<'a>(&'a self, owner: &'a Owner) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let tx = begin(&mut slot).await?;
            let rows = tx
                .query(
                    "DELETE FROM lobby_challenges
                     WHERE instance = $1 AND conn = $2 AND claimed_ms IS NULL RETURNING id",
                    &[&owner.instance, &int(owner.conn)],
                )
                .await
                .map_err(|e| backend(&e))?;
            for row in rows {
                let id: String = row.try_get(0).map_err(corrupt)?;
                announce(&tx, &Announcement::Removed { id }).await?;
            }
            commit(tx).await
        })
    }

    fn claim<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<Challenge>> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let tx = begin(&mut slot).await?;
            let row = tx
                .query_opt(
                    &format!(
                        "UPDATE lobby_challenges SET claimed_ms = $2
                         WHERE id = $1 AND claimed_ms IS NULL RETURNING {COLUMNS}"
                    ),
                    &[&id, &int(crate::domain::time::now_ms())],
                )
                .await
                .map_err(|e| backend(&e))?;
            let Some(row) = row else {
                return Ok(None);
            };
            let challenge = read(&row)?;
            let id = id.to_string();
            announce(&tx, &Announcement::Taken { id }).await?;
            commit(tx).await?;
            Ok(Some(challenge))
        })
    }

    fn release<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let tx = begin(&mut slot).await?;
            let row = tx
                .query_opt(
                    &format!(
                        "UPDATE lobby_challenges SET claimed_ms = NULL
                         WHERE id = $1 AND claimed_ms IS NOT NULL RETURNING {COLUMNS}"
                    ),
                    &[&id],
                )
                .await
                .map_err(|e| backend(&e))?;
            if let Some(row) = row {
                let challenge = Announced::of(&read(&row)?);
                announce(&tx, &Announcement::Added { challenge }).await?;
            }
            commit(tx).await
        })
    }

    fn accepted<'a>(&'a self, id: &'a str, game: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let tx = begin(&mut slot).await?;
            tx.execute("DELETE FROM lobby_challenges WHERE id = $1", &[&id])
                .await
                .map_err(|e| backend(&e))?;
            let (id, game) = (id.to_string(), game.to_string());
            announce(&tx, &Announcement::Accepted { id, game }).await?;
            commit(tx).await
        })
    }

    fn list(&self) -> StoreFuture<'_, Vec<Challenge>> {
        Box::pin(async move {
            let slot = self.connection().await?;
            let client = slot
                .as_ref()
                .ok_or_else(|| StoreError::Backend("no connection".into()))?;
            client
                .query(
                    &format!(
                        "SELECT {COLUMNS} FROM lobby_challenges WHERE claimed_ms IS NULL
                         ORDER BY created_ms, id"
                    ),
                    &[],
                )
                .await
                .map_err(|e| backend(&e))?
                .iter()
                .map(read)
                .collect()
        })
    }

    fn events(&self) -> broadcast::Receiver<LobbyEvent> {
        self.events.subscribe()
    }

    fn heartbeat(&self, now_ms: u64, stale_ms: u64) -> StoreFuture<'_, ()> {
        let cutoff = int(now_ms.saturating_sub(stale_ms));
        Box::pin(async move {
            let mut slot = self.connection().await?;
            let tx = begin(&mut slot).await?;
            tx.execute(
                "UPDATE lobby_challenges SET seen_ms = $2 WHERE instance = $1",
                &[&self.instance, &int(now_ms)],
            )
            .await
            .map_err(|e| backend(&e))?;
            let rows = tx
                .query(
                    "DELETE FROM lobby_challenges WHERE seen_ms < $1 OR claimed_ms < $1
                     RETURNING id",
                    &[&cutoff],
                )
                .await
                .map_err(|e| backend(&e))?;
            for row in rows {
                let id: String = row.try_get(0).map_err(corrupt)?;
                announce(&tx, &Announcement::Removed { id }).await?;
            }
            commit(tx).await
        })
    }
}
