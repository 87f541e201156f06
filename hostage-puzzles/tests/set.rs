//! The committed set (`data/puzzles.csv`): it loads, meets the composition
//! targets, has unique positions and stable ids, a rotating sample of it
//! passes the verifier, every lead-in move is legal and leads to its
//! puzzle, and the rating simulation meets its bounds.

use std::{collections::HashSet, time::SystemTime};

use hostage_puzzles::{
    compose::Composition,
    puzzles,
    record::{position_key, puzzle_id},
    simulate::simulate,
    verify::verify_puzzle,
};

#[test]
fn the_set_meets_its_composition() {
    let set = puzzles();
    let c = Composition::of(set);
    assert!(c.meets_targets(), "{c}");
    let keys: HashSet<String> = set.iter().map(|p| position_key(&p.position)).collect();
    assert_eq!(keys.len(), set.len(), "two puzzles share a position");
    for p in set {
        assert_eq!(p.id, puzzle_id(&p.position), "{}", p.id);
        assert_eq!(p.moves.len() % 2, 1, "{}", p.id);
        assert_eq!(
            p.rating,
            hostage_puzzles::initial::rating_from_effort(p.nodes),
            "{}",
            p.id
        );
    }
}

/// Every puzzle's lead-in, checked with the rules: the opponent's move,
/// legal in the position before it, played there it gives exactly the
/// puzzle's FEN.
#[test]
fn every_lead_in_is_legal_and_leads_to_its_puzzle() {
    let set = puzzles();
    let mut with = 0;
    for p in set {
        let Some(lead_in) = &p.lead_in else { continue };
        with += 1;
        let before = &lead_in.position;
        assert_ne!(before.turn(), p.solver(), "{}", p.id);
        assert!(before.legal_moves().contains(&lead_in.mv), "{}", p.id);
        let mut game = hostage_core::Game::from_position(before.clone());
        game.push(lead_in.mv)
            .unwrap_or_else(|e| panic!("{}: {e}", p.id));
        assert_eq!(game.position().fen(), p.fen(), "{}", p.id);
    }
    // Every puzzle's game replayed to its position (docs/puzzles.md).
    assert_eq!(with, set.len(), "puzzles with a lead-in");
}

/// Verifies `SAMPLE` puzzles chosen by the day (or `PUZZLE_SAMPLE_SEED`),
/// so that the whole set is covered over the days while the suite stays
/// fast. `hostage puzzles verify` checks the whole set.
#[test]
fn a_rotating_sample_verifies() {
    const SAMPLE: usize = 12;
    let set = puzzles();
    let seed = std::env::var("PUZZLE_SAMPLE_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() / 86_400)
        });
    let mut rng = hostage_engine::Rng::new(seed);
    let mut engine = hostage_engine::Engine::with_hash_mb(16);
    for _ in 0..SAMPLE {
        let p = &set[rng.below(set.len() as u64) as usize];
        if let Err(e) = verify_puzzle(&mut engine, p) {
            panic!("puzzle {} (sample seed {seed}): {e}", p.id);
        }
    }
}

/// Players of strength 800–2000 on the set, 30 puzzles each: the median
/// rating error at most 75, the 90th percentile at most 150.
#[test]
fn ratings_converge_in_thirty_puzzles() {
    let report = simulate(puzzles(), 260, 30);
    assert!(report.median <= 75.0 && report.p90 <= 150.0, "{report}");
}
