//! A game's time as a list of games shows it ("your games", the games
//! being played now): the time control, and the time the side to move has
//! left, read from the stored game without loading it.
//!
//! Policy: the stored clocks are the remaining times at the game's last
//! stored change (`updated_ms`); the side to move's clock runs from then
//! once both first moves are made (`clock.rs`), so its time left now is
//! its stored time less the time since. A correspondence game's left is
//! its stored deadline less now. Either is 0 once passed (the server ends
//! the game at once). An untimed game, or one still waiting for a player,
//! has no time left to show.

use hostage_core::{ByColor, Color};

use crate::domain::{correspondence::Days, ClockSpec};

/// The time columns of a stored game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct GameTiming {
    /// Fischer clocks, if the game has them.
    pub clock: Option<ClockSpec>,
    /// Days per move, for a correspondence game.
    pub days: Option<Days>,
    /// Each side's remaining time at the last stored change (timed).
    pub clocks: Option<ByColor<u64>>,
    /// The side to move's deadline (correspondence).
    pub deadline_ms: Option<u64>,
}

/// The side to move's time, as a list shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// Milliseconds left now (0 once passed).
    pub left_ms: u64,
    /// When it runs out, milliseconds since the Unix epoch; `None` while
    /// no clock runs (a timed game before both first moves).
    pub deadline_ms: Option<u64>,
}

impl GameTiming {
    /// The side to move's time at `now_ms`, in a game with `plies` moves,
    /// both seats taken or not (`started`), last changed at `updated_ms`;
    /// `None` for an untimed game or one not started.
    #[must_use]
    pub fn left(
        &self,
        plies: u64,
        started: bool,
        updated_ms: u64,
        now_ms: u64,
    ) -> Option<TimeLeft> {
        if !started {
            return None;
        }
        if self.days.is_some() {
            let deadline = self.deadline_ms?;
            return Some(TimeLeft {
                left_ms: deadline.saturating_sub(now_ms),
                deadline_ms: Some(deadline),
            });
        }
        self.clock?;
        let clocks = self.clocks?;
        let to_move = if plies % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let stored = *clocks.get(to_move);
        if plies < 2 {
            return Some(TimeLeft {
                left_ms: stored,
                deadline_ms: None,
            });
        }
        let since = now_ms.saturating_sub(updated_ms);
        Some(TimeLeft {
            left_ms: stored.saturating_sub(since),
            deadline_ms: Some(updated_ms.saturating_add(stored)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_of_each_kind_of_game() {
        let timed = GameTiming {
            clock: Some(ClockSpec {
                initial_ms: 60_000,
                increment_ms: 0,
            }),
            clocks: Some(ByColor::new(50_000, 40_000)),
            ..GameTiming::default()
        };
        // Black to move at ply 3, its clock running since 1,000.
        assert_eq!(
            timed.left(3, true, 1_000, 11_000),
            Some(TimeLeft {
                left_ms: 30_000,
                deadline_ms: Some(41_000)
            })
        );
        // Before both first moves no clock runs.
        assert_eq!(
            timed.left(1, true, 1_000, 11_000),
            Some(TimeLeft {
                left_ms: 40_000,
                deadline_ms: None
            })
        );
        assert_eq!(timed.left(3, true, 1_000, 100_000).unwrap().left_ms, 0);
        assert_eq!(timed.left(0, false, 0, 0), None);
        let days = GameTiming {
            days: Days::new(3),
            deadline_ms: Some(500_000),
            ..GameTiming::default()
        };
        assert_eq!(
            days.left(7, true, 0, 200_000),
            Some(TimeLeft {
                left_ms: 300_000,
                deadline_ms: Some(500_000)
            })
        );
        assert_eq!(GameTiming::default().left(4, true, 0, 0), None);
    }
}
