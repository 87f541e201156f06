//! The mate test set (`data/mates.txt`): every position is re-proved by an
//! exhaustive full-width check that shares no code with the search (its
//! listed solutions are exactly the moves that mate in N, and there is no
//! shorter mate), and Club and the full engine must find every mate.

mod mate_check;

use hostage_engine::{Engine, Level, Limits, Score};
use mate_check::{is_mate_in, mates_in_one, MateSet};

fn set() -> MateSet {
    MateSet::load(include_str!("../data/mates.txt")).expect("the mate set parses")
}

#[test]
fn the_set_is_proved_and_covers_every_kind() {
    let set = set();
    let count = |n: u32, kind: &str| {
        set.positions
            .iter()
            .filter(|p| p.n == n && (kind == "*" || p.kind == kind))
            .count()
    };
    assert!(count(1, "drop") >= 10 && count(1, "exchange") >= 10);
    assert!(count(1, "promotion") >= 5 && count(1, "board") >= 10);
    assert!(count(2, "*") >= 20);
    for p in &set.positions {
        let mut listed: Vec<String> = p.solutions.iter().map(|m| format!("{m:?}")).collect();
        listed.sort();
        let ones = mates_in_one(&p.position);
        let mut proved: Vec<String> = if p.n == 1 {
            ones.iter().map(|m| format!("{m:?}")).collect()
        } else {
            assert!(ones.is_empty(), "{}: has a mate in one", p.fen);
            p.position
                .legal_moves()
                .iter()
                .filter(|m| is_mate_in(&p.position, m, p.n))
                .map(|m| format!("{m:?}"))
                .collect()
        };
        proved.sort();
        assert_eq!(listed, proved, "{}", p.fen);
        assert!(!proved.is_empty(), "{}", p.fen);
    }
}

#[test]
fn club_finds_every_mate() {
    let mut engine = Engine::new();
    for p in &set().positions {
        let r = engine.play_level_at(&p.position, &[], Level::Club, 1);
        let m = r.best_move.expect("a move");
        assert!(
            is_mate_in(&p.position, &m, p.n),
            "{}: club played {m}",
            p.fen
        );
    }
}

/// Searches every position of the set within `limits` (after `new_game`)
/// and checks that the move played mates in the listed number of moves and
/// that the score says so.
fn plays_every_mate(engine: &mut Engine, limits: &Limits) {
    for p in &set().positions {
        engine.new_game();
        let r = engine.search(&p.position, &[], limits);
        let m = r.best_move.expect("a move");
        assert!(is_mate_in(&p.position, &m, p.n), "{}: played {m}", p.fen);
        assert_eq!(r.score, Score::Mate(p.n as i32), "{}", p.fen);
    }
}

#[test]
fn full_strength_finds_every_mate_with_its_distance() {
    plays_every_mate(&mut Engine::new(), &Limits::nodes(200_000));
}

/// Two threads under a depth limit (a node limit would keep the search to
/// one): a mate found by either must be played with its exact distance.
/// Depth 16 is past where the search stops once a mate is confirmed.
fn two_threads_find_every_mate(mut engine: Engine) {
    engine.set_threads(2);
    plays_every_mate(&mut engine, &Limits::depth(16));
}

#[test]
fn two_threads_find_every_mate_with_its_distance() {
    two_threads_find_every_mate(Engine::new());
}

#[cfg(feature = "tuning")]
#[test]
fn two_threads_that_vote_find_every_mate_with_its_distance() {
    let mut engine = Engine::new();
    let mut options = hostage_engine::Options::default();
    options.smp_vote = true;
    engine.set_options(options);
    two_threads_find_every_mate(engine);
}
