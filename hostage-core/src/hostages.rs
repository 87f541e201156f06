//! Prisons and airfields (R2, R3): how many men of each role wait there.
//!
//! Both are a [`Reserve`], a count per role. The names say whose men they
//! hold, and the difference matters everywhere:
//!
//! - `prison(color)` is **`color`'s prison**: it holds the *enemy* men that
//!   `color` captured (R2). White's prison holds only black men.
//! - `airfield(color)` is **`color`'s airfield**: it holds `color`'s *own* men
//!   that the opponent released in an exchange (R3).
//!
//! So `color`'s pawns promote from `prison(!color)` (R7), and `color`'s
//! pawns on the 7th rank are frozen when `prison(!color)` holds none of
//! `color`'s queens, rooks, bishops or knights (R8).

use core::fmt;

use crate::Role;

/// A count of men per role, for a prison or an airfield.
///
/// A `Reserve` can count kings so that a [`crate::Setup`] can describe any
/// input; [`crate::Position`] rejects a king in a prison or an airfield (R4).
///
/// # Examples
///
/// ```
/// use hostage_core::{Reserve, Role};
///
/// let mut prison = Reserve::EMPTY;
/// prison.add(Role::Knight);
/// prison.add(Role::Knight);
/// assert_eq!(prison.count(Role::Knight), 2);
/// assert_eq!(prison.total(), 2);
/// assert!(prison.remove(Role::Knight));
/// assert!(!prison.remove(Role::Queen));
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
// Indexed P N B R Q K; the last two bytes stay zero. Eight bytes rather than
// six so that a `Position` (four reserves) is copied in whole words: perft
// and search clone one per move played.
pub struct Reserve([u8; 8]);

impl Reserve {
    /// Holds nothing.
    pub const EMPTY: Reserve = Reserve([0; 8]);

    /// How many men of `role` are held.
    #[inline]
    #[must_use]
    pub const fn count(&self, role: Role) -> u8 {
        self.0[role.index()]
    }

    /// Whether at least one man of `role` is held.
    #[inline]
    #[must_use]
    pub const fn has(&self, role: Role) -> bool {
        self.0[role.index()] > 0
    }

    /// Sets the count of `role`.
    pub fn set(&mut self, role: Role, count: u8) {
        self.0[role.index()] = count;
    }

    /// Adds one man of `role` (saturating at 255).
    #[inline]
    pub fn add(&mut self, role: Role) {
        let slot = &mut self.0[role.index()];
        *slot = slot.saturating_add(1);
    }

    /// Takes one man of `role` out; `false` (and no change) if none is held.
    #[inline]
    pub fn remove(&mut self, role: Role) -> bool {
        let slot = &mut self.0[role.index()];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        true
    }

    /// Adds one man of `role` (saturating at 255) and returns the new count:
    /// the level of its Zobrist key.
    #[inline]
    pub(crate) fn push(&mut self, role: Role) -> u8 {
        let slot = &mut self.0[role.index()];
        *slot = slot.saturating_add(1);
        *slot
    }

    /// Takes one man of `role` out and returns the count before: the level
    /// of its Zobrist key (0, and no change, if none is held).
    #[inline]
    pub(crate) fn take(&mut self, role: Role) -> u8 {
        let slot = &mut self.0[role.index()];
        let count = *slot;
        *slot = count.saturating_sub(1);
        count
    }

    /// How many men are held in all.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// Whether nothing is held.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 8]
    }

    /// Whether a queen, rook, bishop or knight is held: for `prison(!color)`,
    /// whether `color`'s pawns can promote (R7) rather than being frozen (R8).
    #[inline]
    #[must_use]
    pub const fn has_promotion_piece(&self) -> bool {
        // Index order is P N B R Q K: knights to queens.
        self.0[1] | self.0[2] | self.0[3] | self.0[4] != 0
    }

    /// The roles held at least once, in the order Q R B N P (then K).
    pub fn roles(&self) -> impl Iterator<Item = Role> + '_ {
        Role::HOSTAGES
            .into_iter()
            .chain([Role::King])
            .filter(|&r| self.has(r))
    }

    /// `(role, count)` for every role held, in the order Q R B N P (then K).
    pub fn iter(&self) -> impl Iterator<Item = (Role, u8)> + '_ {
        self.roles().map(|r| (r, self.count(r)))
    }
}

impl fmt::Debug for Reserve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reserve(")?;
        for (role, n) in self.iter() {
            for _ in 0..n {
                write!(f, "{}", role.upper_char())?;
            }
        }
        f.write_str(")")
    }
}
