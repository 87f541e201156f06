//! The catch-up from the end of a stored game (`room/tail.rs`,
//! `games/catch_up.rs`), on SQLite and on PostgreSQL
//! (`HOSTAGE_TEST_PG_URL`, set by `scripts/test-postgres`): over random
//! games played by two rooms of one stored game, each acting on the store
//! in turn and reading it again now and then (moves, chat, draw offers and
//! their answers, takeback requests, their answers and acceptances with new
//! moves played at the plies taken back, resignations, flags, rematches),
//! a room brought up to date from the end of the stored game is exactly the
//! room the whole stored game restores to; the end is used whenever no
//! takeback was accepted since the room's last read or write, never when
//! one was. A move as announced (`AnnouncedMove`) played by a room just
//! before it gives the same room too, and a room at another ply or mark of
//! takebacks refuses it.

#[path = "support/server.rs"]
mod server;

use std::time::{Duration, Instant};

use hostage_core::{uci::UciMove, Color};
use hostage_server::{
    domain::event::Event,
    domain::names::DisplayName,
    domain::room::{Change, MoveOutcome, Room},
    domain::{ClockSpec, TokenHash},
    store::persist::write_for,
    store::postgres::PostgresStore,
    store::sqlite::SqliteStore,
    store::{AnnouncedMove, Store, Write},
};
use server::fresh_database;

const W: &str = "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww";
const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

fn token(side: Color) -> Option<&'static str> {
    Some(match side {
        Color::White => W,
        Color::Black => B,
    })
}

/// A small deterministic generator (xorshift64*): the same games each run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }

    fn side(&mut self) -> Color {
        Color::from_white(self.below(2) == 0)
    }
}

/// What the reads saw, to show that every case was met.
#[derive(Default, Debug)]
struct Seen {
    /// Reads brought up to date from the end of the stored game.
    from_end: usize,
    /// Reads that had to restore the whole game (a takeback since).
    whole: usize,
    /// Of those, reads where the stored game had at least as many moves as
    /// the room: moves taken back and played again at the same plies.
    replayed: usize,
    /// Reads from the end that brought new moves, and new chat lines.
    new_moves: usize,
    new_lines: usize,
    /// Announced moves played by a room just before them, and refused by
    /// a room at another ply or mark of takebacks.
    announced: usize,
    announced_refused: usize,
}

/// Everything a room shows, compared between the two ways of reading.
fn assert_same(caught_up: &Room, whole: &Room, now: Instant, context: &str) {
    let later = now + Duration::from_secs(7);
    assert_eq!(
        caught_up.game().position().fen(),
        whole.game().position().fen(),
        "{context}"
    );
    assert_eq!(caught_up.game().moves(), whole.game().moves(), "{context}");
    assert_eq!(caught_up.clocks_at(now), whole.clocks_at(now), "{context}");
    assert_eq!(
        caught_up.clocks_at(later),
        whole.clocks_at(later),
        "{context}"
    );
    assert_eq!(caught_up.deadline(), whole.deadline(), "{context}");
    assert_eq!(caught_up.end(), whole.end(), "{context}");
    assert_eq!(caught_up.status(), whole.status(), "{context}");
    assert_eq!(caught_up.chat_lines(), whole.chat_lines(), "{context}");
    assert_eq!(caught_up.draw_offer(), whole.draw_offer(), "{context}");
    assert_eq!(caught_up.takeback(), whole.takeback(), "{context}");
    assert_eq!(caught_up.takebacks(), whole.takebacks(), "{context}");
    assert_eq!(caught_up.seats_taken(), whole.seats_taken(), "{context}");
    for side in Color::ALL {
        assert_eq!(caught_up.name(side), whole.name(side), "{context}");
    }
    assert_eq!(caught_up.rematch(), whole.rematch(), "{context}");
    assert_eq!(caught_up.pgn(), whole.pgn(), "{context}");
    // And what no accessor shows (the core's repetition counts, the
    // clock's running side and start): the whole state, field by field.
    assert_eq!(format!("{caught_up:?}"), format!("{whole:?}"), "{context}");
}

/// Reads the game again for `room`, both ways, checks they agree, and
/// makes `room` the game as stored. `mark` is the takebacks the room knows
/// of, as the test counted them (the store's at the room's last read, and
/// the room's own acceptances since); it becomes the store's.
async fn read_again(
    store: &dyn Store,
    room: &mut Room,
    mark: &mut u64,
    now: Instant,
    seen: &mut Seen,
    ctx: &str,
) {
    assert_eq!(room.takebacks(), *mark, "{ctx}: the room's mark");
    let id = room.id().to_string();
    let (from_ply, from_chat) = room.tail_from();
    let tail = store
        .load_since(&id, from_ply, from_chat)
        .await
        .expect("read the end")
        .expect("the game");
    let stored = store.load(&id).await.expect("read").expect("the game");
    let taken_back = stored.takebacks != *mark;
    *mark = stored.takebacks;
    let more_moves = stored.moves.len() > room.game().ply();
    let more_lines = stored.chat.len() > room.chat_lines().len();
    let replayed = stored.moves.len() >= room.game().ply();
    let whole = Room::restore(stored, now).expect("the stored game replays");
    match room.restore_tail(tail, now) {
        Some(caught_up) => {
            assert!(!taken_back, "{ctx}: the end was used after a takeback");
            assert_same(&caught_up, &whole, now, ctx);
            seen.from_end += 1;
            seen.new_moves += usize::from(more_moves);
            seen.new_lines += usize::from(more_lines);
        }
        None => {
            assert!(
                taken_back,
                "{ctx}: the end was not used, and no takeback came"
            );
            seen.whole += 1;
            seen.replayed += usize::from(replayed);
        }
    }
    *room = whole;
}

/// One random action of a player of `room`, if it was not refused.
fn act(room: &mut Room, rng: &mut Rng, now: Instant, now_ms: u64, step: usize) -> Option<Change> {
    let side = rng.side();
    // An answer comes mostly from the side that may give it.
    let answerer = |standing: Option<Color>, rng: &mut Rng| match standing {
        Some(by) if rng.below(5) != 0 => by.other(),
        _ => side,
    };
    // A standing takeback request is often answered next, before a move
    // withdraws it: so that moves are taken back often.
    let roll = if room.takeback().is_some() && rng.below(2) == 0 {
        80
    } else {
        rng.below(100)
    };
    let result = match roll {
        0..=49 => {
            let turn = room.turn();
            let moves = room.game().position().legal_moves();
            let m = moves.get(rng.below(moves.len().max(1) as u64) as usize)?;
            let uci = UciMove::from_move(m).to_string();
            let ply = room.game().ply() as u64;
            match room.play(token(turn), &uci, ply, now) {
                Ok(MoveOutcome::Played(c) | MoveOutcome::Flagged(c)) => Ok(c),
                Ok(_) => return None,
                Err(e) => Err(e),
            }
        }
        50..=57 => room.offer_draw(token(side), now),
        58..=65 => {
            let by = answerer(room.draw_offer(), rng);
            room.answer_draw(token(by), rng.below(3) == 0, now)
        }
        66..=75 => room.propose_takeback(token(side), now),
        76..=87 => {
            let by = answerer(room.takeback(), rng);
            room.answer_takeback(token(by), rng.below(5) != 0, now)
        }
        88..=94 => room.post_chat(token(side), &format!("line {step}"), now_ms),
        // The game ends only late, by resignation or an hour's wait, so
        // that most of it is played.
        95..=96 if step > 120 => room.resign(token(side), now),
        97..=98 if step > 120 => return room.check_deadline(now + Duration::from_secs(3600)),
        95..=98 => return None,
        _ => {
            if room.end().is_none() || room.rematch().is_some() {
                return None;
            }
            let id = format!("{}r", room.id());
            let (_, new) = Room::create(id, 2, None, side, TokenHash::of(W));
            return Some(room.link_rematch(new));
        }
    };
    result.ok()
}

/// Plays `games` random games on `store`, checking every read.
async fn random_games(store: &dyn Store, games: u64) -> Seen {
    let mut seen = Seen::default();
    for seed in 1..=games {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let id = format!("game{seed}");
        // Untimed, short (a flag falls within the game) and long clocks.
        let clock = match seed % 4 {
            0 => None,
            1 => Some(ClockSpec {
                initial_ms: 40_000,
                increment_ms: 0,
            }),
            _ => Some(ClockSpec {
                initial_ms: 600_000 + seed * 1_000,
                increment_ms: 2_000,
            }),
        };
        let mut now = Instant::now();
        let mut now_ms = 1_000_000;
        let name = DisplayName::parse("Ada").ok();
        let (mut first, new) =
            Room::create_named(id.clone(), 1, clock, Color::White, TokenHash::of(W), name);
        store.write(Write::CreateGame(new)).await.expect("create");
        let (_, change) = first
            .join_named(None, TokenHash::of(B), DisplayName::parse("Bo").ok(), now)
            .expect("join");
        store
            .write(write_for(&change.event).expect("a write"))
            .await
            .expect("seat");
        let stored = store.load(&id).await.expect("read").expect("game");
        let mut marks = [0, 0];
        let mut rooms = [
            Room::restore(stored.clone(), now).expect("replays"),
            Room::restore(stored, now).expect("replays"),
        ];
        for step in 0..150 {
            now += Duration::from_millis(rng.below(2_500));
            now_ms += 500 + rng.below(30_000);
            let actor = rng.below(2) as usize;
            let ctx = format!("game {seed}, step {step}");
            // The other room reads now and then: it falls behind between.
            let other_fresh = rng.below(6) == 0;
            if other_fresh {
                let other = 1 - actor;
                read_again(
                    store,
                    &mut rooms[other],
                    &mut marks[other],
                    now,
                    &mut seen,
                    &ctx,
                )
                .await;
            }
            // A room acts on the game as stored, as the game service does
            // after a catch-up.
            let room = &mut rooms[actor];
            read_again(store, room, &mut marks[actor], now, &mut seen, &ctx).await;
            let Some(change) = act(room, &mut rng, now, now_ms, step) else {
                continue;
            };
            if let Some(write) = write_for(&change.event) {
                store
                    .write(write.clone())
                    .await
                    .unwrap_or_else(|e| panic!("{ctx}: {:?} refused: {e}", change.event));
                // The move as announced, to the other room: played as the
                // store has it when the room was just before it, refused
                // when the room is at another ply or mark.
                if let Some(announced) = AnnouncedMove::of(&write, marks[actor]) {
                    let other = &rooms[1 - actor];
                    let played = other.play_announced(&announced, now);
                    if other_fresh {
                        let stored = store.load(&id).await.expect("read").expect("game");
                        let whole = Room::restore(stored, now).expect("replays");
                        let played = played.unwrap_or_else(|| {
                            panic!("{ctx}: a room just before the move did not play it")
                        });
                        assert_same(&played, &whole, now, &format!("{ctx}, announced"));
                        seen.announced += 1;
                    } else if other.game().ply() as u64 != announced.ply
                        || other.takebacks() != announced.takebacks
                    {
                        assert!(played.is_none(), "{ctx}: played at another ply or mark");
                        seen.announced_refused += 1;
                    }
                }
            }
            if matches!(change.event, Event::TakenBack { .. }) {
                marks[actor] += 1;
            }
        }
        // Both rooms read once more: the last changes, both ways.
        for (room, mark) in rooms.iter_mut().zip(&mut marks) {
            read_again(
                store,
                room,
                mark,
                now,
                &mut seen,
                &format!("game {seed}, end"),
            )
            .await;
        }
    }
    seen
}

/// Every case must have been met, or the test proved less than it says.
fn assert_every_case(seen: &Seen) {
    eprintln!("{seen:?}");
    assert!(seen.from_end > 500, "{seen:?}");
    assert!(seen.announced > 100, "{seen:?}");
    assert!(seen.announced_refused > 100, "{seen:?}");
    assert!(seen.new_moves > 100, "{seen:?}");
    assert!(seen.new_lines > 10, "{seen:?}");
    assert!(seen.whole > 50, "{seen:?}");
    assert!(seen.replayed > 10, "{seen:?}");
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

#[test]
fn sqlite_a_room_caught_up_from_the_end_is_the_whole_game_restored() {
    let dir = std::env::temp_dir().join(format!("hostage-catch-up-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = SqliteStore::open(&dir.join("games.db")).expect("open");
    let seen = runtime().block_on(random_games(&store, 40));
    assert_every_case(&seen);
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn postgresql_a_room_caught_up_from_the_end_is_the_whole_game_restored() {
    let Some(url) = fresh_database("catch_up_end") else {
        return;
    };
    runtime().block_on(async {
        let store = PostgresStore::open(&url).await.expect("open");
        let seen = random_games(&*store, 40).await;
        assert_every_case(&seen);
    });
}
