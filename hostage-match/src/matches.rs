//! Matches between two players over an opening book, each opening played
//! with both colours, on several threads, with an optional SPRT that stops
//! the match once its verdict is clear. Each game is refereed by
//! [`crate::referee::play_game`] (endings, adjudication after
//! [`MatchConfig::max_plies`] plies, illegal moves and forfeits).
//!
//! Every game is deterministic given its opening, its colours and the
//! match seed; with several threads games finish in any order, so an SPRT
//! may stop after a different number of games, but each game is the same.

use std::sync::{
    atomic::{AtomicBool, AtomicUsize, Ordering},
    Mutex,
};

use hostage_core::{
    pgn::{NodeId, PgnGame, PgnResult},
    Game, MoveTextError,
};

use crate::{
    book::Opening,
    players::Player,
    referee::{play_game, Forfeit, Refereed},
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
    /// Who forfeited and why, when a player broke down.
    pub forfeit: Option<Forfeit>,
    /// The number of opening plies at the start of `game`.
    pub opening_plies: usize,
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

/// The outcome of a match.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct MatchResult {
    /// The first player's wins, draws and losses.
    pub wdl: Wdl,
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
                        play_game(
                            &mut *a,
                            &mut *b,
                            &config.openings[opening],
                            config.max_plies,
                            seed,
                        )
                    } else {
                        play_game(
                            &mut *b,
                            &mut *a,
                            &config.openings[opening],
                            config.max_plies,
                            seed,
                        )
                    };
                    // Openings were replayed above, so this cannot fail.
                    let Ok(Refereed {
                        game,
                        result,
                        termination,
                        forfeit,
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
                    };
                    let Ok(mut guard) = state.lock() else { break };
                    let (wdl, records) = &mut *guard;
                    let points = record.first_player_points();
                    if points == 1.0 {
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
        verdict: config.sprt.map(|s| s.verdict(&wdl)),
        games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{GreedyPlayer, NoMove, RandomPlayer};
    use hostage_core::Move;

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

    /// Breaks down at its third move of the first game, then plays as
    /// `random` again after `new_game`.
    struct Flaky {
        games: u32,
        moves: u32,
    }

    impl Player for Flaky {
        fn name(&self) -> String {
            "flaky".into()
        }
        fn new_game(&mut self) {
            self.games += 1;
            self.moves = 0;
        }
        fn choose(&mut self, game: &Game, seed: u64) -> Result<Move, NoMove> {
            self.moves += 1;
            if self.games == 1 && self.moves == 3 {
                return Err(NoMove::Failed("the engine exited".into()));
            }
            RandomPlayer.choose(game, seed)
        }
    }

    #[test]
    fn a_player_that_breaks_down_forfeits_one_game_and_the_match_goes_on() {
        let config = MatchConfig {
            openings: Opening::parse_book(
                "e2e4 e7e5
",
            )
            .expect("book"),
            max_plies: 30,
            ..MatchConfig::default()
        };
        let result = run_match(
            &config,
            &|| Box::new(Flaky { games: 0, moves: 0 }),
            &|| Box::new(GreedyPlayer),
            &|_, _| {},
        )
        .expect("match");
        assert_eq!(result.games.len(), 2);
        let (first, second) = (&result.games[0], &result.games[1]);
        // Game 1: flaky has White, fails at its third move (ply 7 after the
        // two opening plies and two moves each), and loses.
        assert_eq!(first.game.ply(), 6);
        assert_eq!(first.result, PgnResult::BlackWins);
        assert_eq!(first.termination, "white forfeits: the engine exited");
        assert_eq!(first.first_player_forfeited(), Some(true));
        let pgn = first.pgn("flaky", "greedy", "test");
        assert!(
            pgn.contains("[Termination \"white forfeits: the engine exited\"]"),
            "{pgn}"
        );
        assert!(
            pgn.contains("{White (flaky) forfeits: the engine exited}"),
            "{pgn}"
        );
        assert!(PgnGame::read(&pgn).is_ok(), "{pgn}");
        // Game 2 is played out by the recovered player.
        assert_eq!(second.forfeit, None);
        assert!(second.game.ply() > 6, "{}", second.game.ply());
        assert_eq!(result.wdl.games(), 2);
    }
}
