//! One game between two players, refereed: who moves, when the game is
//! over, and how it ended.
//!
//! A game ends by the rules ([`Game::outcome`]: mate, stalemate, fifty
//! moves, threefold repetition, perpetual check), or is adjudicated a draw
//! after the ply limit. A player that gives an illegal move or none loses
//! the game; one that broke down ([`NoMove::Failed`]: an external engine
//! that exited or hung) forfeits it, and the reason is kept for the record.
//! Both players hear [`Player::new_game`] first, which is where a broken
//! player recovers, so one failure costs one game.

use hostage_core::{pgn::PgnResult, Color, Game, MoveTextError};

use crate::{
    book::Opening,
    players::{NoMove, Player},
};

/// How a refereed game went.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Refereed {
    /// The game, opening moves included.
    pub game: Game,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: PgnResult,
    /// How it ended, in words (`checkmate`, `adjudicated after 400 plies`,
    /// `black made an illegal move`, `white forfeits: …`).
    pub termination: String,
    /// Who forfeited and why, when a player broke down.
    pub forfeit: Option<Forfeit>,
}

/// A game lost because a player broke down ([`NoMove::Failed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Forfeit {
    /// The side that forfeited.
    pub side: Color,
    /// Why, in words (`the engine exited`, `no answer within 2000 ms`, …).
    pub reason: String,
}

/// Plays one game from `opening` with `white` and `black`.
///
/// # Errors
///
/// An opening move that does not parse or is illegal.
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &Opening,
    max_plies: usize,
    seed: u64,
) -> Result<Refereed, MoveTextError> {
    let mut game = opening.game()?;
    white.new_game();
    black.new_game();
    loop {
        if let Some(outcome) = game.outcome() {
            let result = PgnResult::from_outcome(Some(outcome));
            let termination = outcome.termination.name().replace('_', " ");
            return Ok(Refereed {
                game,
                result,
                termination,
                forfeit: None,
            });
        }
        if game.ply() >= max_plies {
            return Ok(Refereed {
                game,
                result: PgnResult::Draw,
                termination: format!("adjudicated after {max_plies} plies"),
                forfeit: None,
            });
        }
        let turn = game.position().turn();
        let player: &mut dyn Player = match turn {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let seed = seed ^ (game.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // `Game::push` checks legality and leaves the game unchanged when
        // it refuses a move.
        let (failure, forfeit) = match player.choose(&game, seed) {
            Ok(m) if game.push(m).is_ok() => continue,
            Ok(_) => ("made an illegal move".to_owned(), None),
            Err(NoMove::GaveUp) => (NoMove::GaveUp.to_string(), None),
            Err(NoMove::Failed(why)) => (
                NoMove::Failed(why.clone()).to_string(),
                Some(Forfeit {
                    side: turn,
                    reason: why,
                }),
            ),
        };
        let result = match turn {
            Color::White => PgnResult::BlackWins,
            Color::Black => PgnResult::WhiteWins,
        };
        return Ok(Refereed {
            game,
            result,
            termination: format!("{} {failure}", turn.name()),
            forfeit,
        });
    }
}
