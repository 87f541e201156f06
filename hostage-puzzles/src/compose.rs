//! The composition of a puzzle set: counts per rating band and theme, the
//! share of mates and of Hostage mechanics, and a deterministic selection
//! that meets the targets.
//!
//! Policy: the targets are at least [`MIN_PER_BAND`] puzzles in each
//! 200-point band from 800 to 2000 (the last band includes 2000), mates
//! between 30% and 50% of the set, no theme in more than 40% of it, and at
//! least 40% of the solutions using a Hostage mechanic. [`select`] walks
//! the candidates, the scarcest band first and by id within a band (ids
//! are hashes, so this is an unbiased but reproducible order), three times, taking a puzzle when no cap would be
//! passed (mates ≤ 45% ([`TARGET_MATE_SHARE`]), non-mates ≤ 70%, each theme ≤ 40%, puzzles
//! without a Hostage mechanic ≤ 60%): first only puzzles with a Hostage
//! mechanic, the scarcer kind, while their band is under its quota (a
//! sixth of the set), then any puzzle under the quota, then any puzzle.
//!
//! # Example
//!
//! ```
//! use hostage_puzzles::{compose::Composition, puzzles};
//!
//! let c = Composition::of(puzzles());
//! assert!(c.meets_targets(), "{c}");
//! ```

use core::fmt;
use std::collections::BTreeMap;

use crate::{record::Puzzle, themes::NAMES};

/// The lower edges of the six rating bands (800–2000).
pub const BANDS: [u32; 6] = [800, 1000, 1200, 1400, 1600, 1800];
/// The least number of puzzles per band.
pub const MIN_PER_BAND: usize = 40;
/// The least share of mates.
pub const MIN_MATE_SHARE: f64 = 0.30;
/// The greatest share of mates.
pub const MAX_MATE_SHARE: f64 = 0.50;
/// The greatest share of any theme.
pub const MAX_THEME_SHARE: f64 = 0.40;
/// The share of mates [`select`] aims at: inside the bounds with room to
/// spare, so that the set stays within them if a few puzzles are dropped.
pub const TARGET_MATE_SHARE: f64 = 0.45;
/// The least share of solutions using a Hostage mechanic.
pub const MIN_HOSTAGE_SHARE: f64 = 0.40;

/// The band index of a rating (`None` outside 800–2000).
#[must_use]
pub fn band(rating: u32) -> Option<usize> {
    match rating {
        800..=1999 => Some(((rating - 800) / 200) as usize),
        2000 => Some(5),
        _ => None,
    }
}

/// Counts over a set of puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Composition {
    /// Puzzles in the set.
    pub total: usize,
    /// Puzzles per band ([`BANDS`]).
    pub bands: [usize; 6],
    /// Puzzles outside 800–2000.
    pub outside: usize,
    /// Mates.
    pub mates: usize,
    /// Solutions using a Hostage mechanic.
    pub hostage: usize,
    /// Puzzles per theme name.
    pub themes: BTreeMap<&'static str, usize>,
}

impl Composition {
    /// The composition of `puzzles`.
    #[must_use]
    pub fn of(puzzles: &[Puzzle]) -> Composition {
        let mut c = Composition {
            total: 0,
            bands: [0; 6],
            outside: 0,
            mates: 0,
            hostage: 0,
            themes: NAMES.iter().map(|&n| (n, 0)).collect(),
        };
        for p in puzzles {
            c.add(p);
        }
        c
    }

    /// Counts one more puzzle.
    pub fn add(&mut self, p: &Puzzle) {
        self.total += 1;
        match band(p.rating) {
            Some(b) => self.bands[b] += 1,
            None => self.outside += 1,
        }
        self.mates += usize::from(p.is_mate());
        self.hostage += usize::from(p.uses_hostage_mechanic());
        for t in &p.themes {
            *self.themes.entry(t.name()).or_default() += 1;
        }
    }

    fn share(&self, n: usize) -> f64 {
        n as f64 / self.total.max(1) as f64
    }

    /// Whether the set meets every target of the module policy (and has
    /// at least 500 puzzles).
    #[must_use]
    pub fn meets_targets(&self) -> bool {
        self.total >= 500
            && self.bands.iter().all(|&b| b >= MIN_PER_BAND)
            && (MIN_MATE_SHARE..=MAX_MATE_SHARE).contains(&self.share(self.mates))
            && self
                .themes
                .values()
                .all(|&n| self.share(n) <= MAX_THEME_SHARE)
            && self.share(self.hostage) >= MIN_HOSTAGE_SHARE
    }
}

impl fmt::Display for Composition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "total {}", self.total)?;
        for (lo, n) in BANDS.iter().zip(self.bands) {
            writeln!(f, "band {lo}-{}: {n}", lo + 200)?;
        }
        writeln!(f, "outside 800-2000: {}", self.outside)?;
        writeln!(
            f,
            "mates: {} ({:.1}%)",
            self.mates,
            100.0 * self.share(self.mates)
        )?;
        writeln!(
            f,
            "hostage mechanics: {} ({:.1}%)",
            self.hostage,
            100.0 * self.share(self.hostage)
        )?;
        for (name, n) in &self.themes {
            writeln!(f, "theme {name}: {n} ({:.1}%)", 100.0 * self.share(*n))?;
        }
        write!(f, "meets targets: {}", self.meets_targets())
    }
}

/// Selects up to `count` puzzles from `candidates` (taken in id order) to
/// meet the composition targets for a set of `count`.
#[must_use]
pub fn select(candidates: &[Puzzle], count: usize) -> Vec<Puzzle> {
    // The scarcest band first, so that its puzzles are not crowded out by
    // the caps; within a band, id order.
    let available = Composition::of(candidates);
    let scarcity = |p: &Puzzle| band(p.rating).map_or(usize::MAX, |b| available.bands[b]);
    let mut order: Vec<&Puzzle> = candidates.iter().collect();
    order.sort_by(|a, b| scarcity(a).cmp(&scarcity(b)).then_with(|| a.id.cmp(&b.id)));
    let cap = |share: f64| (share * count as f64).floor() as usize;
    let band_quota = count.div_ceil(BANDS.len());
    let mut chosen: Vec<&Puzzle> = Vec::new();
    let mut c = Composition::of(&[]);
    let mut taken = vec![false; order.len()];
    for (hostage_only, with_quota) in [(true, true), (false, true), (false, false)] {
        for (i, p) in order.iter().enumerate() {
            if chosen.len() >= count || taken[i] || (hostage_only && !p.uses_hostage_mechanic()) {
                continue;
            }
            let band_ok = match band(p.rating) {
                Some(b) => !with_quota || c.bands[b] < band_quota,
                None => !with_quota,
            };
            let mate_ok = if p.is_mate() {
                c.mates < cap(TARGET_MATE_SHARE)
            } else {
                c.total - c.mates < count - cap(MIN_MATE_SHARE).max(1)
            };
            let hostage_ok = p.uses_hostage_mechanic()
                || c.total - c.hostage < count - cap(MIN_HOSTAGE_SHARE).max(1);
            let themes_ok = p
                .themes
                .iter()
                .all(|t| c.themes.get(t.name()).copied().unwrap_or(0) < cap(MAX_THEME_SHARE));
            if band_ok && mate_ok && hostage_ok && themes_ok {
                chosen.push(p);
                c.add(p);
                taken[i] = true;
            }
        }
    }
    chosen.into_iter().cloned().collect()
}
