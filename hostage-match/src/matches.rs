//! Matches between two players over an opening book, each opening played
//! with both colours, on several threads, with an optional SPRT that stops
//! the match once its verdict is clear. Each game is refereed by
//! [`crate::referee::play_game`] (endings, the clock, adjudication after
//! [`MatchConfig::max_plies`] plies, restarts, illegal moves and forfeits).
//!
//! The score ([`MatchResult::wdl`]) counts the games decided on the board
//! and the forfeited games adjudicated from both engines' scores; a
//! forfeited game the scores do not settle is kept in the record and
//! counted apart ([`MatchResult::left_out`]), so that an engine crashing in
//! lost positions neither gains nor loses by it.
//!
//! Every game is deterministic given its opening, its colours and the
//! match seed; with several threads games finish in any order, so an SPRT
//! may stop after a different number of games, but each game is the same.

use std::{
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Mutex,
    },
    time::Duration,
};

use hostage_core::{
    pgn::{NodeId, PgnGame, PgnResult},
    Game, MoveTextError,
};

use crate::{
    book::Opening,
    clock::MatchClock,
    players::Player,
    referee::{play_game, Forfeit, GameRules, Refereed, Restart},
    stats::{Sprt, Verdict, Wdl},
};

/// How a match is played.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct MatchConfig {
    /// The openings; each is played twice, the first player White once and
    /// Black once.
    pub openings: Vec<Opening>,
    /// Stop after this many games at most (all openings twice if `None`).
    pub max_games: Option<usize>,
    /// Adjudicate a draw after this many plies (opening included).
    pub max_plies: usize,
    /// Games played at once.
    pub threads: usize,
    /// The match seed (each game derives its own from it).
    pub seed: u64,
    /// Stop early when this SPRT decides.
    pub sprt: Option<Sprt>,
    /// Play on this clock (`None`: each player's own budget).
    pub clock: Option<MatchClock>,
    /// How far below zero a clock may fall before its side loses on time.
    pub time_margin: Duration,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            openings: vec![Opening { moves: Vec::new() }],
            max_games: None,
            max_plies: 400,
            threads: 1,
            seed: 0,
            sprt: None,
            clock: None,
            time_margin: Duration::ZERO,
        }
    }
}

impl MatchConfig {
    /// The default match (400 plies at most, one game at a time, seed 0,
    /// no SPRT) on `openings`.
    #[must_use]
    pub fn new(openings: Vec<Opening>) -> MatchConfig {
        MatchConfig {
            openings,
            ..MatchConfig::default()
        }
    }

    /// The same match stopped after `games` games at most.
    #[must_use]
    pub fn with_max_games(mut self, games: usize) -> MatchConfig {
        self.max_games = Some(games);
        self
    }

    /// The same match with games drawn after `plies` plies.
    #[must_use]
    pub fn with_max_plies(mut self, plies: usize) -> MatchConfig {
        self.max_plies = plies;
        self
    }

    /// The same match with `threads` games played at once.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> MatchConfig {
        self.threads = threads;
        self
    }

    /// The same match with another seed.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> MatchConfig {
        self.seed = seed;
        self
    }

    /// The same match on `clock`, a side losing on time once its clock
    /// falls below `-margin`.
    #[must_use]
    pub fn with_clock(mut self, clock: MatchClock, margin: Duration) -> MatchConfig {
        self.clock = Some(clock);
        self.time_margin = margin;
        self
    }

    /// The rules each game is played by.
    #[must_use]
    pub fn rules(&self) -> GameRules {
        let rules = GameRules::new(self.max_plies);
        match self.clock {
            Some(clock) => rules.with_clock(clock, self.time_margin),
            None => rules,
        }
    }

    /// The same match stopped early when `sprt` decides.
    #[must_use]
    pub fn with_sprt(mut self, sprt: Sprt) -> MatchConfig {
        self.sprt = Some(sprt);
        self
    }
}

/// How one game of a match went.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GameRecord {
    /// The index of the game in the schedule.
    pub index: usize,
    /// The opening used.
    pub opening: usize,
    /// Whether the first player had White.
    pub first_is_white: bool,
    /// The game, opening moves included.
    pub game: Game,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: PgnResult,
    /// How it ended, in words (`checkmate`, `adjudicated after 400 plies`,
    /// `black made an illegal move`, `white forfeits: …`).
    pub termination: String,
    /// Who forfeited and why, when a player broke down twice or played an
    /// illegal move, and whether the game was adjudicated.
    pub forfeit: Option<Forfeit>,
    /// The number of opening plies at the start of `game`.
    pub opening_plies: usize,
    /// The score each move after the opening was played with, from its
    /// player's side (external engines only): `scores[i]` is for move
    /// `opening_plies + i`.
    pub scores: Vec<Option<hostage_engine::Score>>,
    /// On a clock, the mover's time left after each move after the
    /// opening, in milliseconds (as `scores`); empty without a clock.
    pub clocks: Vec<i64>,
    /// The breakdowns a player recovered from.
    pub restarts: Vec<Restart>,
}

impl GameRecord {
    /// The first player's points: 1, ½ or 0.
    #[must_use]
    pub fn first_player_points(&self) -> f64 {
        let white = match self.result {
            PgnResult::WhiteWins => 1.0,
            PgnResult::BlackWins => 0.0,
            _ => 0.5,
        };
        if self.first_is_white {
            white
        } else {
            1.0 - white
        }
    }

    /// Whether the game counts in the match's score: decided on the board,
    /// or forfeited and adjudicated.
    #[must_use]
    pub fn counts(&self) -> bool {
        self.forfeit
            .as_ref()
            .is_none_or(|f| f.adjudicated.is_some())
    }

    /// Whether the first player forfeited this game (`None`: no forfeit).
    #[must_use]
    pub fn first_player_forfeited(&self) -> Option<bool> {
        self.forfeit
            .as_ref()
            .map(|f| f.side.is_white() == self.first_is_white)
    }

    /// The game as PGN, with the players' names, the round and the
    /// termination as tags; a forfeit is also told in a comment after the
    /// last move.
    #[must_use]
    pub fn pgn(&self, first: &str, second: &str, event: &str) -> String {
        let mut pgn = PgnGame::from_game(&self.game);
        let (white, black) = if self.first_is_white {
            (first, second)
        } else {
            (second, first)
        };
        pgn.set_tag("Event", event);
        pgn.set_tag("Round", &(self.index + 1).to_string());
        pgn.set_tag("White", white);
        pgn.set_tag("Black", black);
        pgn.set_tag("Result", self.result.as_str());
        pgn.set_tag("Variant", "Hostage");
        pgn.set_tag("Termination", &self.termination);
        let line: Vec<NodeId> = pgn.mainline();
        for (i, score) in self.scores.iter().enumerate() {
            if let (Some(score), Some(&node)) = (score, line.get(self.opening_plies + i)) {
                pgn.node_mut(node).comments.push(score_comment(*score));
            }
        }
        for (i, left) in self.clocks.iter().enumerate() {
            if let Some(&node) = line.get(self.opening_plies + i) {
                pgn.node_mut(node).comments.push(clock_comment(*left));
            }
        }
        for restart in &self.restarts {
            // The comment goes after the last move before the breakdown.
            let node = restart
                .ply
                .checked_sub(1)
                .and_then(|i| line.get(i).copied())
                .unwrap_or(NodeId::ROOT);
            let side = if restart.side.is_white() {
                "White"
            } else {
                "Black"
            };
            pgn.node_mut(node)
                .comments
                .push(format!("{side} restarted: {}", restart.reason));
        }
        if let Some(forfeit) = &self.forfeit {
            let (side, name) = if forfeit.side.is_white() {
                ("White", white)
            } else {
                ("Black", black)
            };
            let last = pgn.mainline().last().copied().unwrap_or(NodeId::ROOT);
            pgn.node_mut(last)
                .comments
                .push(format!("{side} ({name}) forfeits: {}", forfeit.reason));
        }
        pgn.result = self.result;
        pgn.write()
    }
}

/// A score as a PGN comment, as cutechess-cli writes it: `+0.35` in pawns
/// or `+M5`/`-M3`, from the side that moved.
fn score_comment(score: hostage_engine::Score) -> String {
    match score {
        hostage_engine::Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        hostage_engine::Score::Mate(n) if n > 0 => format!("+M{n}"),
        hostage_engine::Score::Mate(n) => format!("-M{}", -n),
    }
}

/// A clock reading as a PGN comment, `[%clk 0:00:00.850]` (negative
/// readings, a flag that fell within the margin, as 0).
fn clock_comment(ms: i64) -> String {
    let ms = ms.max(0);
    format!(
        "[%clk {}:{:02}:{:02}.{:03}]",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// The outcome of a match.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct MatchResult {
    /// The first player's wins, draws and losses in the games that count
    /// ([`GameRecord::counts`]).
    pub wdl: Wdl,
    /// The forfeited games left out of `wdl`: the engines' scores did not
    /// agree who was winning.
    pub left_out: usize,
    /// The games, in schedule order (those played).
    pub games: Vec<GameRecord>,
    /// The SPRT verdict, if one was asked for.
    pub verdict: Option<Verdict>,
}

/// Plays a match between the players that `first` and `second` build (one
/// pair per thread). `progress` sees each finished game.
///
/// # Errors
///
/// An illegal opening move.
pub fn run_match(
    config: &MatchConfig,
    first: &(dyn Fn() -> Box<dyn Player> + Sync),
    second: &(dyn Fn() -> Box<dyn Player> + Sync),
    progress: &(dyn Fn(&GameRecord, &Wdl) + Sync),
) -> Result<MatchResult, MoveTextError> {
    for opening in &config.openings {
        opening.game()?;
    }
    let total = (config.openings.len() * 2).min(config.max_games.unwrap_or(usize::MAX));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let state = Mutex::new((Wdl::default(), Vec::<GameRecord>::new()));
    let rules = config.rules();
    let threads = config.threads.clamp(1, total.max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut a = first();
                let mut b = second();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= total {
                        break;
                    }
                    let opening = index / 2;
                    let first_is_white = index % 2 == 0;
                    let seed = config.seed ^ (opening as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
                    let played = if first_is_white {
                        play_game(&mut *a, &mut *b, &config.openings[opening], &rules, seed)
                    } else {
                        play_game(&mut *b, &mut *a, &config.openings[opening], &rules, seed)
                    };
                    // Openings were replayed above, so this cannot fail.
                    let Ok(Refereed {
                        game,
                        result,
                        termination,
                        forfeit,
                        scores,
                        clocks,
                        restarts,
                        ..
                    }) = played
                    else {
                        break;
                    };
                    let record = GameRecord {
                        index,
                        opening,
                        first_is_white,
                        opening_plies: config.openings[opening].moves.len(),
                        game,
                        result,
                        termination,
                        forfeit,
                        scores,
                        clocks,
                        restarts,
                    };
                    let Ok(mut guard) = state.lock() else { break };
                    let (wdl, records) = &mut *guard;
                    let points = record.first_player_points();
                    if !record.counts() {
                        // Told apart in the summary (MatchResult::left_out).
                    } else if points == 1.0 {
                        wdl.wins += 1;
                    } else if points == 0.0 {
                        wdl.losses += 1;
                    } else {
                        wdl.draws += 1;
                    }
                    progress(&record, wdl);
                    records.push(record);
                    if let Some(sprt) = config.sprt {
                        if sprt.verdict(wdl) != Verdict::Continue {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    let (wdl, mut games) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|g| g.index);
    Ok(MatchResult {
        wdl,
        left_out: games.iter().filter(|g| !g.counts()).count(),
        verdict: config.sprt.map(|s| s.verdict(&wdl)),
        games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{GreedyPlayer, NoMove, RandomPlayer};
    use hostage_core::{Color, Move};

    #[test]
    fn a_short_match_counts_every_game_and_alternates_colours() {
        let config = MatchConfig {
            openings: Opening::parse_book("e2e4 e7e5\nd2d4 d7d5\n").expect("book"),
            max_plies: 60,
            threads: 2,
            ..MatchConfig::default()
        };
        let result = run_match(
            &config,
            &|| Box::new(GreedyPlayer),
            &|| Box::new(RandomPlayer),
            &|_, _| {},
        )
        .expect("match");
        assert_eq!(result.wdl.games(), 4);
        assert_eq!(result.games.len(), 4);
        let whites: Vec<bool> = result.games.iter().map(|g| g.first_is_white).collect();
        assert_eq!(whites, [true, false, true, false]);
        for g in &result.games {
            // Every game starts with its opening and is a legal record.
            assert_eq!(g.opening_plies, 2);
            let pgn = g.pgn("greedy", "random", "test");
            let back = PgnGame::read(&pgn).expect("our PGN reads back");
            assert_eq!(back.mainline_moves(), g.game.moves());
        }
    }

    /// Plays `random`, but breaks down at each ply of `fail_at` (once
    /// each), answers an illegal move at `illegal_at`, sleeps `sleep` a
    /// move, and reports `score` for every move.
    #[derive(Default)]
    struct Flaky {
        fail_at: Vec<usize>,
        illegal_at: Option<usize>,
        sleep: Duration,
        score: Option<hostage_engine::Score>,
        restarts: usize,
    }

    impl Player for Flaky {
        fn name(&self) -> String {
            "flaky".into()
        }
        fn new_game(&mut self) {
            self.restarts += 1;
        }
        fn choose(&mut self, game: &Game, seed: u64) -> Result<Move, NoMove> {
            std::thread::sleep(self.sleep);
            if let Some(i) = self.fail_at.iter().position(|&p| p == game.ply()) {
                self.fail_at.remove(i);
                return Err(NoMove::Failed("the engine exited".into()));
            }
            if self.illegal_at == Some(game.ply()) {
                return Err(NoMove::Illegal("answered 'bestmove e2e5'".into()));
            }
            RandomPlayer.choose(game, seed)
        }
        fn last_score(&self) -> Option<hostage_engine::Score> {
            self.score
        }
    }

    /// One game of `white` against a `Flaky` that scores `black_score`.
    fn one_game(white: Flaky, black_score: Option<hostage_engine::Score>) -> MatchResult {
        let config = MatchConfig::new(Opening::parse_book("e2e4 e7e5\n").expect("book"))
            .with_max_plies(30)
            .with_max_games(1);
        let white = Mutex::new(Some(white));
        run_match(
            &config,
            &|| {
                Box::new(
                    white
                        .lock()
                        .ok()
                        .and_then(|mut w| w.take())
                        .unwrap_or_default(),
                )
            },
            &|| {
                Box::new(Flaky {
                    score: black_score,
                    ..Flaky::default()
                })
            },
            &|_, _| {},
        )
        .expect("match")
    }

    #[test]
    fn a_first_breakdown_restarts_the_player_and_the_game_goes_on() {
        let result = one_game(
            Flaky {
                fail_at: vec![6],
                ..Flaky::default()
            },
            None,
        );
        let game = &result.games[0];
        assert_eq!(game.forfeit, None);
        assert_eq!(game.game.ply(), 30, "played to the ply limit");
        assert_eq!(game.restarts.len(), 1);
        assert_eq!(
            (game.restarts[0].ply, game.restarts[0].side),
            (6, Color::White)
        );
        let pgn = game.pgn("flaky", "other", "test");
        assert!(
            pgn.contains("{White restarted: the engine exited}"),
            "{pgn}"
        );
        assert!(PgnGame::read(&pgn).is_ok(), "{pgn}");
        assert_eq!((result.wdl.games(), result.left_out), (1, 0));
    }

    #[test]
    fn a_second_breakdown_forfeits_and_is_left_out_when_the_scores_do_not_settle_it() {
        let result = one_game(
            Flaky {
                fail_at: vec![6, 8],
                ..Flaky::default()
            },
            Some(hostage_engine::Score::Cp(-900)),
        );
        let game = &result.games[0];
        assert_eq!(game.game.ply(), 8);
        assert_eq!(game.result, PgnResult::BlackWins);
        assert_eq!(game.termination, "white forfeits: the engine exited");
        assert_eq!(game.first_player_forfeited(), Some(true));
        // White's engine reported no score: no adjudication.
        assert_eq!(game.forfeit.as_ref().and_then(|f| f.adjudicated), None);
        assert!(!game.counts());
        assert_eq!((result.wdl.games(), result.left_out), (0, 1));
        let pgn = game.pgn("flaky", "other", "test");
        assert!(
            pgn.contains("{White (flaky) forfeits: the engine exited}"),
            "{pgn}"
        );
        // Black's scores are in the record, from Black's side.
        assert!(pgn.contains("{-9.00}"), "{pgn}");
    }

    #[test]
    fn a_forfeited_game_goes_to_the_side_both_engines_say_is_winning() {
        use hostage_engine::Score::{Cp, Mate};
        // White forfeits while both engines say White is winning.
        let result = one_game(
            Flaky {
                fail_at: vec![6, 8],
                score: Some(Mate(3)),
                ..Flaky::default()
            },
            Some(Cp(-200)),
        );
        let game = &result.games[0];
        assert_eq!(game.result, PgnResult::WhiteWins);
        assert_eq!(
            game.forfeit.as_ref().and_then(|f| f.adjudicated),
            Some(Color::White)
        );
        assert_eq!(
            game.termination,
            "white forfeits: the engine exited; adjudicated to white from both engines' scores"
        );
        assert!(game.counts());
        assert_eq!(
            (result.wdl.wins, result.wdl.games(), result.left_out),
            (1, 1, 0)
        );
        // An illegal answer forfeits at once, here adjudicated to Black.
        let result = one_game(
            Flaky {
                illegal_at: Some(4),
                score: Some(Cp(-700)),
                ..Flaky::default()
            },
            Some(Cp(300)),
        );
        let game = &result.games[0];
        assert_eq!(game.game.ply(), 4);
        assert!(game.restarts.is_empty());
        assert_eq!(game.result, PgnResult::BlackWins);
        assert!(game
            .termination
            .starts_with("white forfeits: answered 'bestmove e2e5'"));
        assert_eq!((result.wdl.losses, result.left_out), (1, 0));
    }

    #[test]
    fn clock_readings_are_written_as_pgn_clk_comments() {
        assert_eq!(clock_comment(850), "[%clk 0:00:00.850]");
        assert_eq!(clock_comment(3_723_456), "[%clk 1:02:03.456]");
        assert_eq!(clock_comment(-5), "[%clk 0:00:00.000]");
    }

    #[test]
    fn on_a_clock_a_side_that_oversteps_loses_on_time() {
        // 100 ms for the game, 60 ms a move: the second move is too late.
        let config = MatchConfig::new(Opening::parse_book("e2e4 e7e5\n").expect("book"))
            .with_max_games(1)
            .with_clock(MatchClock::new(100, 0), Duration::ZERO);
        let result = run_match(
            &config,
            &|| {
                Box::new(Flaky {
                    sleep: Duration::from_millis(60),
                    ..Flaky::default()
                })
            },
            &|| Box::new(RandomPlayer),
            &|_, _| {},
        )
        .expect("match");
        let game = &result.games[0];
        assert_eq!(game.termination, "white loses on time");
        // Black's moves and White's first are on the record with the time
        // left: 100 ms less what each took (White about 60 ms).
        assert!(!game.clocks.is_empty());
        let pgn = game.pgn("sleepy", "random", "test");
        assert!(pgn.contains("[%clk 0:00:00.0"), "{pgn}");
        assert_eq!(game.result, PgnResult::BlackWins);
        assert!(game.game.ply() <= 4, "{}", game.game.ply());
        assert!(game.counts());
    }
}
