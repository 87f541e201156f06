//! Group commit for the PostgreSQL store: many writes, one transaction, one
//! commit.
//!
//! Policy:
//! - [`Group::write`] queues the write and waits for its own answer, which
//!   comes only after the transaction holding it has committed
//!   (`synchronous_commit = on`): nothing is acknowledged before it is
//!   durable;
//! - [`WRITERS`] writer tasks, each with a connection of its own, take every
//!   write waiting (up to [`MAX_GROUP`]) and store them in one transaction:
//!   while one commits, the next group gathers. Alone, a write gets its own
//!   commit; under load, hundreds share one;
//! - a group is applied in the order of its games' ids, so every group (of
//!   any instance) locks the games' rows in one order and two groups never
//!   wait for each other crosswise; a server has at most one write of a
//!   game waiting (it holds the game's lock meanwhile), so the order of a
//!   group's writes is free;
//! - a move (nearly every write) is two prepared statements that never fail
//!   on a false condition: the game's row is locked, then one statement
//!   checks the conditions of `store/mod.rs` on what was committed before the
//!   lock (the ply counted, an unfinished game, both seats), stores the
//!   move, and says what it found. The moves of a group are sent one after
//!   another without waiting for answers (pipelined), so a group of moves
//!   costs three round trips: `BEGIN`, the statements, `COMMIT`;
//! - a new game and a seat taken are one prepared statement each that
//!   never fails on a false condition either (a game id already stored
//!   inserts nothing, a taken seat updates nothing), pipelined with the
//!   moves: a burst of games created and joined costs the same three round
//!   trips, where a savepoint each cost four;
//! - any other write (several statements, or one that can fail) runs in a
//!   savepoint of its own: a write whose condition fails (or whose
//!   statement fails) is rolled back alone and the others go on;
//! - the writes a group stored are announced (`NOTIFY`, a move with its
//!   record: `payload.rs`) after its commit and before any of them is
//!   acknowledged, in one statement on a second connection of the writer
//!   with `synchronous_commit = off`.
//!   PostgreSQL serializes the commits of transactions that notify under
//!   one lock, held until the commit is flushed to disk: with the
//!   notification inside the group's transaction, no two groups (of any
//!   writer, of any instance) could share a flush, and two instances
//!   carried fewer moves than one. A notification is not durable anyway
//!   (a listener that loses its connection reads every game again), so
//!   its transaction need not wait for the disk. If the announcement
//!   cannot be sent (or the server stops between the commit and it), the
//!   other instances still read the game when a follower arrives there,
//!   when they try to change it, and when it has been quiet for a
//!   presence period (`games.rs`);
//! - if the group's transaction itself fails before its `COMMIT` (a lost
//!   connection, a statement failing outside a savepoint), nothing of it
//!   was committed: its writes are stored again one by one, each in its own
//!   transaction, on a new connection. If the `COMMIT` fails, its
//!   outcome is unknown: every write of the group fails (`Backend`), none is
//!   acknowledged, and the game service decides again on the game read
//!   afresh.

use std::{
    future::Future,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
};

use hostage_core::ByColor;
use tokio::sync::{mpsc, oneshot, Mutex};
use tokio_postgres::{types::Type, Client, Row, Statement, Transaction};

use super::{
    apply, backend, connect, payload::payload, GameRow, SeatRow, CHANNEL, INSERT_GAME, TAKE_SEAT,
};
use crate::{
    store::columns::{clock_params, end_params, int, uint},
    store::{AnnouncedMove, StoreError, Write},
};

/// The most writes committed in one transaction.
pub const MAX_GROUP: usize = 256;

/// Writer tasks (and connections) of one store: while one group commits,
/// the next one is applied.
pub const WRITERS: usize = 2;

/// Locks a game's row (every write of a game locks it first, so the
/// statement after this one sees every change committed to the game).
const LOCK: &str = "SELECT 1 FROM games WHERE id = $1 FOR UPDATE";

/// A move, stored only at the next ply of an unfinished game with both
/// seats taken; says how many moves it stored (none or one), how many the
/// game had, and its mark of takebacks if stored (for the announcement).
/// Run after [`LOCK`]: its snapshot then has every move committed to the
/// game. The moves a game has are counted as its last ply + 1
/// ([`super::PLIES`]).
pub(super) const PLAY: &str = concat!(
    "\nWITH seen(plies) AS (",
    super::plies_sql!(),
    "),\nplayed AS (
    UPDATE games SET white_ms = coalesce($2, white_ms), black_ms = coalesce($3, black_ms),
        draw_offer = NULL, takeback = NULL, termination = $4, winner = $5, updated_ms = $6,
        version = version + 1, deadline_ms = coalesce($9, deadline_ms)
    WHERE id = $1 AND termination IS NULL
      AND white_token IS NOT NULL AND black_token IS NOT NULL
      AND (SELECT plies FROM seen) = $7
    RETURNING id, takebacks
),
stored AS (
    INSERT INTO moves (game, ply, uci, white_ms, black_ms, at_ms, deadline_ms)
    SELECT id, $7, $8, $2, $3, $6, $9 FROM played
    RETURNING game
)
SELECT (SELECT count(*) FROM stored), (SELECT plies FROM seen), (SELECT takebacks FROM played)"
);

/// The parameter types of [`PLAY`].
pub(super) const PLAY_TYPES: [Type; 9] = [
    Type::TEXT,
    Type::INT8,
    Type::INT8,
    Type::TEXT,
    Type::TEXT,
    Type::INT8,
    Type::INT8,
    Type::TEXT,
    Type::INT8,
];

/// Announces changed games: one notification per payload (`payload.rs`),
/// sent when the statement's own transaction commits.
const TELL: &str = "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p";

/// A write waiting, and where its answer goes.
type Job = (Write, oneshot::Sender<Result<(), StoreError>>);

/// A writing connection with its prepared statements, and the connection
/// that announces what it committed.
pub(super) struct Writer {
    pub(super) client: Client,
    statements: Statements,
    teller: Teller,
}

/// The writer's prepared statements of the pipelined writes.
struct Statements {
    lock: Statement,
    play: Statement,
    create: Statement,
    /// [`TAKE_SEAT`], each side's.
    seat: ByColor<Statement>,
}

impl Statements {
    async fn prepare(client: &Client) -> Result<Statements, tokio_postgres::Error> {
        Ok(Statements {
            lock: client.prepare_typed(LOCK, &[Type::TEXT]).await?,
            play: client.prepare_typed(PLAY, &PLAY_TYPES).await?,
            create: client.prepare(INSERT_GAME).await?,
            seat: ByColor::new(
                client.prepare(TAKE_SEAT.white).await?,
                client.prepare(TAKE_SEAT.black).await?,
            ),
        })
    }
}

impl Writer {
    async fn connect(url: &str) -> Result<Writer, StoreError> {
        let client = connect(url).await?;
        let statements = Statements::prepare(&client)
            .await
            .map_err(|e| backend(&e))?;
        let teller = Teller::connect(url).await?;
        Ok(Writer {
            client,
            statements,
            teller,
        })
    }

    /// Whether either connection was lost.
    fn is_closed(&self) -> bool {
        self.client.is_closed() || self.teller.client.is_closed()
    }
}

/// The connection that sends a writer's notifications, each statement a
/// transaction of its own that does not wait for the disk (see the module
/// documentation).
pub(super) struct Teller {
    client: Client,
    tell: Statement,
}

impl Teller {
    async fn connect(url: &str) -> Result<Teller, StoreError> {
        let client = connect(url).await?;
        client
            .batch_execute("SET synchronous_commit = off")
            .await
            .map_err(|e| backend(&e))?;
        let tell = client
            .prepare_typed(TELL, &[Type::TEXT, Type::TEXT_ARRAY])
            .await
            .map_err(|e| backend(&e))?;
        Ok(Teller { client, tell })
    }
}

/// What a writer task needs besides its connection.
struct Shared {
    url: String,
    /// The store's mark in its notifications (`mod.rs`).
    origin: String,
    jobs: Mutex<mpsc::UnboundedReceiver<Job>>,
}

/// The queue of writes and the writer tasks that commit them in groups.
/// The tasks end when the `Group` is dropped.
pub(super) struct Group {
    jobs: mpsc::UnboundedSender<Job>,
    /// Each writer task's connection (reconnected when lost), for the
    /// unit tests to look at.
    #[cfg(test)]
    pub(super) writers: Arc<Vec<Mutex<Option<Writer>>>>,
}

impl Group {
    /// Connects the writers to `url` and starts their tasks.
    pub(super) async fn start(url: &str, origin: &str) -> Result<Group, StoreError> {
        let mut slots = Vec::with_capacity(WRITERS);
        for _ in 0..WRITERS {
            slots.push(Mutex::new(Some(Writer::connect(url).await?)));
        }
        let writers = Arc::new(slots);
        let (jobs, queue) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            url: url.to_string(),
            origin: origin.to_string(),
            jobs: Mutex::new(queue),
        });
        for i in 0..WRITERS {
            tokio::spawn(write_loop(Arc::clone(&shared), Arc::clone(&writers), i));
        }
        Ok(Group {
            jobs,
            #[cfg(test)]
            writers,
        })
    }

    /// Stores `write` with whatever else is waiting; returns once the
    /// transaction holding it has committed (or with why it was not stored).
    pub(super) async fn write(&self, write: Write) -> Result<(), StoreError> {
        let stopped = || StoreError::Backend("the PostgreSQL writers have stopped".into());
        let (reply, answer) = oneshot::channel();
        self.jobs.send((write, reply)).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

/// One writer task: takes the writes waiting, commits them, answers each;
/// ends when the queue is closed.
async fn write_loop(shared: Arc<Shared>, writers: Arc<Vec<Mutex<Option<Writer>>>>, i: usize) {
    let Some(slot) = writers.get(i) else {
        return;
    };
    loop {
        let jobs = {
            let mut queue = shared.jobs.lock().await;
            let Some(first) = queue.recv().await else {
                return;
            };
            let mut jobs = vec![first];
            while jobs.len() < MAX_GROUP {
                match queue.try_recv() {
                    Ok(job) => jobs.push(job),
                    Err(_) => break,
                }
            }
            jobs
        };
        let mut writer = slot.lock().await;
        commit_group(&shared, &mut writer, jobs).await;
    }
}

/// Answers a job (its caller may have gone, its connection closed:
/// nothing to tell then).
fn answer((_, reply): Job, result: Result<(), StoreError>) {
    let _ = reply.send(result);
}

/// How a group's transaction failed.
enum Failed {
    /// Before its `COMMIT`: nothing of it was stored.
    Uncommitted(StoreError),
    /// At its `COMMIT`: it may or may not have been stored.
    Unknown(StoreError),
}

fn uncommitted(e: &tokio_postgres::Error) -> Failed {
    Failed::Uncommitted(backend(e))
}

/// The writer's connection, reconnected if it was lost.
async fn ready<'w>(
    shared: &Shared,
    writer: &'w mut Option<Writer>,
) -> Result<&'w mut Writer, StoreError> {
    if writer.as_ref().is_none_or(Writer::is_closed) {
        *writer = None;
        *writer = Some(Writer::connect(&shared.url).await?);
    }
    writer
        .as_mut()
        .ok_or_else(|| StoreError::Backend("no connection".into()))
}

/// Stores `jobs` in one transaction and answers them after its commit;
/// if the transaction fails before its commit, stores them one by one and
/// answers each after its own.
async fn commit_group(shared: &Shared, writer: &mut Option<Writer>, jobs: Vec<Job>) {
    let writes: Vec<&Write> = jobs.iter().map(|(w, _)| w).collect();
    let failed = match ready(shared, writer).await {
        Err(e) => Failed::Unknown(e),
        Ok(w) => match in_one_transaction(w, &writes).await {
            Ok(results) => {
                let stored = writes
                    .iter()
                    .zip(&results)
                    .filter_map(|(&w, r)| r.as_ref().ok().map(|mark| (w, *mark)));
                announce(shared, w, stored).await;
                jobs.into_iter()
                    .zip(results)
                    .for_each(|(j, r)| answer(j, r.map(|_| ())));
                return;
            }
            Err(failed) => failed,
        },
    };
    match failed {
        Failed::Unknown(e) => {
            tracing::warn!(error = %e, writes = jobs.len(), "PostgreSQL group commit failed");
            jobs.into_iter().for_each(|j| answer(j, Err(e.clone())));
        }
        Failed::Uncommitted(e) => {
            tracing::warn!(error = %e, writes = jobs.len(), "PostgreSQL group not stored; storing its writes one by one");
            // The connection may be the cause (lost, or not yet known to
            // be): the writes go on a new one.
            *writer = None;
            for job in jobs {
                let result = match ready(shared, writer).await {
                    Ok(w) => {
                        let result = alone(&mut w.client, &job.0).await;
                        if result.is_ok() {
                            // Announced as a change of the game (read from
                            // the store): the mark is not known here.
                            announce(shared, w, [(&job.0, None)]).await;
                        }
                        result
                    }
                    Err(e) => Err(e),
                };
                answer(job, result);
            }
        }
    }
}

/// What a write of a group came to: stored (with the game's mark of
/// takebacks, for a move) or refused.
type Outcome = Result<Option<u64>, StoreError>;

/// The group in one transaction, in the order of its games: runs of
/// moves, new games and seats pipelined, any other write in a savepoint.
async fn in_one_transaction(
    writer: &mut Writer,
    writes: &[&Write],
) -> Result<Vec<Outcome>, Failed> {
    let mut order: Vec<usize> = (0..writes.len()).collect();
    order.sort_by(|&a, &b| writes[a].game().cmp(writes[b].game()));
    let Writer {
        client, statements, ..
    } = writer;
    let now = int(crate::domain::time::now_ms());
    let tx = client.transaction().await.map_err(|e| uncommitted(&e))?;
    let mut results: Vec<Option<Outcome>> = vec![None; writes.len()];
    let mut run = Vec::new();
    for &i in &order {
        if let Some(piped) = Piped::of(writes[i], now) {
            run.push((i, piped));
            continue;
        }
        pipelined(&tx, statements, &run, &mut results).await?;
        run.clear();
        results[i] = Some(in_savepoint(&tx, writes[i]).await?.map(|()| None));
    }
    pipelined(&tx, statements, &run, &mut results).await?;
    tx.commit()
        .await
        .map_err(|e| Failed::Unknown(backend(&e)))?;
    Ok(results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(StoreError::Backend("a write was skipped".into()))))
        .collect())
}

/// One write that is not pipelined, in a savepoint: rolled back alone if
/// it fails.
async fn in_savepoint(
    tx: &Transaction<'_>,
    write: &Write,
) -> Result<Result<(), StoreError>, Failed> {
    tx.batch_execute("SAVEPOINT w")
        .await
        .map_err(|e| uncommitted(&e))?;
    let result = apply(tx, write).await;
    let end = if result.is_ok() {
        "RELEASE w"
    } else {
        "ROLLBACK TO w; RELEASE w"
    };
    tx.batch_execute(end).await.map_err(|e| uncommitted(&e))?;
    Ok(result)
}

/// Announces the writes a writer has just committed, each with the game's
/// mark of takebacks if known (a move's announcement then carries its
/// record), before they are acknowledged: on its teller, reconnected once
/// if that fails. An announcement that cannot be sent is logged and the
/// writes are still acknowledged (they are stored); the other instances
/// then read the games by the other ways the module documentation lists.
async fn announce<'w>(
    shared: &Shared,
    writer: &mut Writer,
    stored: impl IntoIterator<Item = (&'w Write, Option<u64>)>,
) {
    let payloads: Vec<String> = stored
        .into_iter()
        .map(|(write, mark)| {
            let announced = mark.and_then(|mark| AnnouncedMove::of(write, mark));
            payload(write.game(), &shared.origin, announced.as_ref())
        })
        .collect();
    if payloads.is_empty() {
        return;
    }
    for attempt in 0..2 {
        if attempt > 0 {
            match Teller::connect(&shared.url).await {
                Ok(teller) => writer.teller = teller,
                Err(e) => {
                    tracing::warn!(error = %e, "no connection to announce changes on");
                    return;
                }
            }
        }
        let teller = &writer.teller;
        match teller
            .client
            .execute(&teller.tell, &[&CHANNEL, &payloads])
            .await
        {
            Ok(_) => return,
            Err(e) => {
                tracing::warn!(error = %e, games = payloads.len(), attempt, "changes not announced");
            }
        }
    }
}

/// The parameters of one move's [`PLAY`].
struct Play<'a> {
    game: &'a String,
    ply: u64,
    uci: &'a String,
    clocks: (Option<i64>, Option<i64>),
    end: (Option<&'static str>, Option<&'static str>),
    at_ms: i64,
    deadline: Option<i64>,
}

impl<'a> Play<'a> {
    fn of(write: &'a Write) -> Option<Play<'a>> {
        let Write::Move {
            game,
            ply,
            uci,
            clocks,
            at_ms,
            end,
            deadline_ms,
        } = write
        else {
            return None;
        };
        Some(Play {
            game,
            ply: *ply,
            uci,
            clocks: clock_params(*clocks),
            end: end_params(*end),
            at_ms: int(*at_ms),
            deadline: deadline_ms.map(int),
        })
    }

    /// What [`PLAY`] answered, as the write's result: the game's mark of
    /// takebacks if it was stored.
    fn result(&self, row: &Row) -> Outcome {
        let stored: i64 = row.try_get(0).map_err(|e| backend(&e))?;
        let plies: i64 = row.try_get(1).map_err(|e| backend(&e))?;
        let mark: Option<i64> = row.try_get(2).map_err(|e| backend(&e))?;
        if stored == 1 {
            Ok(mark.map(uint))
        } else if uint(plies) != self.ply {
            Err(StoreError::Conflict(format!(
                "the game is at ply {plies}, not {}",
                self.ply
            )))
        } else {
            Err(StoreError::Conflict(
                "the game has ended or waits for a player".into(),
            ))
        }
    }
}

/// A write sent without waiting for the answers of those before it, with
/// its parameters.
enum Piped<'a> {
    Move(Play<'a>),
    Create(GameRow<'a>),
    Seat(SeatRow<'a>),
}

impl<'a> Piped<'a> {
    /// The write's pipelined form; `None` for a write that needs a
    /// savepoint.
    fn of(write: &'a Write, now: i64) -> Option<Piped<'a>> {
        match write {
            Write::Move { .. } => Play::of(write).map(Piped::Move),
            Write::CreateGame(new) => Some(Piped::Create(GameRow::of(new, now))),
            Write::TakeSeat {
                game,
                side,
                token,
                clocks,
                name,
                deadline_ms,
            } => Some(Piped::Seat(SeatRow::new(
                game,
                *side,
                token,
                (*clocks, *deadline_ms),
                name.as_ref(),
                now,
            ))),
            _ => None,
        }
    }
}

/// What one pipelined statement answered: nothing to read (a move's
/// [`LOCK`]), a row ([`PLAY`]) or a count of rows changed.
enum Answer {
    Locked,
    Row(Row),
    Count(u64),
}

type Pending<'a> = Pin<Box<dyn Future<Output = Result<Answer, tokio_postgres::Error>> + Send + 'a>>;

/// The writes of `run` (indices into the group, with their pipelined
/// forms) sent one after another before any answer is read: a move's
/// [`LOCK`] then its [`PLAY`], a game's insert, a seat's update. Each
/// answers its write's result; a statement that fails aborts the
/// transaction, and the group fails.
async fn pipelined(
    tx: &Transaction<'_>,
    statements: &Statements,
    run: &[(usize, Piped<'_>)],
    results: &mut [Option<Outcome>],
) -> Result<(), Failed> {
    if run.is_empty() {
        return Ok(());
    }
    let mut pending: Vec<Pending<'_>> = Vec::with_capacity(2 * run.len());
    for (_, piped) in run {
        match piped {
            Piped::Move(p) => {
                pending.push(Box::pin(async move {
                    tx.execute(&statements.lock, &[p.game])
                        .await
                        .map(|_| Answer::Locked)
                }));
                pending.push(Box::pin(async move {
                    let ply = int(p.ply);
                    tx.query_one(
                        &statements.play,
                        &[
                            p.game,
                            &p.clocks.0,
                            &p.clocks.1,
                            &p.end.0,
                            &p.end.1,
                            &p.at_ms,
                            &ply,
                            p.uci,
                            &p.deadline,
                        ],
                    )
                    .await
                    .map(Answer::Row)
                }));
            }
            Piped::Create(row) => pending.push(Box::pin(async move {
                tx.execute(&statements.create, &row.params())
                    .await
                    .map(Answer::Count)
            })),
            Piped::Seat(seat) => pending.push(Box::pin(async move {
                tx.execute(statements.seat.get(seat.side), &seat.params())
                    .await
                    .map(Answer::Count)
            })),
        }
    }
    let mut answers = Vec::with_capacity(run.len());
    for answer in in_order(pending).await {
        match answer.map_err(|e| uncommitted(&e))? {
            Answer::Locked => {}
            answer => answers.push(answer),
        }
    }
    for ((i, piped), answer) in run.iter().zip(answers) {
        results[*i] = Some(match (piped, answer) {
            (Piped::Move(p), Answer::Row(row)) => p.result(&row),
            (Piped::Create(row), Answer::Count(n)) => row.stored(n).map(|()| None),
            (Piped::Seat(_), Answer::Count(n)) => SeatRow::taken(n).map(|()| None),
            _ => Err(StoreError::Backend(
                "a pipelined answer out of order".into(),
            )),
        });
    }
    Ok(())
}

/// Runs `futures` to completion, polling them in their order, so that each
/// sends its statement, when first polled, in that order: the connection
/// carries them one after another without waiting for answers.
async fn in_order<T>(futures: Vec<Pin<Box<dyn Future<Output = T> + Send + '_>>>) -> Vec<T> {
    let mut slots: Vec<_> = futures.into_iter().map(|f| (f, None)).collect();
    std::future::poll_fn(|cx: &mut Context<'_>| {
        let mut pending = false;
        for (future, out) in &mut slots {
            if out.is_none() {
                match future.as_mut().poll(cx) {
                    Poll::Ready(v) => *out = Some(v),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    slots.into_iter().filter_map(|(_, out)| out).collect()
}

/// One write in a transaction of its own (after a group failed).
async fn alone(client: &mut Client, write: &Write) -> Result<(), StoreError> {
    let tx = client.transaction().await.map_err(|e| backend(&e))?;
    apply(&tx, write).await?;
    tx.commit().await.map_err(|e| backend(&e))
}
