//! A simulation of players of known strength training on a puzzle set:
//! how close their Glicko-2 rating gets to their strength.
//!
//! Policy: a player of strength `s` solves a puzzle rated `r` with the
//! logistic (Elo) probability `1 / (1 + 10^((r − s)/400))`, taking the
//! puzzle's rating as its true difficulty. Each player starts as a new
//! player (1500 / 500 / 0.09), is served by [`crate::selection`] at the
//! normal difficulty, and is rated by [`crate::glicko::update_attempt`]
//! after each attempt. Strengths run from 800 to 2000 in steps of 100; the
//! random draws come from a fixed seed, so the report is reproducible.
//!
//! # Example
//!
//! ```
//! use hostage_puzzles::{puzzles, simulate::simulate};
//!
//! let report = simulate(puzzles(), 26, 30);
//! assert_eq!(report.errors.len(), 26);
//! ```

use core::fmt;
use std::collections::HashSet;

use hostage_engine::Rng;

use crate::{
    glicko::{update_attempt, Rating, DEFAULT_VOLATILITY},
    record::Puzzle,
    selection::{next_puzzle, Difficulty},
};

/// The strengths simulated, cycled through by player index.
pub const STRENGTHS: [f64; 13] = [
    800.0, 900.0, 1000.0, 1100.0, 1200.0, 1300.0, 1400.0, 1500.0, 1600.0, 1700.0, 1800.0, 1900.0,
    2000.0,
];

/// The outcome: each player's final |rating − strength|, and its median
/// and 90th percentile.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Report {
    /// Attempts per player.
    pub attempts: u32,
    /// (strength, final rating) per player.
    pub finals: Vec<(f64, f64)>,
    /// |final rating − strength|, sorted.
    pub errors: Vec<f64>,
    /// The median error.
    pub median: f64,
    /// The 90th-percentile error.
    pub p90: f64,
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    // Nearest rank.
    let rank = (q * sorted.len() as f64).ceil().max(1.0) as usize;
    sorted[rank.min(sorted.len()) - 1]
}

/// Simulates `players` players making `attempts` attempts each.
#[must_use]
pub fn simulate(puzzles: &[Puzzle], players: u32, attempts: u32) -> Report {
    let mut finals = Vec::new();
    for i in 0..players {
        let strength = STRENGTHS[i as usize % STRENGTHS.len()];
        let mut rng = Rng::new(0x5EED_0000 + u64::from(i));
        let mut rating = Rating::new_player();
        let mut seen = HashSet::new();
        for _ in 0..attempts {
            let Some(p) = next_puzzle(
                puzzles,
                rating.rating,
                Difficulty::Normal,
                &seen,
                rng.next_u64(),
            ) else {
                break;
            };
            let chance = 1.0 / (1.0 + 10f64.powf((f64::from(p.rating) - strength) / 400.0));
            let draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let puzzle = Rating {
                rating: f64::from(p.rating),
                deviation: f64::from(p.deviation),
                volatility: DEFAULT_VOLATILITY,
            };
            rating = update_attempt(rating, puzzle, draw < chance).0;
            seen.insert(p.id.clone());
        }
        finals.push((strength, rating.rating));
    }
    let mut errors: Vec<f64> = finals.iter().map(|(s, r)| (r - s).abs()).collect();
    errors.sort_by(f64::total_cmp);
    Report {
        attempts,
        median: percentile(&errors, 0.5),
        p90: percentile(&errors, 0.9),
        finals,
        errors,
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} players, {} attempts each: median |rating - strength| {:.1}, 90th percentile {:.1}",
            self.errors.len(),
            self.attempts,
            self.median,
            self.p90
        )
    }
}
