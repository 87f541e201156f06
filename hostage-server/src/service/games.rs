//! The game service: every game on this server, who follows each, and the
//! one path by which a game changes.
//!
//! Policy:
//! - each game is a [`Room`] behind its own async lock; a request takes the
//!   lock, lets the room decide, **stores the change and waits for the store**
//!   while still holding the lock, and only then broadcasts. So no client
//!   ever hears of a change that is not stored, and the changes of one game
//!   are stored and sent in one order. A refused write is undone in memory.
//! - the room returns a domain event (`event.rs`); this service maps it at
//!   the edges, to the write to store (`store/persist.rs`) and to the messages to
//!   send (`wire/mod.rs`). Each request kind has its own handler, chosen by
//!   [`Hub`]'s `dispatch`; the replies only the service knows (a new seat's
//!   token, the link to share) are built here.
//! - answers to a request (with its `id`) go to the connection that sent it;
//!   the same events go, without `id`, to every other connection following
//!   the game. Sends never wait: a connection whose queue is full is closed
//!   (it resumes after reconnecting), so a slow client cannot stall a game.
//! - each timed game has a task that sleeps until the running flag would
//!   fall and ends the game on time if nobody moved.
//! - unfinished games are loaded at start-up (their clocks resume, see
//!   `clock.rs`); finished ones are loaded on first use. A sweeper drops
//!   from memory the games nobody follows: finished ones at once, the
//!   others after `evict_after` without a change (except timed games that
//!   go on: their flag must fall). They load again on demand; a request
//!   that raced with the sweeper takes the game again ([`Hub`]'s `open`).
//! - who follows a game from each seat is tracked, so that a player whose
//!   opponent has been gone for `abandon_after` may claim the win or a
//!   draw. With a store that several servers share, the opponent may follow
//!   the game on another server: each server marks in the store, every
//!   quarter of `abandon_after` (and at once when a seat is taken or
//!   resumed), the seats followed on it, and a claim needs the opponent
//!   gone here and unmarked for `abandon_after` plus that quarter (the
//!   opponent may have left just before the next mark was due).
//! - the followers are told when a seat of a game that goes on is gone and
//!   when it is back (`presence.rs`): on one server at once, as the seat's
//!   last follower leaves or one arrives; with a shared store a departure
//!   is decided from the marks, every quarter of `abandon_after`.
//! - with a shared store, a refusal that another server's change could
//!   explain (`invalid_token`, a `ply_mismatch` for a ply ahead,
//!   `not_your_turn`, `no_draw_offer`, `game_not_started`) or a write the
//!   store refused as out of date is decided once more after reading the
//!   game again; so is a flag fall the store refused.
//! - with a shared store, a game is also read again when a connection
//!   arrives to follow it here (`resume`, `watch`), and every presence
//!   period for each game followed here that has been quiet that long: an
//!   instance that stopped between storing a change and announcing it
//!   (`postgres/group.rs`) leaves the change to be found so.

use std::{
    collections::{HashMap, HashSet},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc, Mutex, Weak,
    },
    time::{Duration, Instant},
};

use hostage_core::ByColor;
use tokio::sync::{mpsc, Mutex as AsyncMutex, Notify, OwnedMutexGuard};

use hostage_core::Color;

mod account_seats;
mod catch_up;
mod live;
mod ratings;
mod tasks;

use tasks::{clock_task, follow_changes, mark_presence, sweeper};

use crate::{
    domain::account::SeatOwner,
    domain::correspondence::Control,
    domain::names::DisplayName,
    domain::room::{Change, MoveOutcome, Room},
    domain::TokenHash,
    service::limits::ServerLimits,
    service::presence,
    store::accounts::AccountStore,
    store::ids,
    store::persist,
    store::{Store, StoreError, Write},
    wire,
    wire::protocol::{
        ColorChoice, Envelope, ErrorCode, GameState, Message, ProtoError, Request, RequestId,
        SeatAction, MAX_GAMES_PER_CONNECTION,
    },
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
    /// Bytes queued and not yet written to the socket.
    pub queued: Arc<AtomicUsize>,
    /// The most bytes that may be queued.
    pub max_queued_bytes: usize,
    /// The account logged in on this connection (its session cookie), if
    /// any: its seats are the account's (`games/account_seats.rs`).
    pub account: Option<Arc<SeatOwner>>,
}

impl Conn {
    /// Queues `text`; closes the connection if its queue is full (in
    /// messages or in bytes). Returns whether it was queued.
    pub fn send(&self, text: Arc<str>) -> bool {
        let len = text.len();
        let before = self.queued.fetch_add(len, Ordering::AcqRel);
        if before.saturating_add(len) <= self.max_queued_bytes && self.tx.try_send(text).is_ok() {
            true
        } else {
            self.queued.fetch_sub(len, Ordering::AcqRel);
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

    /// Whether no game is followed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A connection following a game, and the seat it resumed or took.
struct Follower {
    conn: Conn,
    seat: Option<hostage_core::Color>,
}

struct Inner {
    room: Room,
    followers: Vec<Follower>,
    /// Since when each seat has had no follower (`None`: one follows).
    gone_since: ByColor<Option<Instant>>,
    /// The last change stored, or the load.
    last_change: Instant,
    /// Dropped from memory: whoever holds this must take the game again.
    evicted: bool,
    /// The seats the followers were told gone (`presence.rs`).
    told: presence::Told,
    /// A rated game's ratings as shown (`ratings.rs`).
    rated: Option<ratings::RatedShown>,
}

impl Inner {
    fn new(room: Room) -> Inner {
        let now = Instant::now();
        Inner {
            room,
            followers: Vec::new(),
            gone_since: ByColor::new(Some(now), Some(now)),
            last_change: now,
            evicted: false,
            told: presence::Told::default(),
            rated: None,
        }
    }

    /// How long each seat has had no follower here at `now` (`None`: one follows).
    fn gone_here(&self, now: Instant) -> ByColor<Option<Duration>> {
        ByColor::new_with(|seat| {
            self.gone_since
                .get(seat)
                .map(|since| now.saturating_duration_since(since))
        })
    }

    fn follow(&mut self, conn: &Conn, seat: Option<hostage_core::Color>) {
        match self.followers.iter_mut().find(|f| f.conn.id == conn.id) {
            // A spectator who resumes a seat becomes that seat's follower.
            Some(f) => f.seat = f.seat.or(seat),
            None => self.followers.push(Follower {
                conn: conn.clone(),
                seat,
            }),
        }
        if let Some(seat) = seat {
            *self.gone_since.get_mut(seat) = None;
        }
    }

    /// Stops `conn` (or, with `None`, the closed connections already
    /// removed) following; a seat left without followers is gone from now.
    fn unfollow(&mut self, conn: Option<u64>) {
        if let Some(id) = conn {
            self.followers.retain(|f| f.conn.id != id);
        }
        let now = Instant::now();
        for seat in hostage_core::Color::ALL {
            let present = self.followers.iter().any(|f| f.seat == Some(seat));
            let gone = self.gone_since.get_mut(seat);
            if !present && gone.is_none() {
                *gone = Some(now);
            }
        }
    }

    /// Sends each message about a seat (`presence.rs`) to every follower
    /// but that seat's own.
    fn tell_about_seats(&mut self, messages: &[(Color, Message)]) {
        let before = self.followers.len();
        for (seat, message) in messages {
            let text: Arc<str> = message.to_text(None).into();
            self.followers
                .retain(|f| f.seat == Some(*seat) || f.conn.send(Arc::clone(&text)));
        }
        if self.followers.len() != before {
            self.unfollow(None);
        }
    }

    /// Sends `messages` to every follower but `except`; drops the ones whose
    /// queue overflowed (they are being closed).
    fn broadcast(&mut self, messages: &[Message], except: Option<u64>) {
        let before = self.followers.len();
        for message in messages {
            let text: Arc<str> = message.to_text(None).into();
            self.followers
                .retain(|f| Some(f.conn.id) == except || f.conn.send(Arc::clone(&text)));
        }
        if self.followers.len() != before {
            self.unfollow(None);
        }
    }
}

struct Cell {
    inner: Arc<AsyncMutex<Inner>>,
    /// Wakes the clock task after a change.
    wake: Notify,
    /// Whether the flag task runs.
    clock_task: std::sync::atomic::AtomicBool,
}

/// The seat a `create` or a challenge asked for, a random one drawn.
fn seat_for(choice: ColorChoice) -> Result<Color, ProtoError> {
    Ok(match choice {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random => Color::from_white(ids::coin().map_err(|_| random_failed())?),
    })
}

/// Every game on this server.
pub struct Hub {
    store: Arc<dyn Store>,
    games: Mutex<HashMap<String, Arc<Cell>>>,
    limits: ServerLimits,
    /// Other servers write the store too (`docs/server.md`).
    shared: bool,
    /// This hub, for the tasks it starts.
    me: Weak<Hub>,
    /// Where the seats of logged-in players are listed, once set.
    accounts: std::sync::OnceLock<Arc<dyn AccountStore>>,
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
    pub async fn start(
        store: Arc<dyn Store>,
        limits: ServerLimits,
    ) -> Result<Arc<Hub>, StoreError> {
        let changes = store.changes();
        let hub = Arc::new_cyclic(|me| Hub {
            store,
            games: Mutex::new(HashMap::new()),
            limits,
            shared: changes.is_some(),
            me: me.clone(),
            accounts: std::sync::OnceLock::new(),
        });
        tokio::spawn(sweeper(Arc::downgrade(&hub)));
        if let Some(changes) = changes {
            tokio::spawn(follow_changes(Arc::downgrade(&hub), changes));
            tokio::spawn(mark_presence(Arc::downgrade(&hub)));
        }
        for id in hub.store.unfinished().await? {
            if let Err(e) = hub.cell(&id).await {
                tracing::warn!(game = %id, error = %e, "game not resumed");
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
        let room = self.restore(stored).map_err(|e| {
            tracing::error!(game = %id, error = %e, "stored game does not replay");
            ProtoError::new(ErrorCode::InternalError, "the stored game does not replay")
        })?;
        let rated = self.rated_shown(id).await;
        Ok(self.insert_with(room, rated))
    }

    /// A stored game as a room: with a shared store the clocks have run
    /// since the last stored event (the game goes on elsewhere).
    fn restore(&self, stored: crate::store::StoredGame) -> Result<Room, String> {
        let from = self.counted_from(stored.updated_ms);
        let mut room = Room::restore(stored, from)?;
        self.limit(&mut room, from);
        Ok(room)
    }

    /// Sets the server's limits on a room placed in memory: the time for a
    /// first move (counted from `since` if one is due) and the length of a
    /// correspondence day.
    fn limit(&self, room: &mut Room, since: Instant) {
        room.limit_first_move(self.limits.first_move, since);
        room.set_correspondence_day(self.limits.correspondence_day);
    }

    /// When the clock of the side to move, and a first move due, of a game
    /// read from the store count from, its last change stored at
    /// `updated_ms`: with a shared store, that change (the game goes on
    /// elsewhere, and every server aborts a first move not made at one
    /// time); alone, now (the time the server was down is charged to no
    /// one).
    fn counted_from(&self, updated_ms: u64) -> Instant {
        let now = Instant::now();
        if self.shared {
            let since =
                Duration::from_millis(crate::domain::time::now_ms().saturating_sub(updated_ms));
            now.checked_sub(since).unwrap_or(now)
        } else {
            now
        }
    }

    /// Whether the game's clock may run (then it needs its flag task).
    async fn limits_clock_may_run(&self, cell: &Arc<Cell>) -> bool {
        let inner = cell.inner.lock().await;
        (inner.room.clock().is_some() || inner.room.days().is_some()) && inner.room.end().is_none()
    }

    /// Starts the flag task of a cell that has none.
    fn ensure_clock_task(&self, cell: &Arc<Cell>) {
        if !cell
            .clock_task
            .swap(true, std::sync::atomic::Ordering::AcqRel)
        {
            tokio::spawn(clock_task(
                self.me.clone(),
                Arc::clone(&self.store),
                Arc::clone(cell),
            ));
        }
    }

    /// How often the seats followed here are marked in a shared store, and
    /// so how late a mark may be.
    fn presence_period(&self) -> Duration {
        (self.limits.abandon_after / 4).clamp(Duration::from_millis(20), Duration::from_secs(15))
    }

    /// Marks in a shared store that `seat` of `game` is followed here now
    /// (a failure is logged: the periodic mark tries again).
    async fn mark_present(&self, game: &str, seat: Color) {
        if !self.shared {
            return;
        }
        if let Err(e) = self
            .store
            .mark_present(
                vec![(game.to_string(), seat)],
                crate::domain::time::now_ms(),
            )
            .await
        {
            tracing::warn!(game = %game, error = %e, "presence not stored");
        }
    }

    /// The seats followed here, of the games that go on.
    async fn followed_seats(&self) -> Vec<(String, Color)> {
        let cells = self.cells();
        let mut seats = Vec::new();
        for cell in cells {
            let inner = cell.inner.lock().await;
            if inner.evicted || inner.room.end().is_some() {
                continue;
            }
            for seat in Color::ALL {
                if inner.gone_since.get(seat).is_none() {
                    seats.push((inner.room.id().to_string(), seat));
                }
            }
        }
        seats
    }

    /// The games in memory.
    fn cells(&self) -> Vec<Arc<Cell>> {
        self.games
            .lock()
            .map(|g| g.values().cloned().collect())
            .unwrap_or_default()
    }

    /// The ids of the games in memory.
    fn loaded(&self) -> Vec<String> {
        self.games
            .lock()
            .map(|g| g.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn lookup(&self, id: &str) -> Option<Arc<Cell>> {
        self.games.lock().ok()?.get(id).cloned()
    }

    /// The game, locked, from memory or the store; never one the sweeper
    /// has just dropped.
    async fn open(&self, id: &str) -> Result<(Arc<Cell>, OwnedMutexGuard<Inner>), ProtoError> {
        loop {
            let cell = self.cell(id).await?;
            let inner = Arc::clone(&cell.inner).lock_owned().await;
            if !inner.evicted {
                return Ok((cell, inner));
            }
        }
    }

    /// Drops from memory the games nobody follows that are finished, or
    /// unchanged for `evict_after` and not running a clock.
    fn sweep(&self) {
        let Ok(mut games) = self.games.lock() else {
            return;
        };
        let after = self.limits.evict_after;
        games.retain(|_, cell| {
            let Ok(mut inner) = cell.inner.try_lock() else {
                return true; // busy: not idle
            };
            let room = &inner.room;
            let finished = room.end().is_some();
            let clock_runs = room.deadline().is_some();
            let idle = inner.last_change.elapsed() >= after;
            let evict = inner.followers.is_empty() && (finished || (idle && !clock_runs));
            if evict {
                inner.evicted = true;
                cell.wake.notify_one();
            }
            !evict
        });
    }

    /// Adds a room (keeping the one already there, if another task loaded
    /// it first) and starts its clock task.
    fn insert(&self, room: Room) -> Arc<Cell> {
        self.insert_with(room, None)
    }

    /// As [`Hub::insert`], with a rated game's ratings as shown.
    fn insert_with(&self, mut room: Room, rated: Option<ratings::RatedShown>) -> Arc<Cell> {
        self.limit(&mut room, Instant::now());
        let id = room.id().to_string();
        let timed = (room.clock().is_some() || room.days().is_some()) && room.end().is_none();
        let mut inner = Inner::new(room);
        inner.rated = rated;
        let cell = Arc::new(Cell {
            inner: Arc::new(AsyncMutex::new(inner)),
            wake: Notify::new(),
            clock_task: std::sync::atomic::AtomicBool::new(false),
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
            self.ensure_clock_task(&cell);
        }
        cell
    }

    /// A game's state as a spectator sees it, and its PGN.
    ///
    /// # Errors
    ///
    /// `game_not_found`, `storage_failed`.
    pub async fn snapshot(&self, id: &str) -> Result<(GameState, String), ProtoError> {
        self.snapshot_at(id, None).await
    }

    /// As [`Hub::snapshot`], the PGN's `Site` the server's public host
    /// `site` when known (the host the client asked for).
    ///
    /// # Errors
    ///
    /// `game_not_found`, `storage_failed`.
    pub async fn snapshot_at(
        &self,
        id: &str,
        site: Option<&str>,
    ) -> Result<(GameState, String), ProtoError> {
        let (_cell, inner) = self.open(id).await?;
        let mut state = wire::game_state(&inner.room, None, Instant::now());
        ratings::with_ratings(&mut state, inner.rated.as_ref());
        let elo = inner.rated.as_ref().map(ratings::RatedShown::elo);
        Ok((state, inner.room.pgn_rated(site, elo)))
    }

    /// Stops `conn` following every game (it closed).
    pub async fn disconnect(&self, conn: &Conn, following: &Following) {
        for id in following.games() {
            if let Some(cell) = self.lookup(id) {
                let mut inner = cell.inner.lock().await;
                inner.unfollow(Some(conn.id));
                self.tell_presence(&mut inner);
            }
        }
    }

    /// How long a seat must be gone before a claim, as a follower is told:
    /// with a shared store a mark may be a presence period late.
    fn claim_wait(&self) -> Duration {
        if self.shared {
            self.limits.abandon_after + self.presence_period()
        } else {
            self.limits.abandon_after
        }
    }

    /// Tells the followers of `inner`'s game the seats gone or back that
    /// this server knows of at once: on its own, every change; with a
    /// shared store only a return here (a seat that left here may follow
    /// on another server: [`Hub::watch_presence`] decides from the marks).
    fn tell_presence(&self, inner: &mut Inner) {
        let here = inner.gone_here(Instant::now());
        let gone = if self.shared {
            ByColor::new_with(|s| (*here.get(s)).filter(|_| inner.told.is_told(s)))
        } else {
            here
        };
        let active = inner.room.abandonment_applies();
        let id = inner.room.id().to_string();
        let messages = inner.told.changes(&id, active, gone, self.claim_wait());
        inner.tell_about_seats(&messages);
    }

    /// With a shared store: reads again each game followed here that has
    /// not changed for a presence period, and tells its followers what
    /// changed (a change another instance stored but did not announce).
    async fn refresh_quiet(&self) {
        let quiet = self.presence_period();
        let cells = self.cells();
        for cell in cells {
            let id = {
                let inner = cell.inner.lock().await;
                if inner.evicted
                    || inner.followers.is_empty()
                    || inner.last_change.elapsed() < quiet
                {
                    continue;
                }
                inner.room.id().to_string()
            };
            self.catch_up(&id).await;
        }
    }

    /// With a shared store: for each game followed here that goes on, a
    /// seat followed on no server (not here, not marked lately) is gone, a
    /// seat marked again is back; the followers here are told.
    async fn watch_presence(&self) {
        let cells = self.cells();
        let late = self.presence_period();
        for cell in cells {
            let mut inner = cell.inner.lock().await;
            let active = inner.room.abandonment_applies();
            if inner.evicted || inner.followers.is_empty() || !active {
                continue;
            }
            let id = inner.room.id().to_string();
            let marks = match self.store.last_present(&id).await {
                Ok(marks) => marks,
                Err(e) => {
                    tracing::warn!(game = %id, error = %e, "presence not read");
                    continue;
                }
            };
            let (here, now_ms) = (
                inner.gone_here(Instant::now()),
                crate::domain::time::now_ms(),
            );
            let gone = ByColor::new_with(|seat| {
                let here = (*here.get(seat))?;
                match (*marks.get(seat)).map(|ms| now_ms.saturating_sub(ms)) {
                    // Marked within two periods (and a margin): followed somewhere.
                    Some(age)
                        if Duration::from_millis(age) <= late * 2 + Duration::from_millis(250) =>
                    {
                        None
                    }
                    // Gone as the claim judges it (a mark may be a period late).
                    Some(age) => Some(here.min(Duration::from_millis(age).saturating_sub(late))),
                    None => Some(here),
                }
            });
            let messages = inner
                .told
                .changes(&id, true, gone, self.limits.abandon_after);
            inner.tell_about_seats(&messages);
        }
    }

    /// Makes `conn` a follower (`follow`), tells it the seats gone (but its
    /// own), then tells everyone what its arrival changed.
    fn follow(
        &self,
        inner: &mut Inner,
        conn: &Conn,
        following: &mut Following,
        you: Option<Color>,
        id: Option<&RequestId>,
    ) {
        follow(inner, conn, following, you, id);
        let active = inner.room.abandonment_applies();
        let gone = inner.gone_here(Instant::now());
        let told = inner
            .told
            .catch_up(inner.room.id(), active, gone, self.claim_wait());
        for message in told {
            if !matches!(&message, Message::OpponentGone { color, .. } if Some(*color) == you) {
                conn.reply(&message, None);
            }
        }
        self.tell_presence(inner);
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
            | Request::Seat { game, .. }
            | Request::Rematch { game, .. }
            | Request::Chat { game, .. } => Some(game.clone()),
            Request::Create { .. } | Request::Ping | Request::Lobby(_) => None,
        };
        if let (true, Request::Resume { game, .. } | Request::Watch { game }) =
            (self.shared, &envelope.request)
        {
            // A follower arriving sees the game as stored: another server
            // may have stored a change it could not announce.
            self.catch_up(game).await;
        }
        let mut result = self
            .dispatch(conn, following, envelope.request.clone(), id)
            .await;
        let stale = match &result {
            Err(Failure::Conflict(_)) => true,
            Err(Failure::Refused(e)) => may_be_out_of_date(e),
            Ok(()) => false,
        };
        if let (true, true, Some(game)) = (stale, self.shared, &game) {
            // Another server changed the game first, or may have (a seat
            // taken, a move, an offer not heard of yet): read it again,
            // tell the followers, and decide once more on the fresh game (a
            // resent move is then a duplicate, another move a mismatch).
            self.catch_up(game).await;
            result = self.dispatch(conn, following, envelope.request, id).await;
        }
        if let Err(Failure::Refused(mut e) | Failure::Conflict(mut e)) = result {
            if e.game.is_none() {
                if let Some(game) = &game {
                    e = e.in_game(game);
                }
            }
            conn.reply(&Message::Error(e), id);
        }
    }

    /// One request, by kind: each kind is its own function below.
    async fn dispatch(
        &self,
        conn: &Conn,
        following: &mut Following,
        request: Request,
        id: Option<&RequestId>,
    ) -> Result<(), Failure> {
        match request {
            Request::Ping => {
                conn.reply(&Message::Pong, id);
                Ok(())
            }
            Request::Create {
                color,
                clock,
                days,
                name,
            } => Ok(self
                .create(conn, following, color, (clock, days), name, id)
                .await?),
            Request::Chat { game, token, text } => {
                self.chat(conn, &game, token.as_deref(), &text, id).await
            }
            Request::Rematch { game, token } => {
                self.rematch(conn, following, &game, token.as_deref(), id)
                    .await
            }
            Request::Join { game, color, name } => {
                self.join(conn, following, &game, color, name, id).await
            }
            Request::Watch { game } => self.watch(conn, following, &game, id).await,
            Request::Unwatch { game } => {
                self.unwatch(conn, following, game, id).await;
                Ok(())
            }
            Request::Resume { game, token } => {
                self.resume(conn, following, &game, &token, id).await
            }
            Request::Move {
                game,
                token,
                mv,
                ply,
            } => self.play(conn, &game, token.as_deref(), &mv, ply, id).await,
            Request::Seat {
                action,
                game,
                token,
            } => {
                self.seat_action(conn, &game, action, token.as_deref(), id)
                    .await
            }
            // The socket loop hands lobby requests to the lobby (`lobby.rs`).
            Request::Lobby(_) => Err(Failure::Refused(ProtoError::new(
                ErrorCode::InternalError,
                "a lobby request reached the game service; nothing was done",
            ))),
        }
    }

    /// `chat`: a seated player's line, stored, then sent to every follower
    /// (`chat.rs`).
    async fn chat(
        &self,
        conn: &Conn,
        game: &str,
        token: Option<&str>,
        text: &str,
        id: Option<&RequestId>,
    ) -> Result<(), Failure> {
        let (cell, mut inner) = self.open(game).await?;
        let change = inner
            .room
            .post_chat(token, text, crate::domain::time::now_ms())?;
        self.commit_and_reply(conn, &cell, &mut inner, change, id)
            .await
    }

    /// `join`: takes a free seat with a new token, or, for a connection
    /// whose account holds a seat of the game, gives the seat a new token
    /// for this device (`games/account_seats.rs`).
    async fn join(
        &self,
        conn: &Conn,
        following: &mut Following,
        game: &str,
        color: Option<Color>,
        name: Option<DisplayName>,
        id: Option<&RequestId>,
    ) -> Result<(), Failure> {
        check_room_to_follow(following, Some(game))?;
        // Read before the room's lock is taken: the account's seats.
        let (token, name, held) = self.account_join(conn, game, name).await?;
        let (cell, mut inner) = self.open(game).await?;
        let side = match held {
            Some(side) => {
                let change = inner.room.add_seat_token(side, TokenHash::of(&token))?;
                commit(&*self.store, &mut inner, change, Some(conn.id)).await?;
                side
            }
            None => {
                let now = Instant::now();
                let (side, change) =
                    inner
                        .room
                        .join_named(color, TokenHash::of(&token), name, now)?;
                commit(&*self.store, &mut inner, change, Some(conn.id)).await?;
                cell.wake.notify_one();
                self.list_seat(conn, game, side).await;
                side
            }
        };
        self.mark_present(game, side).await;
        conn.reply(
            &Message::Joined {
                game: game.to_string(),
                token,
                color: side,
                link: link(game),
            },
            id,
        );
        self.follow(&mut inner, conn, following, Some(side), id);
        Ok(())
    }

    /// `watch`: follows a game as a spectator.
    async fn watch(
        &self,
        conn: &Conn,
        following: &mut Following,
        game: &str,
        id: Option<&RequestId>,
    ) -> Result<(), Failure> {
        check_room_to_follow(following, Some(game))?;
        let (_cell, mut inner) = self.open(game).await?;
        conn.reply(
            &Message::Watching {
                game: game.to_string(),
            },
            id,
        );
        self.follow(&mut inner, conn, following, None, id);
        Ok(())
    }

    /// `unwatch`: stops following (answered even if not following).
    async fn unwatch(
        &self,
        conn: &Conn,
        following: &mut Following,
        game: String,
        id: Option<&RequestId>,
    ) {
        if following.0.remove(&game) {
            if let Some(cell) = self.lookup(&game) {
                let mut inner = cell.inner.lock().await;
                inner.unfollow(Some(conn.id));
                self.tell_presence(&mut inner);
            }
        }
        conn.reply(&Message::Unwatched { game }, id);
    }

    /// `resume`: takes a seat back with its token.
    async fn resume(
        &self,
        conn: &Conn,
        following: &mut Following,
        game: &str,
        token: &str,
        id: Option<&RequestId>,
    ) -> Result<(), Failure> {
        check_room_to_follow(following, Some(game))?;
        let (_cell, mut inner) = self.open(game).await?;
        let side = inner.room.seat(Some(token))?;
        self.mark_present(game, side).await;
        conn.reply(
            &Message::Resumed {
                game: game.to_string(),
                color: side,
            },
            id,
        );
        self.follow(&mut inner, conn, following, Some(side), id);
        Ok(())
    }

    /// `move`: plays it, acknowledges a resent one again, or stores the
    /// mover's fallen flag and refuses the move.
    async fn play(
        &self,
        conn: &Conn,
        game: &str,
        token: Option<&str>,
        mv: &str,
        ply: u64,
        id: Option<&RequestId>,
    ) -> Result<(), Failure> {
        let (cell, mut inner) = self.open(game).await?;
        match inner.room.play(token, mv, ply, Instant::now())? {
            MoveOutcome::Duplicate(ack) => {
                for message in wire::messages_for(&ack) {
                    conn.reply(&message, id);
                }
                Ok(())
            }
            MoveOutcome::Played(change) => {
                self.commit_and_reply(conn, &cell, &mut inner, change, id)
                    .await
            }
            MoveOutcome::Flagged(change) => {
                commit(&*self.store, &mut inner, change, None).await?;
                cell.wake.notify_one();
                let why = match inner.room.end().map(|e| e.reason) {
                    Some(crate::domain::EndReason::Aborted) => {
                        "the time for the first move ran out before it arrived: the game is aborted"
                    }
                    _ => "your flag fell before the move arrived",
                };
                Err(ProtoError::new(ErrorCode::GameOver, why).into())
            }
        }
    }

    /// `resign`, `offer_draw`, `accept_draw`, `decline_draw`, `claim_win`,
    /// `claim_draw`, `abort`, `propose_takeback`, `accept_takeback`,
    /// `decline_takeback`.
    async fn seat_action(
        &self,
        conn: &Conn,
        game: &str,
        action: SeatAction,
        token: Option<&str>,
        id: Option<&RequestId>,
    ) -> Result<(), Failure> {
        let (cell, mut inner) = self.open(game).await?;
        let now = Instant::now();
        let change = match action {
            SeatAction::Resign => inner.room.resign(token, now)?,
            SeatAction::OfferDraw => inner.room.offer_draw(token, now)?,
            SeatAction::AcceptDraw => inner.room.answer_draw(token, true, now)?,
            SeatAction::DeclineDraw => inner.room.answer_draw(token, false, now)?,
            SeatAction::Abort => inner.room.abort(token, now)?,
            SeatAction::ProposeTakeback => inner.room.propose_takeback(token, now)?,
            SeatAction::AcceptTakeback => inner.room.answer_takeback(token, true, now)?,
            SeatAction::DeclineTakeback => inner.room.answer_takeback(token, false, now)?,
            SeatAction::ClaimWin | SeatAction::ClaimDraw => {
                let win = action == SeatAction::ClaimWin;
                self.claim(&mut inner, game, token, win, now).await?
            }
        };
        self.commit_and_reply(conn, &cell, &mut inner, change, id)
            .await
    }

    /// `claim_win` (`win`) or `claim_draw`: how long the opponent has been
    /// gone decides. With a shared store the opponent may follow the game
    /// on another server: the store's marks count too (a mark may be a
    /// period late, so that much less is known gone).
    async fn claim(
        &self,
        inner: &mut Inner,
        game: &str,
        token: Option<&str>,
        win: bool,
        now: Instant,
    ) -> Result<Change, ProtoError> {
        let gone = inner.gone_since;
        let marks = if self.shared {
            inner.room.seat(token)?;
            let marks = self.store.last_present(game).await;
            Some(marks.map_err(|e| storage_error(&e))?)
        } else {
            None
        };
        let (now_ms, late) = (crate::domain::time::now_ms(), self.presence_period());
        let gone_for = |seat: Color| {
            let here = now.saturating_duration_since((*gone.get(seat))?);
            let marked = marks
                .and_then(|m| *m.get(seat))
                .map(|ms| Duration::from_millis(now_ms.saturating_sub(ms)).saturating_sub(late));
            Some(marked.map_or(here, |m| m.min(here)))
        };
        inner
            .room
            .claim(token, win, gone_for, self.limits.abandon_after, now)
    }

    /// Stores a player's change, wakes the game's clock task, and answers
    /// the player with the change's messages (the other followers are told
    /// by [`commit`]).
    async fn commit_and_reply(
        &self,
        conn: &Conn,
        cell: &Cell,
        inner: &mut Inner,
        change: Change,
        id: Option<&RequestId>,
    ) -> Result<(), Failure> {
        let messages = commit(&*self.store, inner, change, Some(conn.id)).await?;
        cell.wake.notify_one();
        for message in &messages {
            conn.reply(message, id);
        }
        Ok(())
    }

    /// `rematch`: links a new game to the finished `game` (colours
    /// swapped, the same time control) with the requester seated, or, if
    /// the opponent asked first, seats the requester in that one. The seat's
    /// token is derived from the old one ([`TokenHash::rematch_token`]), so
    /// a resent request finds the seat it already holds.
    async fn rematch(
        &self,
        conn: &Conn,
        following: &mut Following,
        game: &str,
        token: Option<&str>,
        id: Option<&RequestId>,
    ) -> Result<(), Failure> {
        check_room_to_follow(following, None)?;
        let (_cell, mut inner) = self.open(game).await?;
        let (old_side, linked) = inner.room.rematch_seat(token)?;
        // `rematch_seat` refused a request without a token.
        let token = token.unwrap_or_default();
        let side = old_side.other();
        if let Some(new_id) = linked {
            let name = inner.room.name(old_side).cloned();
            drop(inner);
            let new_token = TokenHash::rematch_token(token, &new_id);
            let seat = RematchSeat {
                side,
                token: new_token,
                name,
            };
            return self
                .take_rematch_seat(conn, following, game, &new_id, seat, id)
                .await;
        }
        let new_id = ids::game_id().map_err(|_| random_failed())?;
        let new_token = TokenHash::rematch_token(token, &new_id);
        // The players keep their names in the rematch.
        let (room, record) = Room::create_with_days(
            new_id.clone(),
            crate::domain::time::now_ms(),
            inner.room.clock_spec(),
            inner.room.days(),
            side,
            TokenHash::of(&new_token),
            inner.room.name(old_side).cloned(),
        );
        let change = inner.room.link_rematch(record);
        // A conflict (the opponent's rematch linked on another server, or
        // an id clash) is read again and decided anew by `handle`.
        commit(&*self.store, &mut inner, change, Some(conn.id)).await?;
        drop(inner);
        let cell = self.insert(room);
        let mut new_inner = cell.inner.lock().await;
        self.list_seat(conn, &new_id, side).await;
        self.mark_present(&new_id, side).await;
        conn.reply(
            &Message::Rematched {
                game: new_id.clone(),
                token: new_token,
                color: side,
                link: link(&new_id),
                rematch_of: game.to_string(),
            },
            id,
        );
        self.follow(&mut new_inner, conn, following, Some(side), id);
        Ok(())
    }

    /// Seats a `rematch` requester on `side` of the linked game `new_id`
    /// with `new_token`, or answers again if the seat is already theirs.
    async fn take_rematch_seat(
        &self,
        conn: &Conn,
        following: &mut Following,
        old: &str,
        new_id: &str,
        seat: RematchSeat,
        id: Option<&RequestId>,
    ) -> Result<(), Failure> {
        let RematchSeat {
            side,
            token: new_token,
            name,
        } = seat;
        let mut read_again = false;
        loop {
            let (cell, mut inner) = self.open(new_id).await?;
            let held = inner.room.seat(Some(&new_token)).ok() == Some(side);
            if !held {
                let joined = match inner.room.join_named(
                    Some(side),
                    TokenHash::of(&new_token),
                    name.clone(),
                    Instant::now(),
                ) {
                    Ok((_, change)) => {
                        commit(&*self.store, &mut inner, change, Some(conn.id)).await
                    }
                    Err(e) => Err(Failure::Refused(e)),
                };
                match joined {
                    Ok(_) => {
                        cell.wake.notify_one();
                        self.list_seat(conn, new_id, side).await;
                    }
                    // With a shared store the seat may have been taken, or
                    // the game changed, on another server: read it again once.
                    Err(Failure::Conflict(_) | Failure::Refused(_))
                        if self.shared && !read_again =>
                    {
                        drop(inner);
                        self.catch_up(new_id).await;
                        read_again = true;
                        continue;
                    }
                    Err(e) => return Err(e),
                }
            }
            self.mark_present(new_id, side).await;
            conn.reply(
                &Message::Rematched {
                    game: new_id.to_string(),
                    token: new_token,
                    color: side,
                    link: link(new_id),
                    rematch_of: old.to_string(),
                },
                id,
            );
            self.follow(&mut inner, conn, following, Some(side), id);
            return Ok(());
        }
    }

    /// A new game with `side`'s seat taken by the token whose digest
    /// `token` gives for the game's id, stored before anyone hears of it.
    /// A clash of 51-bit ids is very unlikely; the store refuses one
    /// anyway, and a fresh id is drawn (three times).
    async fn create_stored(
        &self,
        (clock, days): Control,
        side: Color,
        token: impl Fn(&str) -> TokenHash + Send + Sync,
        name: Option<DisplayName>,
    ) -> Result<Room, ProtoError> {
        let mut attempt = 0;
        loop {
            let game = ids::game_id().map_err(|_| random_failed())?;
            let digest = token(&game);
            let (room, record) = Room::create_with_days(
                game,
                crate::domain::time::now_ms(),
                clock,
                days,
                side,
                digest,
                name.clone(),
            );
            match self.store.write(Write::CreateGame(record)).await {
                Ok(()) => return Ok(room),
                Err(StoreError::Conflict(_)) if attempt < 3 => attempt += 1,
                Err(e) => return Err(storage_error(&e)),
            }
        }
    }

    /// `create`: a new game with the requester seated.
    async fn create(
        &self,
        conn: &Conn,
        following: &mut Following,
        color: ColorChoice,
        control: Control,
        name: Option<DisplayName>,
        id: Option<&RequestId>,
    ) -> Result<(), ProtoError> {
        check_room_to_follow(following, None)?;
        let side = seat_for(color)?;
        let token = ids::token().map_err(|_| random_failed())?;
        let name = conn
            .account
            .as_deref()
            .map_or(name, |o| Some(o.name.clone()));
        let digest = TokenHash::of(&token);
        let room = self.create_stored(control, side, |_| digest, name).await?;
        let game = room.id().to_string();
        self.list_seat(conn, &game, side).await;
        let cell = self.insert(room);
        let mut inner = cell.inner.lock().await;
        // Just created: the sweeper spares a game with a follower, and
        // follows below before the lock is released.
        conn.reply(
            &Message::Created {
                game: game.clone(),
                token,
                color: side,
                link: link(&game),
            },
            id,
        );
        self.mark_present(&game, side).await;
        self.follow(&mut inner, conn, following, Some(side), id);
        Ok(())
    }
}

/// Whether a refusal may come from a game this server has not read since
/// another server changed it (a seat taken, a move, an offer).
fn may_be_out_of_date(e: &ProtoError) -> bool {
    match e.code {
        ErrorCode::InvalidToken
        | ErrorCode::NotYourTurn
        | ErrorCode::NoDrawOffer
        | ErrorCode::NoTakebackOffer
        | ErrorCode::NoTakeback
        | ErrorCode::TakebackAlreadyOffered
        | ErrorCode::GameNotStarted
        | ErrorCode::GameNotOver => true,
        // Only a ply ahead of the game here: one behind is a resend or a
        // stale client, which reading again cannot change.
        ErrorCode::PlyMismatch => e
            .expected
            .zip(e.given.as_deref().and_then(|g| g.parse::<u64>().ok()))
            .is_some_and(|(expected, given)| given > expected),
        _ => false,
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
    you: Option<Color>,
    id: Option<&RequestId>,
) {
    inner.follow(conn, you);
    following.0.insert(inner.room.id().to_string());
    let mut state = wire::game_state(&inner.room, you, Instant::now());
    ratings::with_ratings(&mut state, inner.rated.as_ref());
    conn.reply(&Message::State(state), id);
}

/// The seat a `rematch` requester takes in the linked game.
struct RematchSeat {
    side: Color,
    token: String,
    name: Option<DisplayName>,
}

/// Why a request failed.
enum Failure {
    /// Refused: the error to send.
    Refused(ProtoError),
    /// The store found its condition false (with a shared store: another
    /// server changed the game first).
    Conflict(ProtoError),
}

impl From<ProtoError> for Failure {
    fn from(e: ProtoError) -> Failure {
        Failure::Refused(e)
    }
}

/// Stores a change (its event's write, `store/persist.rs`), then broadcasts its
/// event's messages (`wire/mod.rs`) to every follower but `actor` (who gets
/// them as answers); undoes it if the store refuses.
async fn commit(
    store: &dyn Store,
    inner: &mut Inner,
    change: Change,
    actor: Option<u64>,
) -> Result<Vec<Message>, Failure> {
    let Change { event, undo } = change;
    let Some(write) = persist::write_for(&event) else {
        // Every change a room makes is stored; an event that is not is a bug.
        inner.room.undo(undo);
        return Err(Failure::Refused(ProtoError::new(
            ErrorCode::InternalError,
            "a change with nothing to store; nothing was accepted",
        )));
    };
    match store.write(write).await {
        Ok(()) => {
            inner.last_change = Instant::now();
            let mut messages = wire::messages_for(&event);
            ratings::rate_messages(store, inner, &mut messages).await;
            inner.broadcast(&messages, actor);
            Ok(messages)
        }
        Err(e) => {
            inner.room.undo(undo);
            Err(match e {
                StoreError::Conflict(_) => Failure::Conflict(storage_error(&e)),
                _ => Failure::Refused(storage_error(&e)),
            })
        }
    }
}

/// Room for one more game on a connection (`too_many_games` otherwise),
/// for the lobby, which seats a player in a new game.
///
/// # Errors
///
/// `too_many_games`.
pub(crate) fn room_to_follow(following: &Following) -> Result<(), ProtoError> {
    check_room_to_follow(following, None)
}

/// The games the lobby starts (`lobby.rs`): a game made from an accepted
/// challenge, through the same path as `create` and `join`.
impl Hub {
    /// Creates the game of `challenge` (the creator seated on its colour,
    /// with the token digest drawn when the challenge was made), then
    /// seats the accepter `conn` on the other colour with a new token: both
    /// writes stored before anyone hears of the game. The accepter gets
    /// `joined` and `state`, as after `join`. Returns the game's id.
    ///
    /// # Errors
    ///
    /// `storage_failed`, `internal_error`; a game whose creator's seat was
    /// stored but not the accepter's stays, waiting, known to nobody.
    pub(crate) async fn start_challenge(
        &self,
        conn: &Conn,
        following: &mut Following,
        challenge: &crate::domain::lobby::Challenge,
        accepter: Option<DisplayName>,
        id: Option<&RequestId>,
    ) -> Result<String, ProtoError> {
        let creator = seat_for(challenge.color)?;
        let token = ids::token().map_err(|_| random_failed())?;
        let room = self
            .create_stored(
                (challenge.clock, challenge.days),
                creator,
                |_| challenge.token,
                challenge.name.clone(),
            )
            .await?;
        let game = room.id().to_string();
        let accepter = conn
            .account
            .as_deref()
            .map_or(accepter, |o| Some(o.name.clone()));
        let rated = self.rate_challenge(conn, challenge, creator, &game).await?;
        let cell = self.insert_with(room, rated);
        let mut inner = cell.inner.lock().await;
        let (side, change) = inner.room.join_named(
            Some(creator.other()),
            TokenHash::of(&token),
            accepter,
            Instant::now(),
        )?;
        commit(&*self.store, &mut inner, change, Some(conn.id))
            .await
            .map_err(|(Failure::Refused(e) | Failure::Conflict(e))| e)?;
        cell.wake.notify_one();
        self.list_seat(conn, &game, side).await;
        if let Some(made_by) = &challenge.terms.creator {
            self.list_seat_of(&made_by.account, &game, creator).await;
        }
        self.mark_present(&game, side).await;
        conn.reply(
            &Message::Joined {
                game: game.clone(),
                token,
                color: side,
                link: link(&game),
            },
            id,
        );
        follow(&mut inner, conn, following, Some(side), id);
        Ok(game)
    }

    /// Seats a challenge's creator `conn` in the game its challenge became
    /// (made on any server): `challenge_accepted`, then `joined` with the
    /// seat's `token` and `state`, as after `join`.
    ///
    /// # Errors
    ///
    /// `game_not_found`, `invalid_token` (neither happens when the game
    /// was made from this challenge), `storage_failed`.
    pub(crate) async fn seat_challenger(
        &self,
        conn: &Conn,
        following: &mut Following,
        challenge: &str,
        game: &str,
        token: String,
    ) -> Result<(), ProtoError> {
        let (_cell, mut inner) = self.open(game).await?;
        let side = inner.room.seat(Some(&token))?;
        self.mark_present(game, side).await;
        conn.reply(
            &Message::ChallengeAccepted {
                challenge: challenge.to_string(),
                game: game.to_string(),
            },
            None,
        );
        conn.reply(
            &Message::Joined {
                game: game.to_string(),
                token,
                color: side,
                link: link(game),
            },
            None,
        );
        follow(&mut inner, conn, following, Some(side), None);
        Ok(())
    }
}
