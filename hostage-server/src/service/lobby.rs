//! The lobby: open challenges that any player can accept, kept live for
//! the connections that watch it (`docs/protocol.md`, Lobby).
//!
//! Policy:
//! - the challenges are kept by a [`LobbyStore`] (`store/lobby.rs`): in
//!   memory for one server (SQLite), in the shared database for several
//!   (PostgreSQL, `store/postgres/lobby.rs`). Each server keeps a view of the open
//!   challenges that changes **only** from the store's announcements, in
//!   their order, and tells its watchers each change; `lobby_watch` gets
//!   the view and is then told every later change (both under one lock, so
//!   nothing falls between them). Challenges are not games: they do not
//!   survive a restart of every server.
//! - a challenge is made with its creator's seat token already drawn: the
//!   store keeps its digest, this server keeps the token itself (never
//!   sent to another server or stored). Accepting claims the challenge in
//!   the store (one accepter wins; the others get `challenge_not_found`),
//!   makes the game through the game service's path (both seats stored
//!   before anyone hears of it, `games.rs`), then announces the game; the
//!   creator's server hears it and seats its creator with that token. If
//!   the game could not be stored, the challenge is put back.
//! - a challenge leaves the list when its creator cancels it, when it is
//!   accepted, when its creator's connection closes, and with a shared
//!   store when its server stops marking it alive (`challenge_stale_after`,
//!   as `presence` does for seats).
//! - bounded ([`ServerLimits`]): open challenges per connection and per
//!   client address on this server, a token bucket on making them per
//!   connection, and a cap on the whole list (which is also the most
//!   `lobby_watch` sends). A refused request changes nothing.
//! - quick pairing (`lobby_seek`) accepts the oldest open challenge of
//!   another connection with the same time control, or, if there is none
//!   (or each was taken first), opens a challenge of random colour; a
//!   connection that already has such a challenge open gets it again.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Arc, Mutex, MutexGuard, Weak},
    time::{Duration, Instant},
};

use tokio::sync::{broadcast, mpsc};

use crate::{
    domain::correspondence::Control,
    domain::lobby::{
        check_caps, may_take, seek_candidates, CapExceeded, Mismatch, Pace, RatingRange, Seeking,
        Terms,
    },
    domain::names::DisplayName,
    domain::TokenHash,
    service::games::{room_to_follow, Conn, Following, Hub},
    service::limits::ServerLimits,
    store::ids,
    store::lobby::{Challenge, LobbyEvent, LobbyStore, Owner},
    store::StoreError,
    wire::protocol::lobby_wire::{ChallengeView, LobbyRequest},
    wire::protocol::{ColorChoice, ErrorCode, Message, ProtoError, RequestId},
};

/// A creator's seat in the game its challenge became, for its
/// connection's socket loop to take ([`Lobby::seat`]).
#[derive(Debug)]
pub struct Seat {
    challenge: String,
    game: String,
    token: String,
}

/// One connection's part in the lobby, kept by its socket loop.
pub struct Member {
    addr: IpAddr,
    watching: bool,
    pace: Pace,
    seats_tx: mpsc::Sender<Seat>,
    seats_rx: mpsc::Receiver<Seat>,
}

impl Member {
    /// The next seat this connection's challenges won (never ends while
    /// the member lives).
    pub async fn next_seat(&mut self) -> Option<Seat> {
        self.seats_rx.recv().await
    }
}

/// A challenge made on this server, with what only this server knows.
struct Owned {
    challenge: Challenge,
    conn: Conn,
    addr: IpAddr,
    token: String,
    seats: mpsc::Sender<Seat>,
    /// Its creator is cancelling it: the answer says so, not a removal.
    cancelling: bool,
}

/// This server's view of the lobby.
#[derive(Default)]
struct View {
    open: HashMap<String, Challenge>,
    watchers: HashMap<u64, Conn>,
    owned: HashMap<String, Owned>,
}

impl View {
    /// Sends `message` to every watcher; forgets the ones being closed.
    fn broadcast(&mut self, message: &Message) {
        let text: Arc<str> = message.to_text(None).into();
        self.watchers.retain(|_, c| c.send(Arc::clone(&text)));
    }

    /// Takes `id` off the list (telling the watchers, if it was on it).
    fn hide(&mut self, id: &str) {
        if self.open.remove(id).is_some() {
            self.broadcast(&Message::ChallengeRemoved {
                challenge: id.to_string(),
            });
        }
    }

    /// Puts `challenge` on the list (telling the watchers, if it was not).
    fn show(&mut self, challenge: Challenge) {
        let view = ChallengeView::from(&challenge);
        if self.open.insert(challenge.id.clone(), challenge).is_none() {
            self.broadcast(&Message::ChallengeAdded { challenge: view });
        }
    }

    /// The open challenges, oldest first, at most `max`.
    fn listed(&self, max: usize) -> Vec<ChallengeView> {
        let mut open: Vec<&Challenge> = self.open.values().collect();
        open.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        open.into_iter()
            .take(max)
            .map(ChallengeView::from)
            .collect()
    }
}

/// The lobby of one server.
pub struct Lobby {
    hub: Arc<Hub>,
    store: Arc<dyn LobbyStore>,
    limits: ServerLimits,
    view: Mutex<View>,
}

/// A challenge's or seek's rating terms as asked.
#[derive(Copy, Clone, Debug)]
struct Ask {
    rated: bool,
    range: Option<RatingRange>,
}

/// A rated challenge or seek needs a logged-in player and a clock or days
/// per move.
fn check_rated(conn: &Conn, control: Control, ask: Ask) -> Result<(), ProtoError> {
    if !ask.rated {
        Ok(())
    } else if conn.account.is_none() {
        Err(ProtoError::new(
            ErrorCode::RatedNeedsAccounts,
            "log in to play rated games (both players need an account)",
        ))
    } else if control == (None, None) {
        Err(ProtoError::new(
            ErrorCode::RatedNeedsClock,
            "a rated game needs a clock or days per move",
        ))
    } else {
        Ok(())
    }
}

/// Why a challenge may not be taken, as the error sent.
fn refusal(mismatch: Mismatch) -> ProtoError {
    match mismatch {
        Mismatch::NeedsAnotherAccount => ProtoError::new(
            ErrorCode::RatedNeedsAccounts,
            "a rated challenge is taken only by another logged-in player",
        ),
        Mismatch::OutOfRange => ProtoError::new(
            ErrorCode::OutOfRatingRange,
            "your rating is outside the challenge's rating range",
        ),
    }
}

fn storage(e: &StoreError) -> ProtoError {
    ProtoError::new(
        ErrorCode::StorageFailed,
        format!("the lobby's store refused the change ({e}); nothing was accepted"),
    )
}

fn not_found(id: &str) -> ProtoError {
    ProtoError::new(
        ErrorCode::ChallengeNotFound,
        "no open challenge with this id: it never was, was cancelled, or was accepted first",
    )
    .given(id)
}

fn random_failed() -> ProtoError {
    ProtoError::new(
        ErrorCode::InternalError,
        "the random source failed; nothing was created",
    )
}

impl Lobby {
    /// The lobby over `store`, with its view read and kept up to date, and
    /// (with a shared store) this server's challenges marked alive.
    ///
    /// # Errors
    ///
    /// The store cannot list its challenges.
    pub async fn start(
        hub: Arc<Hub>,
        store: Arc<dyn LobbyStore>,
        limits: ServerLimits,
    ) -> Result<Arc<Lobby>, StoreError> {
        let events = store.events();
        let lobby = Arc::new(Lobby {
            hub,
            store,
            limits,
            view: Mutex::new(View::default()),
        });
        lobby.resync().await?;
        tokio::spawn(follow_events(Arc::downgrade(&lobby), events));
        tokio::spawn(heartbeat(Arc::downgrade(&lobby)));
        Ok(lobby)
    }

    fn view(&self) -> MutexGuard<'_, View> {
        // A panic while holding the lock leaves a view that is still whole.
        self.view
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A new connection's part in the lobby.
    #[must_use]
    pub fn member(&self, addr: IpAddr) -> Member {
        let (seats_tx, seats_rx) = mpsc::channel(self.limits.max_challenges_per_connection + 1);
        Member {
            addr,
            watching: false,
            pace: Pace::full(self.limits.challenge_burst, Instant::now()),
            seats_tx,
            seats_rx,
        }
    }

    /// Whether `conn` must not be closed for idleness: it watches the
    /// lobby or has a challenge open.
    #[must_use]
    pub fn keeps_open(&self, conn: &Conn, member: &Member) -> bool {
        member.watching || self.view().owned.values().any(|o| o.conn.id == conn.id)
    }

    /// Handles one lobby request; every answer is sent to `conn`.
    pub async fn handle(
        &self,
        conn: &Conn,
        member: &mut Member,
        following: &mut Following,
        request: LobbyRequest,
        id: Option<&RequestId>,
    ) {
        let result = match request {
            LobbyRequest::Watch => {
                self.watch(conn, member, id);
                Ok(())
            }
            LobbyRequest::Unwatch => {
                member.watching = false;
                self.view().watchers.remove(&conn.id);
                conn.reply(&Message::LobbyUnwatched, id);
                Ok(())
            }
            LobbyRequest::Create {
                name,
                color,
                clock,
                days,
                rated,
                range,
            } => {
                let ask = Ask { rated, range };
                self.create(conn, member, (name, color, (clock, days)), ask, id)
                    .await
            }
            LobbyRequest::Cancel { challenge } => self.cancel(conn, &challenge, id).await,
            LobbyRequest::Accept { challenge, name } => {
                self.accept(conn, following, &challenge, name, id).await
            }
            LobbyRequest::Seek {
                name,
                clock,
                days,
                rated,
                range,
            } => {
                let ask = Ask { rated, range };
                self.seek(conn, member, following, (name, (clock, days)), ask, id)
                    .await
            }
        };
        if let Err(e) = result {
            conn.reply(&Message::Error(e), id);
        }
    }

    /// Seats a creator whose challenge was accepted (its socket loop
    /// calls this with what [`Member::next_seat`] gave).
    pub async fn seat(&self, conn: &Conn, following: &mut Following, seat: Seat) {
        let Seat {
            challenge,
            game,
            token,
        } = seat;
        if let Err(e) = self
            .hub
            .seat_challenger(conn, following, &challenge, &game, token)
            .await
        {
            tracing::warn!(%game, error = %e, "the creator of an accepted challenge was not seated");
            conn.reply(&Message::Error(e.in_game(&game)), None);
        }
    }

    /// A connection closed: it stops watching, and its open challenges go.
    pub async fn leave(&self, conn: &Conn) {
        let had = {
            let mut view = self.view();
            view.watchers.remove(&conn.id);
            let before = view.owned.len();
            view.owned.retain(|_, o| o.conn.id != conn.id);
            view.owned.len() != before
        };
        if had {
            if let Err(e) = self.store.remove_owned(&self.owner(conn)).await {
                tracing::warn!(error = %e, "a closed connection's challenges were not removed");
            }
        }
    }

    fn owner(&self, conn: &Conn) -> Owner {
        Owner {
            instance: self.store.instance().to_string(),
            conn: conn.id,
        }
    }

    /// `lobby_watch`: the list now, then each change.
    fn watch(&self, conn: &Conn, member: &mut Member, id: Option<&RequestId>) {
        member.watching = true;
        let mut view = self.view();
        let challenges = view.listed(self.limits.max_challenges);
        conn.reply(&Message::Lobby { challenges }, id);
        view.watchers.insert(conn.id, conn.clone());
    }

    /// `challenge_create`: checks the caps and the pace, then stores the
    /// challenge (its seat token drawn now) and answers `challenge_created`.
    async fn create(
        &self,
        conn: &Conn,
        member: &mut Member,
        (name, color, control): (Option<DisplayName>, ColorChoice, Control),
        ask: Ask,
        id: Option<&RequestId>,
    ) -> Result<(), ProtoError> {
        check_rated(conn, control, ask)?;
        let (burst, refill) = (self.limits.challenge_burst, self.limits.challenge_refill);
        if !member.pace.take(Instant::now(), burst, refill) {
            return Err(ProtoError::new(
                ErrorCode::ChallengesTooFast,
                format!(
                    "at most {} challenges at once, then one every {} ms",
                    self.limits.challenge_burst,
                    self.limits.challenge_refill.as_millis()
                ),
            ));
        }
        let opened = self
            .open(conn, member, (name, color, control), ask, id)
            .await;
        if opened.is_err() {
            member.pace.give_back(burst);
        }
        opened
    }

    /// Stores a new challenge (its seat token drawn now) and answers
    /// `challenge_created`.
    async fn open(
        &self,
        conn: &Conn,
        member: &Member,
        (name, color, control): (Option<DisplayName>, ColorChoice, Control),
        ask: Ask,
        id: Option<&RequestId>,
    ) -> Result<(), ProtoError> {
        let token = ids::token().map_err(|_| random_failed())?;
        // A logged-in creator's challenge is under the account's name.
        let name = conn
            .account
            .as_deref()
            .map_or(name, |o| Some(o.name.clone()));
        let challenge = Challenge {
            id: ids::game_id().map_err(|_| random_failed())?,
            name,
            color,
            clock: control.0,
            days: control.1,
            created_ms: crate::domain::time::now_ms(),
            owner: self.owner(conn),
            token: TokenHash::of(&token),
            terms: Terms {
                rated: ask.rated,
                creator: self.hub.player_for(conn, control).await?,
                range: ask.range,
            },
        };
        // Reserved before it is stored: an acceptance may be announced as
        // soon as it is, and must find its creator here.
        self.reserve(conn, member, &challenge, token)?;
        match self
            .store
            .add(challenge.clone(), self.limits.max_challenges)
            .await
        {
            Ok(true) => {
                conn.reply(
                    &Message::ChallengeCreated {
                        challenge: ChallengeView::from(&challenge),
                    },
                    id,
                );
                Ok(())
            }
            Ok(false) => {
                self.view().owned.remove(&challenge.id);
                Err(ProtoError::new(
                    ErrorCode::LobbyFull,
                    format!(
                        "the lobby holds {} open challenges; accept one or try later",
                        self.limits.max_challenges
                    ),
                ))
            }
            Err(e) => {
                self.view().owned.remove(&challenge.id);
                Err(storage(&e))
            }
        }
    }

    /// Counts `conn`'s and its address's open challenges against the caps
    /// and, under the same lock, keeps the new one as this server's.
    fn reserve(
        &self,
        conn: &Conn,
        member: &Member,
        challenge: &Challenge,
        token: String,
    ) -> Result<(), ProtoError> {
        let mut view = self.view();
        let mine = view.owned.values().filter(|o| o.conn.id == conn.id).count();
        let here = view
            .owned
            .values()
            .filter(|o| o.addr == member.addr)
            .count();
        let caps = check_caps(
            mine,
            here,
            self.limits.max_challenges_per_connection,
            self.limits.max_challenges_per_address,
        );
        let (limit, what) = match caps {
            Err(CapExceeded::PerConnection(limit)) => (limit, "connection"),
            Err(CapExceeded::PerAddress(limit)) => (limit, "address"),
            Ok(()) => {
                view.owned.insert(
                    challenge.id.clone(),
                    Owned {
                        challenge: challenge.clone(),
                        conn: conn.clone(),
                        addr: member.addr,
                        token,
                        seats: member.seats_tx.clone(),
                        cancelling: false,
                    },
                );
                return Ok(());
            }
        };
        Err(ProtoError::new(
            ErrorCode::TooManyChallenges,
            format!("at most {limit} open challenges per {what}; cancel one first"),
        ))
    }

    /// `challenge_cancel`: only the creator's connection cancels.
    async fn cancel(
        &self,
        conn: &Conn,
        challenge: &str,
        id: Option<&RequestId>,
    ) -> Result<(), ProtoError> {
        let set_cancelling = |on: bool| {
            let mut view = self.view();
            let owned = view.owned.get_mut(challenge);
            match owned.filter(|o| o.conn.id == conn.id) {
                Some(o) => {
                    o.cancelling = on;
                    true
                }
                None => false,
            }
        };
        if !set_cancelling(true) {
            return Err(not_found(challenge));
        }
        let cancelled = self.store.cancel(challenge, &self.owner(conn)).await;
        if !matches!(cancelled, Ok(true)) {
            set_cancelling(false);
            // Claimed meanwhile (the game is on its way), or not stored.
            return Err(match cancelled {
                Err(e) => storage(&e),
                Ok(_) => not_found(challenge),
            });
        }
        self.view().owned.remove(challenge);
        conn.reply(
            &Message::ChallengeCancelled {
                challenge: challenge.to_string(),
            },
            id,
        );
        Ok(())
    }

    /// `challenge_accept`: claims the challenge and starts its game.
    async fn accept(
        &self,
        conn: &Conn,
        following: &mut Following,
        challenge: &str,
        name: Option<DisplayName>,
        id: Option<&RequestId>,
    ) -> Result<(), ProtoError> {
        if !ids::is_game_id(challenge) {
            return Err(not_found(challenge));
        }
        let mine = self
            .view()
            .owned
            .get(challenge)
            .is_some_and(|o| o.conn.id == conn.id);
        if mine {
            return Err(ProtoError::new(
                ErrorCode::OwnChallenge,
                "this is your own challenge: wait for someone to accept it, or cancel it",
            )
            .given(challenge));
        }
        room_to_follow(following)?;
        let claimed = self
            .store
            .claim(challenge)
            .await
            .map_err(|e| storage(&e))?
            .ok_or_else(|| not_found(challenge))?;
        let player = match self
            .hub
            .player_for(conn, (claimed.clock, claimed.days))
            .await
        {
            Ok(player) => player,
            Err(e) => return self.put_back(&claimed.id, e).await,
        };
        if let Err(mismatch) = may_take(&claimed, player.as_ref(), None) {
            return self.put_back(&claimed.id, refusal(mismatch)).await;
        }
        self.start_game(conn, following, &claimed, name, id).await
    }

    /// Starts the game of a claimed challenge, or puts it back.
    async fn start_game(
        &self,
        conn: &Conn,
        following: &mut Following,
        challenge: &Challenge,
        accepter: Option<DisplayName>,
        id: Option<&RequestId>,
    ) -> Result<(), ProtoError> {
        match self
            .hub
            .start_challenge(conn, following, challenge, accepter, id)
            .await
        {
            Ok(game) => {
                self.announce_accepted(&challenge.id, &game).await;
                Ok(())
            }
            Err(e) => {
                if let Err(store) = self.store.release(&challenge.id).await {
                    tracing::warn!(error = %store, "a claimed challenge was not put back");
                }
                Err(e)
            }
        }
    }

    /// Puts a claimed challenge back on the list, and refuses with `why`.
    async fn put_back(&self, challenge: &str, why: ProtoError) -> Result<(), ProtoError> {
        if let Err(store) = self.store.release(challenge).await {
            tracing::warn!(error = %store, "a claimed challenge was not put back");
        }
        Err(why)
    }

    /// Announces that `challenge` became `game` (the game is stored): tries
    /// a few times, since its creator hears of its seat only so.
    async fn announce_accepted(&self, challenge: &str, game: &str) {
        for attempt in 0..3u32 {
            match self.store.accepted(challenge, game).await {
                Ok(()) => return,
                Err(e) => {
                    tracing::warn!(%game, error = %e, attempt, "an accepted challenge was not announced");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }

    /// `lobby_seek`: quick pairing (see the module's policy).
    async fn seek(
        &self,
        conn: &Conn,
        member: &mut Member,
        following: &mut Following,
        (name, control): (Option<DisplayName>, Control),
        ask: Ask,
        id: Option<&RequestId>,
    ) -> Result<(), ProtoError> {
        check_rated(conn, control, ask)?;
        let already = self
            .view()
            .owned
            .values()
            .find(|o| {
                let c = &o.challenge;
                o.conn.id == conn.id && (c.clock, c.days) == control && c.terms.rated == ask.rated
            })
            .map(|o| ChallengeView::from(&o.challenge));
        if let Some(challenge) = already {
            conn.reply(&Message::ChallengeCreated { challenge }, id);
            return Ok(());
        }
        room_to_follow(following)?;
        // The store's list, not this server's view: a challenge made a
        // moment ago on another server is announced here a moment later.
        let me = self.owner(conn);
        let open = self.store.list().await.map_err(|e| storage(&e))?;
        let player = self.hub.player_for(conn, control).await?;
        let seeking = Seeking {
            control,
            rated: ask.rated,
            player: player.as_ref(),
            range: ask.range,
        };
        let candidates = seek_candidates(&open, &seeking, &me);
        for candidate in candidates {
            let claimed = self
                .store
                .claim(&candidate)
                .await
                .map_err(|e| storage(&e))?;
            if let Some(claimed) = claimed {
                return self
                    .start_game(conn, following, &claimed, name.clone(), id)
                    .await;
            }
        }
        self.create(conn, member, (name, ColorChoice::Random, control), ask, id)
            .await
    }

    /// Applies one announcement to the view.
    fn apply(&self, event: LobbyEvent) {
        let mut view = self.view();
        match event {
            LobbyEvent::Added(challenge) => view.show(challenge),
            LobbyEvent::Taken(id) => view.hide(&id),
            LobbyEvent::Removed(id) => {
                view.hide(&id);
                if let Some(owned) = view.owned.remove(&id) {
                    // Its creator hears of it even when not watching
                    // (unless it is the creator's own cancel, answered so).
                    if !owned.cancelling && !view.watchers.contains_key(&owned.conn.id) {
                        owned
                            .conn
                            .reply(&Message::ChallengeRemoved { challenge: id }, None);
                    }
                }
            }
            LobbyEvent::Accepted { challenge, game } => {
                view.hide(&challenge);
                if let Some(owned) = view.owned.remove(&challenge) {
                    let seat = Seat {
                        challenge,
                        game,
                        token: owned.token,
                    };
                    if owned.seats.try_send(seat).is_err() {
                        tracing::warn!("an accepted challenge's creator has gone");
                    }
                }
            }
            LobbyEvent::Resync => {}
        }
    }

    /// Reads the list again and tells the watchers what changed.
    async fn resync(&self) -> Result<(), StoreError> {
        let list = self.store.list().await?;
        let mut view = self.view();
        let fresh: HashMap<String, Challenge> =
            list.into_iter().map(|c| (c.id.clone(), c)).collect();
        let gone: Vec<String> = view
            .open
            .keys()
            .filter(|id| !fresh.contains_key(*id))
            .cloned()
            .collect();
        for id in gone {
            view.hide(&id);
        }
        for challenge in fresh.into_values() {
            view.show(challenge);
        }
        Ok(())
    }
}

/// Applies the store's announcements to the lobby's view, until the lobby
/// is gone; after missed announcements, reads the list again.
async fn follow_events(lobby: Weak<Lobby>, mut events: broadcast::Receiver<LobbyEvent>) {
    use broadcast::error::RecvError;
    loop {
        let event = events.recv().await;
        let Some(lobby) = lobby.upgrade() else {
            return;
        };
        match event {
            Ok(LobbyEvent::Resync) | Err(RecvError::Lagged(_)) => {
                if let Err(e) = lobby.resync().await {
                    tracing::warn!(error = %e, "the lobby could not be read again");
                }
            }
            Ok(event) => lobby.apply(event),
            Err(RecvError::Closed) => return,
        }
    }
}

/// Marks this server's challenges alive every quarter of
/// `challenge_stale_after` and removes those of servers that stopped.
async fn heartbeat(lobby: Weak<Lobby>) {
    loop {
        let (period, stale) = match lobby.upgrade() {
            Some(lobby) => {
                let stale = lobby.limits.challenge_stale_after;
                (stale / 4, stale)
            }
            None => return,
        };
        tokio::time::sleep(period.max(Duration::from_millis(10))).await;
        let Some(lobby) = lobby.upgrade() else {
            return;
        };
        let stale_ms = u64::try_from(stale.as_millis()).unwrap_or(u64::MAX);
        if let Err(e) = lobby
            .store
            .heartbeat(crate::domain::time::now_ms(), stale_ms)
            .await
        {
            tracing::warn!(error = %e, "the lobby's heartbeat was not stored");
        }
    }
}
