//! One game between two players, refereed: who moves, when the game is
//! over, and how it ended.
//!
//! A game ends by the rules ([`Game::outcome`]: mate, stalemate, fifty
//! moves, threefold repetition, perpetual check), on time (with a
//! [`GameRules::clock`], see [`crate::clock`]), or is adjudicated a draw
//! after the ply limit. A player that gives no move loses the game. One
//! that breaks down ([`NoMove::Failed`]: an external engine that exited or
//! hung) is restarted ([`Player::new_game`]) and asked again, once a game;
//! a second breakdown in the same game, or a move the rules refuse
//! ([`NoMove::Illegal`], or a built-in player's illegal move), forfeits
//! it. A forfeited game is adjudicated to the side both engines' last
//! scores say is winning ([`crate::adjudication`]); otherwise it is
//! recorded as lost by the forfeiter but left out of a match's score
//! ([`Refereed::counts`]). Every choice is checked by the core: the
//! referee, not the engines, decides what is legal.
//! Both players hear [`Player::new_game`] first.

use std::time::{Duration, Instant};

use hostage_core::{pgn::PgnResult, ByColor, Color, Game, MoveTextError};
use hostage_engine::Score;

use crate::{
    adjudication,
    book::Opening,
    clock::{Clocks, MatchClock},
    players::{NoMove, Player},
};

/// How each game of a match is played.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameRules {
    /// Adjudicate a draw after this many plies (opening included).
    pub max_plies: usize,
    /// Play on this clock (`None`: each player's own budget, no clock).
    pub clock: Option<MatchClock>,
    /// How far below zero a clock may fall before its side loses on time.
    pub time_margin: Duration,
}

impl Default for GameRules {
    /// 400 plies, no clock, no margin.
    fn default() -> GameRules {
        GameRules {
            max_plies: 400,
            clock: None,
            time_margin: Duration::ZERO,
        }
    }
}

impl GameRules {
    /// The default rules with a draw after `max_plies` plies.
    #[must_use]
    pub fn new(max_plies: usize) -> GameRules {
        GameRules {
            max_plies,
            ..GameRules::default()
        }
    }

    /// The same rules on `clock`, with `margin` of grace past zero.
    #[must_use]
    pub fn with_clock(mut self, clock: MatchClock, margin: Duration) -> GameRules {
        self.clock = Some(clock);
        self.time_margin = margin;
        self
    }
}

/// How a refereed game went.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Refereed {
    /// The game, opening moves included.
    pub game: Game,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: PgnResult,
    /// How it ended, in words (`checkmate`, `adjudicated after 400 plies`,
    /// `black loses on time`, `white forfeits: …`).
    pub termination: String,
    /// Who forfeited and why, when a player broke down twice or played an
    /// illegal move.
    pub forfeit: Option<Forfeit>,
    /// The score each move after the opening was played with, from its
    /// player's side ([`Player::last_score`]): `scores[i]` is for move
    /// `opening plies + i` of [`Refereed::game`].
    pub scores: Vec<Option<Score>>,
    /// On a clock, the mover's time left after each move after the
    /// opening, in milliseconds, increment added (as `scores`); empty
    /// without a clock.
    pub clocks: Vec<i64>,
    /// The breakdowns a player recovered from (restarted and asked again).
    pub restarts: Vec<Restart>,
}

impl Refereed {
    /// Whether the game counts in a match's score: decided on the board,
    /// or forfeited and adjudicated from the engines' scores.
    #[must_use]
    pub fn counts(&self) -> bool {
        self.forfeit
            .as_ref()
            .is_none_or(|f| f.adjudicated.is_some())
    }
}

/// A game forfeited by a player: a second breakdown, or an illegal move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Forfeit {
    /// The side that forfeited.
    pub side: Color,
    /// Why, in words (`the engine exited at ply 31`, `answered bestmove
    /// e2e5, not a legal move at ply 12`, …).
    pub reason: String,
    /// The side the game was adjudicated to because both engines' last
    /// scores agreed it was winning ([`crate::adjudication`]), if they did.
    pub adjudicated: Option<Color>,
}

/// A breakdown a player recovered from: it was restarted and asked again.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Restart {
    /// The ply (moves played before it) it broke down at.
    pub ply: usize,
    /// Its side.
    pub side: Color,
    /// Why.
    pub reason: String,
}

/// Plays one game from `opening` with `white` and `black` under `rules`.
///
/// # Errors
///
/// An opening move that does not parse or is illegal.
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &Opening,
    rules: &GameRules,
    seed: u64,
) -> Result<Refereed, MoveTextError> {
    let game = opening.game()?;
    white.new_game();
    black.new_game();
    let mut referee = Referee {
        game,
        rules: *rules,
        clocks: rules.clock.map(Clocks::start),
        scores: Vec::new(),
        times: Vec::new(),
        restarts: Vec::new(),
        last: ByColor::new(None, None),
    };
    Ok(referee.play(white, black, seed))
}

/// A game in progress and what the referee noted so far.
struct Referee {
    game: Game,
    rules: GameRules,
    clocks: Option<Clocks>,
    scores: Vec<Option<Score>>,
    /// The mover's clock after each move (see [`Refereed::clocks`]).
    times: Vec<i64>,
    restarts: Vec<Restart>,
    /// Each side's last reported score, from its own side.
    last: ByColor<Option<Score>>,
}

/// How one turn ended the game, if it did.
enum Ending {
    /// The side to move loses (no move, on time) for this reason.
    Loses(String),
    /// The side to move forfeits for this reason.
    Forfeits(String),
}

impl Referee {
    fn play(&mut self, white: &mut dyn Player, black: &mut dyn Player, seed: u64) -> Refereed {
        loop {
            if let Some(outcome) = self.game.outcome() {
                let termination = outcome.termination.name().replace('_', " ");
                return self.finish(PgnResult::from_outcome(Some(outcome)), termination, None);
            }
            if self.game.ply() >= self.rules.max_plies {
                let termination = format!("adjudicated after {} plies", self.rules.max_plies);
                return self.finish(PgnResult::Draw, termination, None);
            }
            let turn = self.game.position().turn();
            let player: &mut dyn Player = match turn {
                Color::White => &mut *white,
                Color::Black => &mut *black,
            };
            let seed = seed ^ (self.game.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let Some(ending) = self.turn(player, turn, seed) else {
                continue;
            };
            let lost = match turn {
                Color::White => PgnResult::BlackWins,
                Color::Black => PgnResult::WhiteWins,
            };
            return match ending {
                Ending::Loses(why) => self.finish(lost, format!("{} {why}", turn.name()), None),
                Ending::Forfeits(reason) => self.forfeit(turn, reason, lost),
            };
        }
    }

    /// One move of `turn`: played (`None`), or how the game ended. A first
    /// breakdown in the game restarts the player and asks again.
    fn turn(&mut self, player: &mut dyn Player, turn: Color, seed: u64) -> Option<Ending> {
        let restarted = self.restarts.iter().any(|r| r.side == turn);
        let started = Instant::now();
        let choice = match &self.clocks {
            Some(clocks) => player.choose_on_clock(&self.game, seed, clocks),
            None => player.choose(&self.game, seed),
        };
        let spent = started.elapsed();
        if let Some(clocks) = &mut self.clocks {
            if !clocks.book(turn, spent, self.rules.time_margin) {
                return Some(Ending::Loses("loses on time".to_owned()));
            }
        }
        match choice {
            // `Game::push` checks legality and leaves the game unchanged
            // when it refuses a move.
            Ok(m) => {
                if self.game.push(m).is_err() {
                    let at = self.game.ply() + 1;
                    return Some(Ending::Forfeits(format!(
                        "played {m}, an illegal move at ply {at}"
                    )));
                }
                let score = player.last_score();
                self.scores.push(score);
                if let Some(clocks) = &self.clocks {
                    self.times.push(clocks.left(turn));
                }
                *self.last.get_mut(turn) = score;
                None
            }
            Err(NoMove::GaveUp) => Some(Ending::Loses(NoMove::GaveUp.to_string())),
            Err(NoMove::Illegal(why)) => Some(Ending::Forfeits(why)),
            Err(NoMove::Failed(why)) if !restarted => {
                self.restarts.push(Restart {
                    ply: self.game.ply(),
                    side: turn,
                    reason: why,
                });
                player.new_game();
                None
            }
            Err(NoMove::Failed(why)) => Some(Ending::Forfeits(why)),
        }
    }

    /// `side` forfeits: the game goes to the side both engines' scores
    /// say is winning, else it is lost by `side` (`lost`) but does not count.
    fn forfeit(&mut self, side: Color, reason: String, lost: PgnResult) -> Refereed {
        let adjudicated = adjudication::winner(self.last.white, self.last.black);
        let (result, termination) = match adjudicated {
            Some(winner) => (
                if winner.is_white() {
                    PgnResult::WhiteWins
                } else {
                    PgnResult::BlackWins
                },
                format!(
                    "{} forfeits: {reason}; adjudicated to {} from both engines' scores",
                    side.name(),
                    winner.name()
                ),
            ),
            None => (lost, format!("{} forfeits: {reason}", side.name())),
        };
        let forfeit = Forfeit {
            side,
            reason,
            adjudicated,
        };
        self.finish(result, termination, Some(forfeit))
    }

    fn finish(
        &mut self,
        result: PgnResult,
        termination: String,
        forfeit: Option<Forfeit>,
    ) -> Refereed {
        Refereed {
            game: self.game.clone(),
            result,
            termination,
            forfeit,
            scores: std::mem::take(&mut self.scores),
            clocks: std::mem::take(&mut self.times),
            restarts: std::mem::take(&mut self.restarts),
        }
    }
}
