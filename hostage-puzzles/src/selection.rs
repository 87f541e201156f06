//! Choosing the next puzzle for a player: unseen, near the player's
//! rating shifted by a difficulty, in a window that widens when the pool
//! runs thin.
//!
//! Policy: the target is the player's rating plus the difficulty's offset
//! (lichess's −600/−300/0/+300/+600). The window around the target is
//! `(100 + |1500 − target| / 4) · k` rating points for k = 1, 2, 3, 4
//! (lichess's widening rule for puzzle paths); the first window holding an
//! unseen puzzle wins, and among its puzzles `seed` picks one, so callers
//! get variety by passing a different seed each time and reproducibility
//! by passing the same. When even the widest window is empty the nearest
//! unseen puzzle is served, and `None` only when every puzzle was seen.
//! The library stores nothing: the caller passes the ids already seen.
//!
//! # Example
//!
//! ```
//! use std::collections::HashSet;
//! use hostage_puzzles::{puzzles, selection::{next_puzzle, Difficulty}};
//!
//! let mut seen = HashSet::new();
//! let a = next_puzzle(puzzles(), 1200.0, Difficulty::Normal, &seen, 1).expect("a puzzle");
//! assert!((f64::from(a.rating) - 1200.0).abs() <= 100.0 + 300.0 / 4.0);
//! seen.insert(a.id.clone());
//! let b = next_puzzle(puzzles(), 1200.0, Difficulty::Normal, &seen, 1).expect("another");
//! assert_ne!(a.id, b.id);
//! ```

use core::{fmt, str::FromStr};
use hostage_core::Excerpt;
use std::collections::HashSet;

use crate::record::Puzzle;

/// How hard a puzzle the player asks for, relative to their rating.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Difficulty {
    /// 600 below.
    Easiest,
    /// 300 below.
    Easier,
    /// At the player's rating.
    #[default]
    Normal,
    /// 300 above.
    Harder,
    /// 600 above.
    Hardest,
}

impl Difficulty {
    /// Every difficulty, easiest first.
    pub const ALL: [Difficulty; 5] = [
        Difficulty::Easiest,
        Difficulty::Easier,
        Difficulty::Normal,
        Difficulty::Harder,
        Difficulty::Hardest,
    ];

    /// The offset added to the player's rating.
    #[must_use]
    pub const fn offset(self) -> i32 {
        match self {
            Difficulty::Easiest => -600,
            Difficulty::Easier => -300,
            Difficulty::Normal => 0,
            Difficulty::Harder => 300,
            Difficulty::Hardest => 600,
        }
    }

    /// The lowercase name: `easiest`, `easier`, `normal`, `harder`,
    /// `hardest`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easiest => "easiest",
            Difficulty::Easier => "easier",
            Difficulty::Normal => "normal",
            Difficulty::Harder => "harder",
            Difficulty::Hardest => "hardest",
        }
    }
}

/// A difficulty name that is none of the five.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseDifficultyError {
    /// The text given (shortened if long).
    pub given: Excerpt,
}

impl ParseDifficultyError {
    /// `"invalid_difficulty"`, the stable code shared with the bindings.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "invalid_difficulty"
    }
}

impl fmt::Display for ParseDifficultyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid difficulty: {} (expected easiest, easier, normal, harder or hardest)",
            self.given
        )
    }
}

impl std::error::Error for ParseDifficultyError {}

impl FromStr for Difficulty {
    type Err = ParseDifficultyError;

    fn from_str(s: &str) -> Result<Difficulty, ParseDifficultyError> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseDifficultyError {
                given: Excerpt::new(s.as_bytes()),
            })
    }
}

/// The target rating for a player at `rating` asking for `difficulty`.
#[must_use]
pub fn target_rating(rating: f64, difficulty: Difficulty) -> f64 {
    let rating = if rating.is_finite() { rating } else { 1500.0 };
    rating + f64::from(difficulty.offset())
}

/// The half-width of the `k`-th window (k = 1..=4) around `target`.
#[must_use]
pub fn window(target: f64, k: u32) -> f64 {
    (100.0 + (1500.0 - target).abs() / 4.0) * f64::from(k)
}

/// The next puzzle for a player rated `rating`: unseen, in the first
/// window around the target that has one, chosen there by `seed`; else
/// the nearest unseen puzzle; `None` when all were seen.
#[must_use]
pub fn next_puzzle<'a>(
    puzzles: &'a [Puzzle],
    rating: f64,
    difficulty: Difficulty,
    seen: &HashSet<String>,
    seed: u64,
) -> Option<&'a Puzzle> {
    let target = target_rating(rating, difficulty);
    let unseen: Vec<&Puzzle> = puzzles.iter().filter(|p| !seen.contains(&p.id)).collect();
    let distance = |p: &Puzzle| (f64::from(p.rating) - target).abs();
    for k in 1..=4 {
        let w = window(target, k);
        let mut pool: Vec<&Puzzle> = unseen
            .iter()
            .copied()
            .filter(|p| distance(p) <= w)
            .collect();
        if !pool.is_empty() {
            pool.sort_by(|a, b| a.id.cmp(&b.id));
            let mut rng = hostage_engine::Rng::new(seed);
            return Some(pool[rng.below(pool.len() as u64) as usize]);
        }
    }
    unseen
        .into_iter()
        .min_by(|a, b| distance(a).total_cmp(&distance(b)).then(a.id.cmp(&b.id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake(id: &str, rating: u32) -> Puzzle {
        let mut p: Puzzle =
            "00c0ffee00,6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1,R@a8,800,200,mateIn1 dropMate,7,30,33333,1,300"
                .parse()
                .expect("record");
        p.id = id.to_string();
        p.rating = rating;
        p
    }

    #[test]
    fn nearest_window_first_then_widening() {
        let set = vec![fake("a", 800), fake("b", 1500), fake("c", 2000)];
        let none = HashSet::new();
        for seed in 0..20 {
            let p = next_puzzle(&set, 1480.0, Difficulty::Normal, &none, seed).expect("one");
            assert_eq!(p.id, "b");
        }
        let seen: HashSet<String> = ["b".to_string()].into();
        // 1480: windows 105, 210, 315, 420: nothing; the nearest is 2000
        // (520 away) rather than 800 (680 away).
        let p = next_puzzle(&set, 1480.0, Difficulty::Normal, &seen, 3).expect("one");
        assert_eq!(p.id, "c");
        let p = next_puzzle(&set, 1480.0, Difficulty::Easiest, &seen, 3).expect("one");
        assert_eq!(p.id, "a");
        let all: HashSet<String> = ["a", "b", "c"].map(String::from).into();
        assert!(next_puzzle(&set, 1480.0, Difficulty::Normal, &all, 3).is_none());
        assert!(next_puzzle(&set, f64::NAN, Difficulty::Normal, &none, 3).is_some());
    }

    #[test]
    fn difficulty_names() {
        for d in Difficulty::ALL {
            assert_eq!(d.name().parse::<Difficulty>(), Ok(d));
        }
        let e = "insane".parse::<Difficulty>().expect_err("bad");
        assert_eq!(e.code(), "invalid_difficulty");
        assert!(e.to_string().contains("insane"));
    }
}
