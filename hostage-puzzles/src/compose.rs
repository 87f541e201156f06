//! The composition of a puzzle set: counts per rating band and theme, the
//! share of mates and of Hostage mechanics, and a deterministic selection
//! that meets the targets.
//!
//! Policy: the targets are at least [`MIN_TOTAL`] puzzles, at least
//! [`MIN_PER_BAND`] in each 200-point band from 800 to 2000 (the last band
//! includes 2000) and at least [`MIN_ABOVE_TOP`] rated above 2000, mates
//! between 30% and 50% of the set, no theme in more than 40% of it, and at
//! least 40% of the solutions using a Hostage mechanic.
//!
//! [`select`] treats "above 2000" as a seventh band (its own [`Tier`]) and
//! walks the candidates tier by tier, the scarcest tier first and by id
//! within a tier (ids are hashes, so this is an unbiased but reproducible
//! order), taking a puzzle when no cap would be passed (mates ≤ 45%
//! ([`TARGET_MATE_SHARE`]), non-mates ≤ 70%, each theme ≤ 40%, puzzles
//! without a Hostage mechanic ≤ 60%): in each tier first only puzzles with
//! a Hostage mechanic, the scarcer kind, then any puzzle, while the tier is
//! under its limit: in a first round the floor ([`FLOOR_PER_BAND`],
//! [`FLOOR_ABOVE_TOP`]: the minimum and a fifth), in a second the quota; a
//! last walk over all tiers fills the set with any puzzle. Going tier by
//! tier, floors first, keeps an abundant tier from using up the mate or
//! theme caps before a scarce one has its minimum with slack. The
//! quota above 2000 is [`ABOVE_TOP_SHARE`] of the set and each band's a
//! sixth of the rest, so that the top keeps a place in a set whose bands
//! could fill it alone, without taking over a set meant for players of
//! 800–2000.
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
/// The top of the last band: ratings above it are "above the top".
pub const TOP: u32 = 2000;
/// The least number of puzzles in a set.
pub const MIN_TOTAL: usize = 1000;
/// The least number of puzzles per band.
pub const MIN_PER_BAND: usize = 100;
/// The least number of puzzles rated above [`TOP`] (a few for the
/// strongest players and the harder difficulties).
pub const MIN_ABOVE_TOP: usize = 20;
/// The share of the set [`select`] reserves for puzzles rated above
/// [`TOP`] in its quota passes (5%: 57 of 1,150), enough to meet
/// [`MIN_ABOVE_TOP`] with room to spare.
pub const ABOVE_TOP_SHARE: f64 = 0.05;
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

/// How many puzzles [`select`] gives each band before any band gets more:
/// [`MIN_PER_BAND`] and a fifth, the slack for puzzles a later
/// re-verification may drop.
pub const FLOOR_PER_BAND: usize = MIN_PER_BAND + MIN_PER_BAND / 5;
/// The same floor above [`TOP`].
pub const FLOOR_ABOVE_TOP: usize = MIN_ABOVE_TOP + MIN_ABOVE_TOP / 5;

/// Which limit a pass of [`select`] puts on a tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quota {
    /// Up to the floor ([`FLOOR_PER_BAND`], [`FLOOR_ABOVE_TOP`]).
    Floor,
    /// Up to the tier's quota.
    Full,
    /// No limit.
    None,
}

/// The band index of a rating (`None` outside 800–2000).
#[must_use]
pub fn band(rating: u32) -> Option<usize> {
    match rating {
        800..=1999 => Some(((rating - 800) / 200) as usize),
        TOP => Some(5),
        _ => None,
    }
}

/// Where a rating falls for the composition: a band, above the top, or
/// below the first band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Tier {
    /// Below 800 (the initial ratings never are; a record may be).
    Below,
    /// In band `i` of [`BANDS`].
    Band(usize),
    /// Above [`TOP`].
    AboveTop,
}

impl Tier {
    /// The tier of a rating.
    #[must_use]
    pub fn of(rating: u32) -> Tier {
        match band(rating) {
            Some(b) => Tier::Band(b),
            None if rating > TOP => Tier::AboveTop,
            None => Tier::Below,
        }
    }
}

/// Counts over a set of puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Composition {
    /// Puzzles in the set.
    pub total: usize,
    /// Puzzles per band ([`BANDS`]).
    pub bands: [usize; 6],
    /// Puzzles rated above [`TOP`].
    pub above_top: usize,
    /// Puzzles rated below 800.
    pub below: usize,
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
            above_top: 0,
            below: 0,
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
        match Tier::of(p.rating) {
            Tier::Band(b) => self.bands[b] += 1,
            Tier::AboveTop => self.above_top += 1,
            Tier::Below => self.below += 1,
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

    /// Whether the set meets every target of the module policy.
    #[must_use]
    pub fn meets_targets(&self) -> bool {
        self.total >= MIN_TOTAL
            && self.bands.iter().all(|&b| b >= MIN_PER_BAND)
            && self.above_top >= MIN_ABOVE_TOP
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
        writeln!(f, "above {TOP}: {}", self.above_top)?;
        writeln!(f, "below 800: {}", self.below)?;
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

/// Selects up to `count` puzzles from `candidates` to meet the composition
/// targets for a set of `count` (the module policy), in the order taken:
/// tier by tier, by id within a tier. The result depends only on the
/// candidates as a set (ids being unique), not on their order.
#[must_use]
pub fn select(candidates: &[Puzzle], count: usize) -> Vec<Puzzle> {
    // The scarcest tier first, so that its puzzles are not crowded out by
    // the caps; within a tier, id order. Below 800 comes last.
    let available = Composition::of(candidates);
    let rank = |p: &Puzzle| match Tier::of(p.rating) {
        Tier::Band(b) => (available.bands[b], b),
        Tier::AboveTop => (available.above_top, BANDS.len()),
        Tier::Below => (usize::MAX, usize::MAX),
    };
    let mut order: Vec<&Puzzle> = candidates.iter().collect();
    order.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.id.cmp(&b.id)));
    // The quota passes go tier by tier (the Hostage mechanics first within
    // a tier), so that an abundant tier cannot use up the mate or theme
    // caps before a scarce one is served: a first round up to each tier's
    // floor, a second up to its quota; the last pass fills the set.
    let mut tiers: Vec<core::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let tier = rank(order[start]);
        let end = start
            + order[start..]
                .iter()
                .take_while(|p| rank(p) == tier)
                .count();
        tiers.push(start..end);
        start = end;
    }
    let mut passes: Vec<(core::ops::Range<usize>, bool, Quota)> = Vec::new();
    for quota in [Quota::Floor, Quota::Full] {
        for range in &tiers {
            passes.push((range.clone(), true, quota));
            passes.push((range.clone(), false, quota));
        }
    }
    passes.push((0..order.len(), false, Quota::None));
    let cap = |share: f64| (share * count as f64).floor() as usize;
    // The quotas add up to the count, so that the top keeps its share
    // even when every band could fill its own quota.
    let top_quota = (ABOVE_TOP_SHARE * count as f64).ceil() as usize;
    let band_quota = (count - top_quota.min(count)).div_ceil(BANDS.len());
    let limit = |quota: Quota, tier: Tier| match (quota, tier) {
        (Quota::None, _) => usize::MAX,
        (_, Tier::Below) => 0,
        (Quota::Floor, Tier::Band(_)) => band_quota.min(FLOOR_PER_BAND),
        (Quota::Floor, Tier::AboveTop) => top_quota.min(FLOOR_ABOVE_TOP),
        (Quota::Full, Tier::Band(_)) => band_quota,
        (Quota::Full, Tier::AboveTop) => top_quota,
    };
    let mut chosen: Vec<&Puzzle> = Vec::new();
    let mut c = Composition::of(&[]);
    let mut taken = vec![false; order.len()];
    for (range, hostage_only, quota) in passes {
        for i in range {
            let p = order[i];
            if chosen.len() >= count || taken[i] || (hostage_only && !p.uses_hostage_mechanic()) {
                continue;
            }
            let tier = Tier::of(p.rating);
            let in_tier = match tier {
                Tier::Band(b) => c.bands[b],
                Tier::AboveTop => c.above_top,
                Tier::Below => c.below,
            };
            let tier_ok = in_tier < limit(quota, tier);
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
            if tier_ok && mate_ok && hostage_ok && themes_ok {
                chosen.push(p);
                c.add(p);
                taken[i] = true;
            }
        }
    }
    chosen.into_iter().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten theme lists used in turn: 40% mates, 60% with a Hostage
    /// mechanic, no theme above 20%, so any even mix meets the shares.
    const THEMES: [&str; 10] = [
        "mateIn1 exchangeMate",
        "mateIn2 dropMate",
        "mateIn1",
        "mateIn3 exchangeMate",
        "fork",
        "pin rescue",
        "hangingPiece",
        "airfieldDrop sacrifice",
        "fork frozenPawn",
        "pin",
    ];

    /// A synthetic candidate: only id, rating and themes matter here.
    fn puzzle(n: usize, rating: u32) -> Puzzle {
        format!(
            "{n:010x},6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1,R@a8,{rating},200,{},7,30,33333,1,300",
            THEMES[n % THEMES.len()]
        )
        .parse()
        .expect("a good record")
    }

    /// `per_band` candidates in each band (spread over the band) and
    /// `above` rated above the top, with distinct ids.
    fn candidates(per_band: usize, above: usize) -> Vec<Puzzle> {
        let mut out = Vec::new();
        for lo in BANDS {
            for i in 0..per_band {
                out.push(puzzle(out.len(), lo + (i % 200) as u32));
            }
        }
        for i in 0..above {
            out.push(puzzle(out.len(), TOP + 1 + (i % 400) as u32));
        }
        out
    }

    #[test]
    fn tiers_split_at_800_and_2000() {
        assert_eq!(Tier::of(799), Tier::Below);
        assert_eq!(Tier::of(800), Tier::Band(0));
        assert_eq!(Tier::of(1999), Tier::Band(5));
        assert_eq!(Tier::of(2000), Tier::Band(5));
        assert_eq!(Tier::of(2001), Tier::AboveTop);
        let c = Composition::of(&[puzzle(0, 700), puzzle(1, 2000), puzzle(2, 2400)]);
        assert_eq!((c.below, c.bands[5], c.above_top), (1, 1, 1));
    }

    #[test]
    fn every_target_is_required() {
        // 6 × 170 in the bands and 30 above: 1,050 puzzles that meet all.
        let good = Composition::of(&candidates(170, 30));
        assert!(good.meets_targets(), "{good}");
        let with = |change: &dyn Fn(&mut Composition)| {
            let mut c = good.clone();
            change(&mut c);
            c.meets_targets()
        };
        // Each target in turn just missed, then just met.
        assert!(!with(&|c| c.bands[2] = MIN_PER_BAND - 1));
        assert!(with(&|c| c.bands[2] = MIN_PER_BAND));
        assert!(!with(&|c| c.above_top = MIN_ABOVE_TOP - 1));
        assert!(with(&|c| c.above_top = MIN_ABOVE_TOP));
        assert!(!with(&|c| c.total = MIN_TOTAL - 1));
        assert!(with(&|c| c.total = MIN_TOTAL));
        assert!(!with(&|c| c.mates = c.total * 3 / 10 - 1));
        assert!(!with(&|c| c.mates = c.total / 2 + 1));
        assert!(!with(&|c| c.hostage = c.total * 4 / 10 - 1));
        assert!(!with(&|c| {
            c.themes.insert("fork", c.total * 4 / 10 + 1);
        }));
    }

    #[test]
    fn selection_meets_the_targets_with_the_top_in_its_quota() {
        let all = candidates(300, 300);
        let set = select(&all, 1150);
        let c = Composition::of(&set);
        assert_eq!(c.total, 1150);
        assert!(c.meets_targets(), "{c}");
        // Plenty everywhere: the top gets its quota (5% of 1,150), no more,
        // and every band its own ((1,150 - 58) / 6 = 182).
        assert_eq!(c.above_top, 58, "{c}");
        assert_eq!(c.bands, [182; 6], "{c}");
    }

    #[test]
    fn a_scarce_top_and_a_scarce_band_are_taken_whole() {
        // 25 above the top and 110 in one band among plenty: the scarce
        // tiers come first, so every one of them is chosen although the
        // bands alone could fill the set.
        let mut all = candidates(400, 25);
        let thin: Vec<usize> = (0..all.len())
            .filter(|&i| band(all[i].rating) == Some(1))
            .skip(110)
            .collect();
        for i in thin.into_iter().rev() {
            all.remove(i);
        }
        let c = Composition::of(&select(&all, 1150));
        assert_eq!((c.above_top, c.bands[1]), (25, 110), "{c}");
        assert!(c.meets_targets(), "{c}");
    }

    #[test]
    fn selection_keeps_the_shares_when_mates_abound() {
        // Only mates in one band: the mate cap stops them at 45%.
        let mut all = candidates(300, 60);
        all.extend((0..2000).map(|i| puzzle(10_000 + 10 * i, 1500)));
        let c = Composition::of(&select(&all, 1150));
        assert!(c.mates <= 517, "{c}");
        assert!(c.meets_targets(), "{c}");
    }

    #[test]
    fn every_tier_gets_its_floor_before_the_mate_cap_fills() {
        // Mates only in the top and in bands 2-5 (300 each, scarcer than
        // bands 0 and 1, so served first): at their full quota of 182 the
        // first tiers would use up the mate cap (517) and leave band 5
        // with none. Floors first give every tier 120 (24 above 2000).
        let mates = [
            "exchangeMate mateIn1",
            "dropMate mateIn2",
            "exchangeMate mateIn3",
        ];
        let others = [
            "fork",
            "pin rescue",
            "hangingPiece",
            "airfieldDrop sacrifice",
            "fork frozenPawn",
        ];
        let with = |n: usize, rating: u32, themes: &str| -> Puzzle {
            format!("{n:010x},6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1,R@a8,{rating},200,{themes},7,30,33333,1,300")
                .parse()
                .expect("a good record")
        };
        let mut all = Vec::new();
        for i in 0..40 {
            all.push(with(all.len(), 2100, mates[i % 3]));
        }
        for lo in &BANDS[2..] {
            for i in 0..300 {
                all.push(with(all.len(), lo + 50, mates[i % 3]));
            }
        }
        for i in 0..400 {
            let themes = if i < 100 { others[i % 5] } else { mates[i % 3] };
            all.push(with(all.len(), BANDS[1] + 50, themes));
        }
        for i in 0..800 {
            all.push(with(all.len(), BANDS[0] + 50, others[i % 5]));
        }
        let c = Composition::of(&select(&all, 1150));
        assert!(c.meets_targets(), "{c}");
        assert!(c.bands[2..].iter().all(|&b| b >= FLOOR_PER_BAND), "{c}");
        assert!(
            c.bands[1] >= 100 + 13 && c.above_top >= FLOOR_ABOVE_TOP,
            "{c}"
        );
    }
}
