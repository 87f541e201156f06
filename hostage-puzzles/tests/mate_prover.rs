//! The mate prover against the engine's mate set (`hostage-engine/data/
//! mates.txt`), whose every line lists *all* the first moves that mate in
//! N and is re-proved by an exhaustive check in the engine's tests. The
//! prover shares no code with that check, so agreement on every line is an
//! independent confirmation of both.

use hostage_core::{uci::UciMove, Move, Position};
use hostage_puzzles::mate::{MateProof, MateProver};

const MATES: &str = include_str!("../../hostage-engine/data/mates.txt");

#[test]
fn prover_finds_exactly_the_listed_mates() {
    let mut lines = 0;
    for line in MATES
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let pos = Position::from_fen(fields[0]).expect("fen");
        let n: u32 = fields[1].parse().expect("n");
        let listed: Vec<Move> = fields[3]
            .split_whitespace()
            .map(|t| {
                UciMove::from_ascii(t.as_bytes())
                    .and_then(|u| u.to_move(&pos))
                    .expect("move")
            })
            .collect();
        let mut prover = MateProver::new(50_000_000);
        assert_eq!(prover.shortest_mate(&pos, n), Ok(Some(n)), "{line}");
        let found: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| prover.move_mates_within(&pos, m, n) == MateProof::Proved)
            .collect();
        assert!(!prover.hit_cap(), "{line}");
        assert_eq!(found.len(), listed.len(), "{line}: found {found:?}");
        assert!(listed.iter().all(|m| found.contains(m)), "{line}");
        lines += 1;
    }
    assert_eq!(lines, 100);
}
