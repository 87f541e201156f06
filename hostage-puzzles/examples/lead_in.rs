//! Recovers the lead-in moves of a puzzle file by replaying each puzzle's
//! game (docs/puzzles.md, "The lead-in move").
//!
//! ```text
//! cargo run --release -p hostage-puzzles --example lead_in -- replay PUZZLES.csv > found.csv
//! cargo run --release -p hostage-puzzles --example lead_in -- apply PUZZLES.csv found.csv... > OUT.csv
//! ```
//!
//! `replay` plays every puzzle's game again with this engine (seed and ply
//! as recorded, the generator's default players) and prints
//! `id,before,lead_in` for each puzzle whose replay reaches exactly its
//! position; the others are named on stderr with what the replay reached.
//! `apply` attaches the lead-ins of the `found` files (the same three
//! fields a line, from this engine or from the replay of an older commit's
//! engine) to the puzzles, each checked with the rules: the move must be
//! legal in `before` and lead to the puzzle's FEN. It writes the whole file
//! (comments kept) to stdout and the counts to stderr.

use std::{collections::HashMap, process::ExitCode};

use hostage_core::Position;
use hostage_puzzles::{
    record::{LeadIn, Puzzle},
    replay::{last_move, replay},
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("replay") if args.len() == 2 => replay_file(&args[1]),
        Some("apply") if args.len() >= 3 => apply(&args[1], &args[2..]),
        _ => {
            Err("usage: lead_in replay PUZZLES.csv | lead_in apply PUZZLES.csv FOUND.csv...".into())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn read(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
}

fn records(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

fn replay_file(path: &str) -> Result<(), String> {
    let text = read(path)?;
    let (mut found, mut missed) = (0, 0);
    for line in records(&text) {
        let puzzle: Puzzle = line.parse().map_err(|e| format!("{path}: {e}"))?;
        let ply = usize::try_from(puzzle.ply).unwrap_or(usize::MAX);
        let game = replay(puzzle.seed, ply, &[]);
        match game.as_ref().and_then(last_move) {
            Some(lead_in) if lead_in.leads_to(&puzzle.position) => {
                found += 1;
                println!("{},{},{}", puzzle.id, lead_in.position.fen(), lead_in.mv);
            }
            _ => {
                missed += 1;
                let reached = game.map_or_else(|| "an ended game".into(), |g| g.position().fen());
                eprintln!(
                    "{}: seed {} ply {}: the replay reached {reached}, not {}",
                    puzzle.id,
                    puzzle.seed,
                    puzzle.ply,
                    puzzle.fen()
                );
            }
        }
    }
    eprintln!("recovered {found}, not recovered {missed}");
    Ok(())
}

/// `id -> (before, move)` from the found files; the first file naming an
/// id wins.
fn found_lines(paths: &[String]) -> Result<HashMap<String, (String, String)>, String> {
    let mut found = HashMap::new();
    for path in paths {
        let text = read(path)?;
        for line in records(&text) {
            let [id, before, mv] = line.split(',').collect::<Vec<_>>()[..] else {
                return Err(format!("{path}: expected id,before,lead_in: {line}"));
            };
            found
                .entry(id.to_string())
                .or_insert_with(|| (before.to_string(), mv.to_string()));
        }
    }
    Ok(found)
}

fn checked(puzzle: &Puzzle, before: &str, mv: &str) -> Option<LeadIn> {
    let position = Position::from_fen(before).ok()?;
    let mv = position.parse_uci(mv).ok()?;
    Some(LeadIn::new(position, mv)).filter(|l| l.leads_to(&puzzle.position))
}

fn apply(path: &str, found_paths: &[String]) -> Result<(), String> {
    let text = read(path)?;
    let found = found_lines(found_paths)?;
    let (mut attached, mut rejected, mut without) = (0, 0, 0);
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            println!("{line}");
            continue;
        }
        let mut puzzle: Puzzle = trimmed.parse().map_err(|e| format!("{path}: {e}"))?;
        match found.get(&puzzle.id) {
            Some((before, mv)) => match checked(&puzzle, before, mv) {
                Some(lead_in) => {
                    attached += 1;
                    puzzle.lead_in = Some(lead_in);
                }
                None => {
                    rejected += 1;
                    eprintln!(
                        "{}: the lead-in {before},{mv} does not lead to {}",
                        puzzle.id,
                        puzzle.fen()
                    );
                }
            },
            None => without += 1,
        }
        println!("{puzzle}");
    }
    eprintln!("lead-in attached to {attached}, rejected {rejected}, none found for {without}");
    Ok(())
}
