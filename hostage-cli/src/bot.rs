//! The computer players of `hostage play`: one of the engine's players
//! (a level, `full`, `random`, `greedy`) behind the console's [`Player`].
//!
//! A bot announces that it is thinking, chooses with the game's history (so
//! it sees repetitions, R12) and a seed derived from `--seed` and the ply,
//! and prints its move in SAN. With the same seed and the same moves by the
//! people, a bot plays the same game again.

use std::{fmt, io, str::FromStr};

use hostage_core::{san::San, Game};
use hostage_match::players::{ParsePlayerError, PlayerSpec};

use crate::{
    display::title,
    player::{Action, Console, Human, Player},
};

/// Who plays a side: `human` or one of the engine's players.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at the keyboard.
    Human,
    /// The computer.
    Bot(PlayerSpec),
}

impl FromStr for Seat {
    type Err = ParsePlayerError;

    fn from_str(s: &str) -> Result<Seat, ParsePlayerError> {
        if s.trim().eq_ignore_ascii_case("human") {
            Ok(Seat::Human)
        } else {
            s.parse().map(Seat::Bot)
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Bot(spec) => write!(f, "{spec}"),
        }
    }
}

impl Seat {
    /// The player for this seat; bots draw with `seed`.
    pub fn player(self, seed: u64) -> Box<dyn Player> {
        match self {
            Seat::Human => Box::new(Human),
            Seat::Bot(spec) => Box::new(Bot {
                player: spec.build(),
                label: spec.to_string(),
                seed,
            }),
        }
    }
}

/// An engine player at the console.
pub struct Bot {
    player: Box<dyn hostage_match::players::Player>,
    label: String,
    seed: u64,
}

impl Player for Bot {
    fn act(&mut self, game: &Game, console: &mut Console) -> io::Result<Action> {
        let pos = game.position();
        let side = title(pos.turn());
        writeln!(console.out(), "{side} ({}) is thinking...", self.label)?;
        console.out().flush()?;
        // The same seed at every ply would repeat the same kind of choice.
        let seed = self.seed ^ (game.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        match self.player.choose(game, seed) {
            Ok(m) => {
                writeln!(
                    console.out(),
                    "{side} ({}) plays {}.",
                    self.label,
                    San::write(pos, &m)
                )?;
                Ok(Action::Play(m))
            }
            Err(_) => {
                writeln!(console.out(), "{side} ({}) has no move.", self.label)?;
                Ok(Action::Quit)
            }
        }
    }

    fn is_bot(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_humans_and_bots() {
        assert_eq!("Human".parse(), Ok(Seat::Human));
        assert_eq!(
            "casual".parse(),
            Ok(Seat::Bot(PlayerSpec::Level(hostage_engine::Level::Casual)))
        );
        assert_eq!(
            "full:500".parse(),
            Ok(Seat::Bot(PlayerSpec::Full { nodes: 500 }))
        );
        assert!("robot".parse::<Seat>().is_err());
    }
}
