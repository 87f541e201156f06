//! Matches between two players over an opening book, each opening played
//! with both colours, on several threads, with an optional SPRT that stops
//! the match once its verdict is clear.
//!
//! A game ends by the rules ([`Game::outcome`]: mate, stalemate, fifty
//! moves, threefold repetition, perpetual check), or is adjudicated a draw
//! after [`MatchConfig::max_plies`] plies. A player that returns no move or
//! an illegal one (an external engine can) loses the game.
//!
//! Every game is deterministic given its opening, its colours and the
//! match seed; with several threads games finish in any order, so an SPRT
//! may stop after a different number of games, but each game is the same.

use std::sync::{
    atomic::{AtomicBool, AtomicUsize, Ordering},
    Mutex,
};

use hostage_core::{
    pgn::{PgnGame, PgnResult},
    Color, Game, GameError, Move,
};

pub use crate::book::default_book;
use crate::{
    players::Player,
    stats::{Sprt, Verdict, Wdl},
};

/// An opening: moves in the library's long form from the start position.
///
/// # Examples
///
/// ```
/// use hostage_engine::matches::Opening;
///
/// let book = Opening::parse_book("# comment\ne2e4 d7d5 e4d5 d8d5\nd2d4 g8f6\n")?;
/// assert_eq!(book.len(), 2);
/// assert_eq!(book[0].moves.len(), 4);
/// # Ok::<_, hostage_engine::matches::BookError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves, in long form.
    pub moves: Vec<String>,
}

impl Opening {
    /// Reads a book: one opening a line, moves in long form separated by
    /// spaces; blank lines and lines starting with `#` are skipped. Every
    /// line is replayed, so an illegal move is reported with its line.
    ///
    /// # Errors
    ///
    /// The first move that does not parse or is illegal, with its line.
    pub fn parse_book(text: &str) -> Result<Vec<Opening>, BookError> {
        let mut book = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = Opening {
                moves: line.split_whitespace().map(str::to_string).collect(),
            };
            let mut game = Game::new();
            for m in &opening.moves {
                game.push_uci(m).map_err(|error| BookError {
                    line: number + 1,
                    mv: crate::shorten(m),
                    error,
                })?;
            }
            book.push(opening);
        }
        Ok(book)
    }

    /// The game after the opening's moves.
    ///
    /// # Errors
    ///
    /// The first move that does not parse or is illegal.
    pub fn game(&self) -> Result<Game, GameError> {
        let mut game = Game::new();
        for m in &self.moves {
            game.push_uci(m)?;
        }
        Ok(game)
    }
}

/// A move of an opening book that does not parse or is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError {
    /// The line (from 1).
    pub line: usize,
    /// The move as written (shortened if long).
    pub mv: String,
    /// What is wrong with it.
    pub error: GameError,
}

impl BookError {
    /// The code of the move error (`invalid_uci`, `illegal_uci`).
    #[must_use]
    pub const fn code(&self) -> &'static str {
        self.error.code()
    }
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "opening book line {}: {:?}: {}",
            self.line, self.mv, self.error
        )
    }
}

impl std::error::Error for BookError {}

/// How a match is played.
#[derive(Clone, Debug)]
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

/// How one game of a match went.
#[derive(Clone, Debug)]
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
    /// `black made an illegal move`, …).
    pub termination: String,
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

    /// The game as PGN, with the players' names, the round and the
    /// termination as tags.
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
        pgn.result = self.result;
        pgn.write()
    }
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// The first player's wins, draws and losses.
    pub wdl: Wdl,
    /// The games, in schedule order (those played).
    pub games: Vec<GameRecord>,
    /// The SPRT verdict, if one was asked for.
    pub verdict: Option<Verdict>,
}

/// Plays one game from `opening` with `white` and `black`.
///
/// # Errors
///
/// An opening move that is illegal.
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &Opening,
    max_plies: usize,
    seed: u64,
) -> Result<(Game, PgnResult, String), GameError> {
    let mut game = opening.game()?;
    white.new_game();
    black.new_game();
    loop {
        if let Some(outcome) = game.outcome() {
            let result = PgnResult::from_outcome(Some(outcome));
            return Ok((game, result, outcome.termination.name().replace('_', " ")));
        }
        if game.ply() >= max_plies {
            return Ok((
                game,
                PgnResult::Draw,
                format!("adjudicated after {max_plies} plies"),
            ));
        }
        let turn = game.position().turn();
        let player: &mut dyn Player = match turn {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let seed = seed ^ (game.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // `Game::push` checks legality and leaves the game unchanged when
        // it refuses a move.
        let chosen: Option<Move> = player.choose(&game, seed);
        match chosen.map(|m| game.push(m)) {
            Some(Ok(())) => {}
            _ => {
                let result = match turn {
                    Color::White => PgnResult::BlackWins,
                    Color::Black => PgnResult::WhiteWins,
                };
                let what = if chosen.is_some() {
                    "made an illegal move"
                } else {
                    "gave no move"
                };
                return Ok((game, result, format!("{} {what}", turn.name())));
            }
        }
    }
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
) -> Result<MatchResult, GameError> {
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
                    let Ok((game, result, termination)) = played else {
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
    use crate::players::{GreedyPlayer, RandomPlayer};

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

    #[test]
    fn an_illegal_opening_is_reported() {
        let err = Opening::parse_book("e2e4 e7e5\n\nd2d4 e2e5\n").expect_err("illegal");
        assert_eq!(
            (err.line, err.mv.as_str(), err.code()),
            (3, "e2e5", "illegal_uci")
        );
        assert!(err.to_string().contains("line 3"), "{err}");
    }
}
