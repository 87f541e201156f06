//! [`Score`]: what a search says a position is worth, and the internal
//! value scale behind it.
//!
//! Inside the search a value is an `i32` in centipawns from the side to
//! move's point of view. Mates are encoded as `MATE - plies` (the side to
//! move mates) and `-(MATE - plies)` (it is mated), so a shorter mate is a
//! larger value; anything beyond [`MATE_BOUND`] in magnitude is a mate.

use core::fmt;

/// The value of giving mate now (internal scale).
pub(crate) const MATE: i32 = 32_000;
/// Values beyond this magnitude are mates.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any value a search returns.
pub(crate) const INFINITE: i32 = MATE + 1;

/// A position's worth for the side to move: centipawns, or a forced mate.
///
/// # Examples
///
/// ```
/// use hostage_engine::Score;
///
/// assert_eq!(Score::Cp(35).to_string(), "cp 35");
/// assert_eq!(Score::Mate(2).to_string(), "mate 2");
/// assert!(Score::Mate(3) > Score::Cp(900));
/// assert!(Score::Mate(1) > Score::Mate(3));
/// assert!(Score::Mate(-1) < Score::Cp(-900));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns (100 is about a pawn on the board).
    Cp(i32),
    /// Mate in this many moves (of the side to move): positive when the side
    /// to move mates, negative when it is mated, `0` when it is mated now.
    Mate(i32),
}

impl Score {
    /// From the internal value scale.
    #[must_use]
    pub(crate) fn from_value(value: i32) -> Score {
        if value > MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value < -MATE_BOUND {
            Score::Mate(-((MATE + value) / 2))
        } else {
            Score::Cp(value)
        }
    }

    /// The internal value (mates as `±(MATE - plies)`), for ordering.
    #[must_use]
    pub(crate) fn to_value(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
            Score::Mate(n) => -(MATE - 2 * -n),
        }
    }

    /// Whether this is a forced mate (either way).
    #[must_use]
    pub const fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> core::cmp::Ordering {
        self.to_value().cmp(&other.to_value())
    }
}

impl fmt::Display for Score {
    /// The UCI form: `cp 35` or `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// A mate value seen from the root, so that it can be stored in the
/// transposition table independently of the ply it was found at.
pub(crate) fn to_tt(value: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if value > MATE_BOUND {
        value + ply
    } else if value < -MATE_BOUND {
        value - ply
    } else {
        value
    }
}

/// The inverse of [`to_tt`].
pub(crate) fn from_tt(value: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if value > MATE_BOUND {
        value - ply
    } else if value < -MATE_BOUND {
        value + ply
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_read_in_moves() {
        // Mating with the next move: one ply away.
        assert_eq!(Score::from_value(MATE - 1), Score::Mate(1));
        // Our move, their move, our mating move: three plies, two moves.
        assert_eq!(Score::from_value(MATE - 3), Score::Mate(2));
        // Mated now, and mated after our move and theirs.
        assert_eq!(Score::from_value(-MATE), Score::Mate(0));
        assert_eq!(Score::from_value(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_value(57), Score::Cp(57));
    }

    #[test]
    fn to_value_inverts_from_value() {
        for v in [
            MATE - 1,
            MATE - 3,
            MATE - 9,
            -MATE,
            -(MATE - 2),
            -(MATE - 10),
            0,
            -300,
            450,
        ] {
            assert_eq!(Score::from_value(v).to_value(), v, "{v}");
        }
    }

    #[test]
    fn tt_adjustment_round_trips() {
        for v in [MATE - 5, -(MATE - 6), 120] {
            assert_eq!(from_tt(to_tt(v, 7), 7), v);
        }
    }
}
