//! The game service: every game on this server, who follows each, and the
//! one path by which a game changes.
//!
//! Policy:
//! - each game is a [`Room`] behind its own async lock; a request takes the
//!   lock, lets the room decide, **stores the change and waits for the store**
//!   while still holding the lock, and only then broadcasts. So no client
//!   ever hears of a change that is not stored, and the changes of one game
//!   are stored and sent in one order. A refused write is undone in memory.
//! - answers to a request (with its `id`) go to the connection that sent it;
//!   the same events go, without `id`, to every other connection following
//!   the game. Sends never wait: a connection whose queue is full is closed
//!   (it resumes after reconnecting), so a slow client cannot stall a game.
//! - each timed game has a task that sleeps until the running flag would
//!   fall and ends the game on time if nobody moved.
//! - unfinished games are loaded at start-up (their clocks resume, see
//!   `clock.rs`); finished ones are loaded on first use. Games stay in memory
//!   once loaded (see `docs/server.md` for eviction at scale).

use std::{
    collections::{HashMap, HashSet},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use tokio::sync::{mpsc, Mutex as AsyncMutex, Notify};

use crate::{
    ids,
    protocol::{
        ColorChoice, Envelope, ErrorCode, GameState, Message, ProtoError, Request, RequestId,
        SeatAction, Side, MAX_GAMES_PER_CONNECTION,
    },
    room::{Change, MoveOutcome, Room},
    store::{Store, StoreError, Write},
};

/// A connection as the game service sees it: where to send, and how to
/// close it.
#[derive(Clone, Debug)]
pub struct Conn {
    /// Unique for the server's lifetime.
    pub id: u64,
    /// The connection's outgoing queue.
    pub tx: mpsc::Sender<Arc<str>>,
    /// Notified when the connection must be closed (its queue overflowed).
    pub kick: Arc<Notify>,
}

impl Conn {
    /// Queues `text`; closes the connection if its queue is full. Returns
    /// whether it was queued.
    pub fn send(&self, text: Arc<str>) -> bool {
        if self.tx.try_send(text).is_ok() {
            true
        } else {
            self.kick.notify_one();
            false
        }
    }

    /// Queues a message with the request's id.
    pub fn reply(&self, message: &Message, id: Option<&RequestId>) -> bool {
        self.send(message.to_text(id).into())
    }
}

/// The games a connection follows.
#[derive(Debug, Default)]
pub struct Following(HashSet<String>);

impl Following {
    /// The game ids followed.
    pub fn games(&self) -> impl Iterator<Item = &String> {
        self.0.iter()
    }
}

struct Inner {
    room: Room,
    followers: Vec<Conn>,
}

impl Inner {
    fn follow(&mut self, conn: &Conn) {
        if !self.followers.iter().any(|c| c.id == conn.id) {
            self.followers.push(conn.clone());
        }
    }

    /// Sends `events` to every follower but `except`; drops the ones whose
    /// queue overflowed (they are being closed).
    fn broadcast(&mut self, events: &[Message], except: Option<u64>) {
        for event in events {
            let text: Arc<str> = event.to_text(None).into();
            self.followers
                .retain(|c| Some(c.id) == except || c.send(Arc::clone(&text)));
        }
    }
}

struct Cell {
    inner: AsyncMutex<Inner>,
    /// Wakes the clock task after a change.
    wake: Notify,
}

/// Every game on this server.
pub struct Hub {
    store: Arc<dyn Store>,
    games: Mutex<HashMap<String, Arc<Cell>>>,
}

fn storage_error(e: &StoreError) -> ProtoError {
    match e {
        StoreError::Corrupt(_) => ProtoError::new(
            ErrorCode::InternalError,
            "a stored record could not be read back",
        ),
        StoreError::Conflict(m) | StoreError::Backend(m) => ProtoError::new(
            ErrorCode::StorageFailed,
            format!("the database refused the change ({m}); nothing was accepted"),
        ),
    }
}

fn random_failed() -> ProtoError {
    ProtoError::new(
        ErrorCode::InternalError,
        "the random source failed; nothing was created",
    )
}

impl Hub {
    /// The service over `store`, with every unfinished game loaded and its
    /// clock running again. Games that do not replay are reported on stderr
    /// and left out (they stay in the store).
    ///
    /// # Errors
    ///
    /// The store cannot list its games.
    pub async fn start(store: Arc<dyn Store>) -> Result<Arc<Hub>, StoreError> {
        let hub = Arc::new(Hub {
            store,
            games: Mutex::new(HashMap::new()),
        });
        for id in hub.store.unfinished().await? {
            if let Err(e) = hub.cell(&id).await {
                eprintln!("hostage serve: game {id} not resumed: {e}");
            }
        }
        Ok(hub)
    }

    /// How many games are in memory.
    #[must_use]
    pub fn games_loaded(&self) -> usize {
        self.games.lock().map_or(0, |g| g.len())
    }

    /// The game, from memory or the store.
    async fn cell(&self, id: &str) -> Result<Arc<Cell>, ProtoError> {
        let not_found =
            || ProtoError::new(ErrorCode::GameNotFound, "no game with this id").given(id);
        if !ids::is_game_id(id) {
            return Err(not_found());
        }
        if let Some(cell) = self.lookup(id) {
            return Ok(cell);
        }
        let stored = self
            .store
            .load(id)
            .await
            .map_err(|e| storage_error(&e))?
            .ok_or_else(not_found)?;
        let room = Room::restore(stored, Instant::now()).map_err(|e| {
            eprintln!("hostage serve: {e}");
            ProtoError::new(ErrorCode::InternalError, "the stored game does not replay")
        })?;
        Ok(self.insert(room))
    }

    fn lookup(&self, id: &str) -> Option<Arc<Cell>> {
        self.games.lock().ok()?.get(id).cloned()
    }

    /// Adds a room (keeping the one already there, if another task loaded
    /// it first) and starts its clock task.
    fn insert(&self, room: Room) -> Arc<Cell> {
        let id = room.id().to_string();
        let timed = room.clock().is_some() && room.end().is_none();
        let cell = Arc::new(Cell {
            inner: AsyncMutex::new(Inner {
                room,
                followers: Vec::new(),
            }),
            wake: Notify::new(),
        });
        let Ok(mut games) = self.games.lock() else {
            return cell;
        };
        if let Some(existing) = games.get(&id) {
            return Arc::clone(existing);
        }
        games.insert(id, Arc::clone(&cell));
        drop(games);
        if timed {
            tokio::spawn(clock_task(Arc::clone(&self.store), Arc::clone(&cell)));
        }
        cell
    }

    /// A game's state as a spectator sees it, and its PGN.
    ///
    /// # Errors
    ///
    /// `game_not_found`, `storage_failed`.
    pub async fn snapshot(&self, id: &str) -> Result<(GameState, String), ProtoError> {
        let cell = self.cell(id).await?;
        let inner = cell.inner.lock().await;
        Ok((inner.room.state(None, Instant::now()), inner.room.pgn()))
    }

    /// Stops `conn` following every game (it closed).
    pub async fn disconnect(&self, conn: &Conn, following: &Following) {
        for id in following.games() {
            if let Some(cell) = self.lookup(id) {
                cell.inner
                    .lock()
                    .await
                    .followers
                    .retain(|c| c.id != conn.id);
            }
        }
    }

    /// Handles one request; every answer is sent to `conn`.
    pub async fn handle(&self, conn: &Conn, following: &mut Following, envelope: Envelope) {
        let id = envelope.id.as_ref();
        let game = match &envelope.request {
            Request::Join { game, .. }
            | Request::Watch { game }
            | Request::Unwatch { game }
            | Request::Resume { game, .. }
            | Request::Move { game, .. }
            | Request::Seat { game, .. } => Some(game.clone()),
            Request::Create { .. } | Request::Ping => None,
        };
        if let Err(mut e) = self.dispatch(conn, following, envelope.request, id).await {
            if e.game.is_none() {
                if let Some(game) = &game {
                    e = e.in_game(game);
                }
            }
            conn.reply(&Message::Error(e), id);
        }
    }

    async fn dispatch(
        &self,
        conn: &Conn,
        following: &mut Following,
        request: Request,
        id: Option<&RequestId>,
    ) -> Result<(), ProtoError> {
        match request {
            Request::Ping => {
                conn.reply(&Message::Pong, id);
                Ok(())
            }
            Request::Create { color, clock } => {
                check_room_to_follow(following, None)?;
                self.create(conn, following, color, clock, id).await
            }
            Request::Join { game, color } => {
                check_room_to_follow(following, Some(&game))?;
                let cell = self.cell(&game).await?;
                let mut inner = cell.inner.lock().await;
                let token = ids::token().map_err(|_| random_failed())?;
                let now = Instant::now();
                let (side, change) = inner.room.join(color, token.clone(), now)?;
                commit(&*self.store, &mut inner, change, Some(conn.id)).await?;
                cell.wake.notify_one();
                let link = link(&game);
                conn.reply(
                    &Message::Joined {
                        game: game.clone(),
                        token,
                        color: side,
                        link,
                    },
                    id,
                );
                follow(&mut inner, conn, following, Some(side), id);
                Ok(())
            }
            Request::Watch { game } => {
                check_room_to_follow(following, Some(&game))?;
                let cell = self.cell(&game).await?;
                let mut inner = cell.inner.lock().await;
                conn.reply(&Message::Watching { game: game.clone() }, id);
                follow(&mut inner, conn, following, None, id);
                Ok(())
            }
            Request::Unwatch { game } => {
                if following.0.remove(&game) {
                    if let Some(cell) = self.lookup(&game) {
                        cell.inner
                            .lock()
                            .await
                            .followers
                            .retain(|c| c.id != conn.id);
                    }
                }
                conn.reply(&Message::Unwatched { game }, id);
                Ok(())
            }
            Request::Resume { game, token } => {
                check_room_to_follow(following, Some(&game))?;
                let cell = self.cell(&game).await?;
                let mut inner = cell.inner.lock().await;
                let side = inner.room.seat_of(&token).ok_or_else(|| {
                    ProtoError::new(
                        ErrorCode::InvalidToken,
                        "this token is no seat of this game",
                    )
                })?;
                conn.reply(
                    &Message::Resumed {
                        game: game.clone(),
                        color: side,
                    },
                    id,
                );
                follow(&mut inner, conn, following, Some(side), id);
                Ok(())
            }
            Request::Move {
                game,
                token,
                mv,
                ply,
            } => {
                let cell = self.cell(&game).await?;
                let mut inner = cell.inner.lock().await;
                let outcome = inner
                    .room
                    .play(token.as_deref(), &mv, ply, Instant::now())?;
                match outcome {
                    MoveOutcome::Duplicate(ack) => {
                        conn.reply(&ack, id);
                        Ok(())
                    }
                    MoveOutcome::Played(change) => {
                        let events = change.events.clone();
                        commit(&*self.store, &mut inner, change, Some(conn.id)).await?;
                        cell.wake.notify_one();
                        for event in &events {
                            conn.reply(event, id);
                        }
                        Ok(())
                    }
                    MoveOutcome::Flagged(change) => {
                        commit(&*self.store, &mut inner, change, None).await?;
                        cell.wake.notify_one();
                        Err(ProtoError::new(
                            ErrorCode::GameOver,
                            "your flag fell before the move arrived",
                        ))
                    }
                }
            }
            Request::Seat {
                action,
                game,
                token,
            } => {
                let cell = self.cell(&game).await?;
                let mut inner = cell.inner.lock().await;
                let now = Instant::now();
                let token = token.as_deref();
                let change = match action {
                    SeatAction::Resign => inner.room.resign(token, now)?,
                    SeatAction::OfferDraw => inner.room.offer_draw(token, now)?,
                    SeatAction::AcceptDraw => inner.room.answer_draw(token, true, now)?,
                    SeatAction::DeclineDraw => inner.room.answer_draw(token, false, now)?,
                };
                let events = change.events.clone();
                commit(&*self.store, &mut inner, change, Some(conn.id)).await?;
                cell.wake.notify_one();
                for event in &events {
                    conn.reply(event, id);
                }
                Ok(())
            }
        }
    }

    async fn create(
        &self,
        conn: &Conn,
        following: &mut Following,
        color: ColorChoice,
        clock: Option<crate::protocol::ClockSpec>,
        id: Option<&RequestId>,
    ) -> Result<(), ProtoError> {
        let side = match color {
            ColorChoice::White => Side::White,
            ColorChoice::Black => Side::Black,
            ColorChoice::Random => {
                if ids::coin().map_err(|_| random_failed())? {
                    Side::White
                } else {
                    Side::Black
                }
            }
        };
        let token = ids::token().map_err(|_| random_failed())?;
        // A clash of 51-bit ids is very unlikely; the store refuses one anyway.
        let mut attempt = 0;
        let room = loop {
            let game = ids::game_id().map_err(|_| random_failed())?;
            let (room, record) = Room::create(game, crate::now_ms(), clock, side, token.clone());
            match self.store.write(Write::CreateGame(record)).await {
                Ok(()) => break room,
                Err(StoreError::Conflict(_)) if attempt < 3 => attempt += 1,
                Err(e) => return Err(storage_error(&e)),
            }
        };
        let game = room.id().to_string();
        let cell = self.insert(room);
        let mut inner = cell.inner.lock().await;
        conn.reply(
            &Message::Created {
                game: game.clone(),
                token,
                color: side,
                link: link(&game),
            },
            id,
        );
        follow(&mut inner, conn, following, Some(side), id);
        Ok(())
    }
}

/// The link to share (`docs/protocol.md`, Identifiers).
fn link(game: &str) -> String {
    format!("/?game={game}")
}

fn check_room_to_follow(following: &Following, game: Option<&str>) -> Result<(), ProtoError> {
    let already = game.is_some_and(|g| following.0.contains(g));
    if !already && following.0.len() >= MAX_GAMES_PER_CONNECTION {
        return Err(ProtoError::new(
            ErrorCode::TooManyGames,
            format!("a connection follows at most {MAX_GAMES_PER_CONNECTION} games; unwatch one"),
        ));
    }
    Ok(())
}

/// Makes `conn` a follower and sends it the whole state (under the room's
/// lock, so that every later broadcast comes after it).
fn follow(
    inner: &mut Inner,
    conn: &Conn,
    following: &mut Following,
    you: Option<Side>,
    id: Option<&RequestId>,
) {
    inner.follow(conn);
    following.0.insert(inner.room.id().to_string());
    conn.reply(&Message::State(inner.room.state(you, Instant::now())), id);
}

/// Stores a change, then broadcasts its events to every follower but
/// `actor` (who gets them as answers); undoes it if the store refuses.
async fn commit(
    store: &dyn Store,
    inner: &mut Inner,
    change: Change,
    actor: Option<u64>,
) -> Result<(), ProtoError> {
    let Change {
        write,
        events,
        undo,
    } = change;
    match store.write(write).await {
        Ok(()) => {
            inner.broadcast(&events, actor);
            Ok(())
        }
        Err(e) => {
            inner.room.undo(undo);
            Err(storage_error(&e))
        }
    }
}

/// Ends a timed game on time when the running flag falls, whether or not
/// anyone moves. Exits when the game has ended.
async fn clock_task(store: Arc<dyn Store>, cell: Arc<Cell>) {
    loop {
        let deadline = {
            let inner = cell.inner.lock().await;
            if inner.room.end().is_some() {
                return;
            }
            inner.room.clock().and_then(|c| c.deadline())
        };
        let Some(deadline) = deadline else {
            cell.wake.notified().await;
            continue;
        };
        tokio::select! {
            () = tokio::time::sleep_until(deadline.into()) => {
                let mut inner = cell.inner.lock().await;
                if let Some(change) = inner.room.check_flag(Instant::now()) {
                    if let Err(e) = commit(&*store, &mut inner, change, None).await {
                        eprintln!("hostage serve: game {}: flag fall not stored ({}); retrying", inner.room.id(), e.message);
                        drop(inner);
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
            () = cell.wake.notified() => {}
        }
    }
}
