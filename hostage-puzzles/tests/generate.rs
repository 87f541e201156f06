//! The generator is reproducible from its seed, and shards split a run
//! exactly: the union of shards 0/2 and 1/2 is the unsharded run. Every
//! puzzle records its lead-in move, which the replay of its game recovers.

use hostage_core::Game;
use hostage_puzzles::{
    generate::{generate, Config},
    replay::recover_lead_in,
    verify::verify_puzzle,
    Puzzle,
};

fn run(shard: u64, shards: u64) -> Vec<String> {
    let mut config = Config::new(11, 2);
    (config.shard, config.shards) = (shard, shards);
    let mut out = Vec::new();
    generate(
        &config,
        &mut |p: &Puzzle| out.push(p.to_string()),
        &mut |_, _| {},
    );
    out
}

#[test]
fn shards_merge_into_the_whole_run() {
    let whole = run(0, 1);
    assert!(!whole.is_empty(), "two weak games give at least one puzzle");
    let mut merged = run(0, 2);
    merged.extend(run(1, 2));
    let mut sorted_whole = whole.clone();
    sorted_whole.sort();
    merged.sort();
    assert_eq!(merged, sorted_whole);
    // Generated mates pass the verifier's proof (other puzzles must also
    // survive the 4x search, which the generator does not promise: the
    // set is selected among those that do).
    let mut engine = hostage_engine::Engine::with_hash_mb(16);
    for line in &whole {
        let p: Puzzle = line.parse().expect("a generated record reads back");
        if p.is_mate() {
            verify_puzzle(&mut engine, &p).unwrap_or_else(|e| panic!("{line}: {e}"));
        }
    }
}

#[test]
fn every_generated_puzzle_has_its_lead_in_and_the_replay_recovers_it() {
    let whole = run(0, 1);
    assert!(!whole.is_empty());
    for line in &whole {
        let p: Puzzle = line.parse().expect("a generated record reads back");
        let lead_in = p
            .lead_in
            .clone()
            .unwrap_or_else(|| panic!("no lead-in: {line}"));
        // By the rules: the opponent's legal move, leading to the puzzle.
        assert_ne!(lead_in.position.turn(), p.solver(), "{line}");
        let mut game = Game::from_position(lead_in.position.clone());
        game.push(lead_in.mv)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(game.position().fen(), p.fen(), "{line}");
        // The game replayed from the record's seed and ply gives it back.
        assert_eq!(recover_lead_in(&p, &[]), Some(lead_in), "{line}");
        // A wrong ply gives no lead-in (the replay reaches another position).
        let mut off = p.clone();
        off.ply += 1;
        assert_eq!(recover_lead_in(&off, &[]), None, "{line}");
    }
}
