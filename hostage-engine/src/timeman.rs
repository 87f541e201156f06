//! Time management: how long to think on a clock.
//!
//! Policy. From the time left, the increment and the moves to the next
//! control ([`TimeControl`]) come two limits ([`TimeControl::budget`]):
//!
//! - a reserve of 5% of the time left plus 50 ms is never spent (the
//!   delay between the engine and the referee's clock, a machine too busy
//!   to run the search thread at once, and the moves that follow);
//! - the **soft** limit, the time a move should take: what is left after
//!   the reserve shared over the moves to go (30 when not given), plus
//!   three quarters of the increment, never more than what is left;
//! - the **hard** limit, which no search passes: four times the soft
//!   limit, at most a third of what is left after the reserve (all of it on
//!   the last move before the control), never below the soft limit.
//!
//! The search checks the hard limit while it runs, and the soft one after
//! each completed iteration ([`TimeManager::iteration_done`]): it starts no
//! new iteration once half the soft limit, scaled, has passed (an
//! iteration costs about as much as all before it). The scale grows when
//! the best move keeps changing (up to 2×: each change counts 1, halving
//! at every iteration) and when the score falls (up to 2× for a fall of a
//! pawn or more since the first iterations), so the engine thinks longer
//! when its plan is in doubt; and it shrinks to 0.6× while the best move
//! and score stay put. A position with one legal move is answered after the
//! first iteration. The shape (soft and hard limits, best-move instability
//! and a falling evaluation) is Stockfish's `timeman.cpp` and `search.cpp`;
//! the numbers here are this engine's own.

use core::time::Duration;

use hostage_core::Move;

/// One side's clock at a `go`: UCI `wtime`/`btime`, `winc`/`binc` and
/// `movestogo`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimeControl {
    /// The time left on the clock.
    pub remaining: Duration,
    /// The time added after each move.
    pub increment: Duration,
    /// Moves to the next time control; `None` for the rest of the game.
    pub movestogo: Option<u32>,
}

/// The two limits of a move (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimeBudget {
    /// The time the move should take; iterations stop around it.
    pub soft: Duration,
    /// The time the move never takes.
    pub hard: Duration,
}

/// The moves assumed to remain when `movestogo` is not given.
const DEFAULT_MOVES_TO_GO: u32 = 30;

impl TimeControl {
    /// A clock with `remaining` and `increment` for the rest of the game.
    #[must_use]
    pub fn new(remaining: Duration, increment: Duration) -> TimeControl {
        TimeControl {
            remaining,
            increment,
            movestogo: None,
        }
    }

    /// The same clock with `n` moves to go to the next time control
    /// (UCI's `movestogo`).
    #[must_use]
    pub const fn with_movestogo(mut self, n: u32) -> TimeControl {
        self.movestogo = Some(n);
        self
    }

    /// The limits of the next move.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use hostage_engine::TimeControl;
    ///
    /// let ms = Duration::from_millis;
    /// // 1 s + 0.1 s: left after the reserve 1000 - 50 - 50 = 900 ms;
    /// // soft 900/30 + 75 = 105 ms, hard min(4 x 105, 900/3) = 300 ms.
    /// let b = TimeControl::new(ms(1_000), ms(100)).budget();
    /// assert_eq!((b.soft, b.hard), (ms(105), ms(300)));
    /// // The last move before the control may use all but the reserve.
    /// let last = TimeControl::new(ms(1_000), ms(0)).with_movestogo(1);
    /// assert_eq!(last.budget().hard, ms(900));
    /// ```
    #[must_use]
    pub fn budget(&self) -> TimeBudget {
        let ms = Duration::from_millis;
        let reserve = self.remaining / 20 + ms(50);
        let available = self.remaining.saturating_sub(reserve);
        let moves = self.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 100);
        let soft = (available / moves + self.increment * 3 / 4)
            .min(available)
            .max(ms(1));
        let cap = if moves == 1 { available } else { available / 3 };
        let hard = (soft * 4).min(cap).max(soft);
        // Whole milliseconds: the unit of UCI and of the examples.
        let whole = |d: Duration| ms(d.as_millis() as u64);
        TimeBudget {
            soft: whole(soft),
            hard: whole(hard),
        }
    }
}

/// The clock's judge during one search.
#[derive(Clone, Debug)]
pub(crate) struct TimeManager {
    budget: TimeBudget,
    best: Option<Move>,
    /// Best-move changes, halved every iteration.
    changes: f64,
    /// The score of the first iterations (depth 1 to 4), the reference for
    /// a fall.
    reference: Option<i32>,
    iterations: u32,
}

impl TimeManager {
    // Made by `Engine::go` (native only).
    #[cfg_attr(target_family = "wasm", allow(dead_code))]
    pub(crate) fn new(budget: TimeBudget) -> TimeManager {
        TimeManager {
            budget,
            best: None,
            changes: 0.0,
            reference: None,
            iterations: 0,
        }
    }

    /// The hard limit.
    pub(crate) fn hard(&self) -> Duration {
        self.budget.hard
    }

    /// An iteration ended with `best` scoring `value` (centipawns, internal
    /// scale) after `elapsed`: whether to stop now.
    pub(crate) fn iteration_done(&mut self, best: Move, value: i32, elapsed: Duration) -> bool {
        self.iterations += 1;
        self.changes /= 2.0;
        if self.best.is_some_and(|b| b != best) {
            self.changes += 1.0;
        }
        self.best = Some(best);
        if self.iterations <= 4 {
            // The first iterations are cheap; their mean is the reference.
            let r = self.reference.get_or_insert(value);
            *r = (*r + value) / 2;
        }
        let fall = self.reference.map_or(0, |r| (r - value).clamp(0, 100));
        let instability = 1.0 + self.changes.min(1.0);
        let falling = 1.0 + f64::from(fall) / 100.0;
        let scale = if self.changes < 0.1 && fall == 0 {
            0.6
        } else {
            instability * falling
        }
        .min(2.0);
        let target = self.budget.soft.mul_f64(scale / 2.0);
        elapsed >= target
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hostage_core::{Role, Square};

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn limits_stay_inside_the_clock() {
        for remaining in [0, 1, 10, 50, 100, 1_000, 60_000, 3_600_000] {
            for inc in [0, 100, 2_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let tc = TimeControl {
                        remaining: ms(remaining),
                        increment: ms(inc),
                        movestogo: mtg,
                    };
                    let b = tc.budget();
                    assert!(b.soft <= b.hard, "{tc:?} {b:?}");
                    // Never more than the clock holds (1 ms is the floor
                    // when nothing is left).
                    assert!(b.hard <= ms(remaining).max(ms(1)), "{tc:?} {b:?}");
                    assert!(b.soft >= ms(1));
                }
            }
        }
    }

    #[test]
    fn more_time_and_increment_give_a_longer_move() {
        let short = TimeControl::new(ms(10_000), ms(0)).budget();
        let long = TimeControl::new(ms(60_000), ms(0)).budget();
        let inc = TimeControl::new(ms(10_000), ms(1_000)).budget();
        assert!(long.soft > short.soft);
        assert!(inc.soft > short.soft);
        assert_eq!(long.soft, ms((60_000 - 3_000 - 50) / 30));
    }

    fn drop(to: Square) -> Move {
        Move::Drop {
            role: Role::Knight,
            to,
        }
    }

    /// The elapsed time at which a manager given `values` and `moves`
    /// (per iteration, iterations 50 ms apart) stops.
    fn stop_time(moves: &[Move], values: &[i32]) -> Option<u64> {
        let mut tm = TimeManager::new(TimeBudget {
            soft: ms(1_000),
            hard: ms(4_000),
        });
        for (i, (&m, &v)) in moves.iter().zip(values).enumerate() {
            let t = 50 * (i as u64 + 1);
            if tm.iteration_done(m, v, ms(t)) {
                return Some(t);
            }
        }
        None
    }

    #[test]
    fn a_changing_best_move_or_a_falling_score_thinks_longer() {
        let a = drop(Square::E4);
        let b = drop(Square::D4);
        let n = 40;
        let steady = stop_time(&vec![a; n], &vec![20; n]).expect("stops");
        let changing: Vec<Move> = (0..n).map(|i| if i % 2 == 0 { a } else { b }).collect();
        let unstable = stop_time(&changing, &vec![20; n]).expect("stops");
        let values: Vec<i32> = (0..n).map(|i| if i < 4 { 20 } else { -200 }).collect();
        let falling = stop_time(&vec![a; n], &values).expect("stops");
        // Steady: 0.6 x 1000 / 2 = 300 ms.
        assert_eq!(steady, 300);
        assert!(unstable > steady, "{unstable} vs {steady}");
        assert!(falling > steady, "{falling} vs {steady}");
        assert!(falling <= 1_000 && unstable <= 1_000);
    }
}
