//! The opening book of matches: the default one built into the crate, and
//! the generator that made it.
//!
//! A match between two deterministic players from the start position is
//! the same game over and over, so each game pair starts from an opening
//! (both colours once, as `hostage-match` plays them). The default book,
//! `data/openings.txt`, was written by [`generate`] (`hostage book generate`,
//! the command is in the file's header): each opening is a few plies, each
//! drawn among the engine's best moves at a small budget, kept only when a
//! full-strength search scores the position within a few tenths of a pawn
//! and no other opening reaches the same position (R12 equality, by
//! Zobrist hash). Some openings prefer captures, so that prisons, and with
//! them exchanges (R5), are in play from the first move of the game.
//!
//! # Example
//!
//! ```
//! use hostage_engine::book;
//!
//! let openings = book::default_book();
//! assert!(openings.len() >= 100);
//! // Every opening replays legally from the start position.
//! assert!(openings.iter().all(|o| o.game().is_ok()));
//! ```

use std::collections::HashSet;

use hostage_core::{Color, Game, Move, Position};

use crate::{rng::Rng, Engine, Limits, Score};

mod opening;
pub use opening::{BookError, Opening};

/// The text of the default book (`data/openings.txt`).
pub const DEFAULT_BOOK: &str = include_str!("../data/openings.txt");

/// The default book's openings.
///
/// # Panics
///
/// Never: the embedded text is checked by the crate's tests.
#[must_use]
pub fn default_book() -> Vec<Opening> {
    Opening::parse_book(DEFAULT_BOOK).expect("the embedded book is tested to load")
}

/// How [`generate`] draws openings.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BookConfig {
    /// How many openings to keep.
    pub count: usize,
    /// The seed of the random choices.
    pub seed: u64,
    /// The fewest plies of an opening.
    pub min_plies: usize,
    /// The most plies of an opening.
    pub max_plies: usize,
    /// The node budget of the search that judges an opening (its moves are
    /// chosen at a quarter of it).
    pub nodes: u64,
    /// The largest score, in centipawns either way, of a kept opening.
    pub max_eval: i32,
}

impl Default for BookConfig {
    /// The settings of the default book.
    fn default() -> BookConfig {
        BookConfig {
            count: 120,
            seed: 1,
            min_plies: 6,
            max_plies: 10,
            nodes: 20_000,
            max_eval: 60,
        }
    }
}

impl BookConfig {
    /// The `hostage book generate` command that gives these settings.
    #[must_use]
    pub fn command(&self) -> String {
        format!(
            "hostage book generate --count {} --seed {} --plies {}..{} --nodes {} --max-eval {}",
            self.count, self.seed, self.min_plies, self.max_plies, self.nodes, self.max_eval
        )
    }
}

/// How many of the best moves a ply is drawn from.
pub const CANDIDATES: usize = 4;
/// A candidate is at most this many centipawns worse than the best move.
pub const CANDIDATE_MARGIN: i32 = 50;

/// An opening the generator kept.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BookEntry {
    /// The moves.
    pub opening: Opening,
    /// The judging search's score, in centipawns for White.
    pub white_cp: i32,
    /// Whether a prison holds a man at the end of the opening.
    pub prisoners: bool,
}

/// Draws openings per `config`, calling `progress` with each one kept and
/// the number of attempts so far. Gives up after `50 × count` attempts, so
/// it may return fewer than asked for when the limits are too strict.
/// Deterministic: the same settings give the same book.
pub fn generate(
    config: &BookConfig,
    progress: &mut dyn FnMut(&BookEntry, usize),
) -> Vec<BookEntry> {
    let mut rng = Rng::new(config.seed);
    let mut engine = Engine::new();
    let mut seen = HashSet::new();
    let mut book = Vec::new();
    let min = config.min_plies.min(config.max_plies);
    let span = (config.max_plies - min) as u64 + 1;
    let choice_limits = Limits::nodes((config.nodes / 4).max(1)).with_multipv(CANDIDATES);
    let mut attempts = 0;
    while book.len() < config.count && attempts < config.count.saturating_mul(50) {
        attempts += 1;
        let plies = min + rng.below(span) as usize;
        let Some(game) = draw(&mut engine, &mut rng, plies, &choice_limits) else {
            continue;
        };
        let pos = game.position();
        if !seen.insert(pos.zobrist_hash()) {
            continue;
        }
        engine.new_game();
        let judged = engine.search_game(&game, &Limits::nodes(config.nodes));
        let Score::Cp(cp) = judged.score else {
            continue;
        };
        if cp.abs() > config.max_eval {
            continue;
        }
        let entry = BookEntry {
            opening: Opening {
                moves: game.moves().iter().map(Move::to_string).collect(),
            },
            white_cp: if pos.turn() == Color::White { cp } else { -cp },
            prisoners: has_prisoners(pos),
        };
        progress(&entry, attempts);
        book.push(entry);
    }
    book
}

/// One random opening of `plies` plies, or `None` if the game ended.
fn draw(engine: &mut Engine, rng: &mut Rng, plies: usize, limits: &Limits) -> Option<Game> {
    let mut game = Game::new();
    for _ in 0..plies {
        engine.new_game();
        let result = engine.search_game(&game, limits);
        let best = result.lines.first()?.score;
        let candidates: Vec<Move> = result
            .lines
            .iter()
            .filter(|l| is_candidate(l.score, best))
            .map(|l| l.mv)
            .collect();
        let captures: Vec<Move> = candidates
            .iter()
            .copied()
            .filter(|m| m.capture().is_some())
            .collect();
        // Half the time a capture, when one is good enough: it fills a
        // prison (R2) and brings exchanges (R5) into the game.
        let pool = if !captures.is_empty() && rng.below(2) == 0 {
            captures
        } else {
            candidates
        };
        let m = *pool.get(rng.below(pool.len() as u64) as usize)?;
        game.push(m).ok()?;
        if game.outcome().is_some() {
            return None;
        }
    }
    Some(game)
}

/// Whether a line scored `score` is a candidate when the best scores
/// `best`: never a mate either way; within [`CANDIDATE_MARGIN`] of a best
/// in centipawns; never beside a winning mate; always beside a losing one.
fn is_candidate(score: Score, best: Score) -> bool {
    match (score, best) {
        (Score::Cp(cp), Score::Cp(best)) => cp >= best - CANDIDATE_MARGIN,
        (Score::Cp(_), Score::Mate(n)) => n <= 0,
        (Score::Mate(_), _) => false,
    }
}

fn has_prisoners(pos: &Position) -> bool {
    Color::ALL.iter().any(|&c| !pos.prison(c).is_empty())
}

/// The book file for `entries`: a header naming the command that made it
/// and its statistics, then one opening a line.
#[must_use]
pub fn write_book(config: &BookConfig, entries: &[BookEntry]) -> String {
    let (low, high) = entries.iter().fold((i32::MAX, i32::MIN), |(lo, hi), e| {
        (lo.min(e.white_cp), hi.max(e.white_cp))
    });
    let n = entries.len().max(1) as f64;
    let mean = entries.iter().map(|e| f64::from(e.white_cp)).sum::<f64>() / n;
    let prisoners = entries.iter().filter(|e| e.prisoners).count();
    let mut text = format!(
        "# Hostage Chess openings for `hostage match`: one a line, long-form moves from the start.\n\
         # Generated by: {}\n\
         # Each ply is drawn among the engine's {CANDIDATES} best moves at {} nodes (within {CANDIDATE_MARGIN} cp of\n\
         # the best; a capture half the time when one qualifies); an opening is kept when a\n\
         # {}-node search scores it within +-{} cp and no other opening reaches its position.\n\
         # {} openings; scores for White from {low:+} to {high:+} cp, mean {mean:+.1}; {prisoners} with prisoners.\n",
        config.command(),
        (config.nodes / 4).max(1),
        config.nodes,
        config.max_eval,
        entries.len(),
    );
    for e in entries {
        text.push_str(&e.opening.moves.join(" "));
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_book_has_100_distinct_balanced_openings() {
        let book = default_book();
        assert!(book.len() >= 100, "{}", book.len());
        let mut finals = HashSet::new();
        let mut with_prisoners = 0;
        for opening in &book {
            let game = opening.game().expect("legal");
            assert!(game.outcome().is_none());
            assert!(finals.insert(game.position().zobrist_hash()), "{opening:?}");
            if has_prisoners(game.position()) {
                with_prisoners += 1;
            }
        }
        assert!(with_prisoners >= 10, "{with_prisoners}");
        // The header names the command that regenerates it.
        assert!(DEFAULT_BOOK.contains("# Generated by: hostage book generate "));
    }

    #[test]
    fn generation_is_reproducible_and_keeps_its_limits() {
        let config = BookConfig {
            count: 3,
            seed: 9,
            min_plies: 2,
            max_plies: 4,
            nodes: 2_000,
            max_eval: 80,
        };
        let mut calls = 0;
        let a = generate(&config, &mut |_, _| calls += 1);
        let b = generate(&config, &mut |_, _| {});
        assert_eq!(a, b);
        assert_eq!((a.len(), calls), (3, 3));
        for e in &a {
            assert!((2..=4).contains(&e.opening.moves.len()), "{e:?}");
            assert!(e.white_cp.abs() <= 80, "{e:?}");
        }
        let text = write_book(&config, &a);
        assert_eq!(Opening::parse_book(&text).expect("reads back").len(), 3);
        assert!(
            text.contains("--plies 2..4 --nodes 2000 --max-eval 80"),
            "{text}"
        );
    }
}
