//! [`Level`]: the five bots, from Novice to Club, each a fixed recipe.
//!
//! A level searches like the full engine but shallower and on a smaller
//! node budget, and at the root it learns the exact value of every move
//! within its *margin* of the best. It then draws one of those moves with
//! the seeded random generator, each with a weight that halves for every
//! [`Recipe::halving`] centipawns it is worse than the best. A forced mate
//! is worth more than any margin, so a level that sees a mate plays it.
//! What a level overlooks follows from its depth: Novice and Beginner (one
//! ply and the captures after it) never see the opponent's reply drop or
//! exchange, so they walk into drop mates; Casual sees replies but not its
//! own follow-up; Intermediate sees three plies; Club searches as deep as
//! its node budget allows. The lower levels also play looser moves: the
//! wider the margin and the longer the halving distance, the more often a
//! weaker move is drawn.
//!
//! The transposition table is cleared and sized by the recipe before each
//! move, so the same position, history, level and seed give the same move
//! on every platform (Rust, Python, WebAssembly).
//!
//! The ratings shown for the levels are labels, chosen as configuration;
//! what was measured is in `docs/engine.md` (the ladder).

use core::{fmt, str::FromStr};

/// A bot level.
///
/// # Examples
///
/// ```
/// use hostage_engine::Level;
///
/// let level: Level = "casual".parse()?;
/// assert_eq!(level, Level::Casual);
/// assert_eq!(level.name(), "casual");
/// assert!(Level::Club.recipe().nodes > Level::Novice.recipe().nodes);
/// # Ok::<_, hostage_engine::ParseLevelError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Level {
    /// Sees its own move and the captures that follow; plays loosely.
    Novice,
    /// Sees as far as Novice, but rarely plays a move much worse than its
    /// best.
    Beginner,
    /// Sees the reply.
    Casual,
    /// Sees its own next move after the reply.
    Intermediate,
    /// The full search on a budget of well under a second natively.
    Club,
}

/// How a level plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Recipe {
    /// Node budget per move.
    pub nodes: u64,
    /// Depth cap (plies of iterative deepening).
    pub depth: u32,
    /// Moves within this many centipawns of the best are candidates.
    pub margin: i32,
    /// A candidate's weight halves for every this many centipawns it is
    /// worse than the best.
    pub halving: i32,
    /// Transposition table size, MiB (fixed so the move is reproducible).
    pub hash_mb: usize,
    /// The rating label shown for the level (configuration, not a
    /// measurement).
    pub rating: u32,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Novice,
        Level::Beginner,
        Level::Casual,
        Level::Intermediate,
        Level::Club,
    ];

    /// The lowercase name: `novice`, `beginner`, `casual`, `intermediate`,
    /// `club`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Level::Novice => "novice",
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Intermediate => "intermediate",
            Level::Club => "club",
        }
    }

    /// The level's recipe (see `docs/engine.md` for why these numbers).
    #[must_use]
    pub const fn recipe(self) -> Recipe {
        match self {
            // Each step was set by matches against the level below
            // (docs/engine.md, "The ladder").
            Level::Novice => Recipe {
                nodes: 20_000,
                depth: 1,
                margin: 400,
                halving: 150,
                hash_mb: 2,
                rating: 800,
            },
            Level::Beginner => Recipe {
                nodes: 20_000,
                depth: 1,
                margin: 150,
                halving: 40,
                hash_mb: 2,
                rating: 1100,
            },
            Level::Casual => Recipe {
                nodes: 40_000,
                depth: 2,
                margin: 200,
                halving: 60,
                hash_mb: 2,
                rating: 1400,
            },
            Level::Intermediate => Recipe {
                nodes: 60_000,
                depth: 3,
                margin: 250,
                halving: 80,
                hash_mb: 2,
                rating: 1700,
            },
            Level::Club => Recipe {
                // Under half a second natively, under two in a browser
                // (docs/engine.md, "Cost").
                nodes: 750_000,
                depth: 64,
                margin: 10,
                halving: 4,
                hash_mb: 8,
                rating: 2000,
            },
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is none of the five.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseLevelError {
    given: alloc::string::String,
}

impl ParseLevelError {
    /// `"invalid_level"`, the stable code shared with the bindings.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        "invalid_level"
    }
}

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid level: {} (expected novice, beginner, casual, intermediate or club)",
            hostage_core::Excerpt::new(self.given.as_bytes())
        )
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;

    /// Reads a level name, case-insensitively.
    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| ParseLevelError { given: s.into() })
    }
}

/// Weights 2^(-k/16)·65536 for k = 0..=255, computed in integers so that
/// every platform draws the same move (no floating point).
const fn halving_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut w: u64 = 65_536 << 16;
    let mut k = 0;
    while k < 256 {
        t[k] = (w >> 16) as u32;
        // 2^(-1/16) ≈ 0.957603, as 62757/65536.
        w = w * 62_757 / 65_536;
        k += 1;
    }
    t
}

const HALVING: [u32; 256] = halving_table();

/// The weight of a candidate `behind` centipawns worse than the best.
pub(crate) fn weight(behind: i32, halving: i32) -> u32 {
    let steps = (i64::from(behind.max(0)) * 16 / i64::from(halving.max(1))).min(255);
    HALVING[steps as usize].max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
        }
        assert_eq!("CLUB".parse::<Level>(), Ok(Level::Club));
        let err = "grandmaster".parse::<Level>().expect_err("not a level");
        assert_eq!(err.code(), "invalid_level");
        assert!(err.to_string().contains("grandmaster"));
    }

    #[test]
    fn weights_halve_every_halving_step() {
        assert_eq!(weight(0, 100), 65_536);
        // One halving step back: half the weight, within rounding.
        let half = weight(100, 100);
        assert!((32_700..=32_800).contains(&half), "{half}");
        let quarter = weight(200, 100);
        assert!((16_300..=16_430).contains(&quarter), "{quarter}");
        assert!(weight(10_000, 100) >= 1);
    }

    #[test]
    fn recipes_search_no_less_deeply_up_the_ladder() {
        for pair in Level::ALL.windows(2) {
            let (a, b) = (pair[0].recipe(), pair[1].recipe());
            assert!(b.nodes >= a.nodes && b.depth >= a.depth, "{pair:?}");
            assert!(b.rating > a.rating && a != b, "{pair:?}");
        }
        // Club is the one level that searches as deep as its budget allows.
        assert_eq!(Level::Club.recipe().depth, crate::MAX_DEPTH);
    }
}
