//! `tests/vectors/bot-moves.txt`: the bot's move for a position, its
//! history, a level and a seed. The Python (`hostage-py/tests/test_engine.py`)
//! and JavaScript (`hostage-wasm/js-tests/engine.test.mjs`) suites check the
//! same lines, so the three languages are shown to choose the same move.
//!
//! The expected moves are the Rust engine's own output (a cross-language
//! agreement check, not a judgement of the moves). To write them afresh
//! after a deliberate change to the engine:
//!
//! ```text
//! HOSTAGE_BLESS=1 cargo test -p hostage-engine --test bot_vectors
//! ```

use std::{fs, path::PathBuf};

use hostage_core::{Game, Position};
use hostage_engine::{history_of, Engine, Level};

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/bot-moves.txt")
}

/// The game of a line: the FEN, then the moves played from it.
fn game(fen: &str, moves: &str) -> Game {
    let start = Position::from_fen(fen).expect("vector FEN");
    Game::from_moves(start, moves.split_whitespace().filter(|&m| m != "-"))
        .expect("vector history moves")
}

/// The move the bot chooses, in long form (`-` when there is none).
fn bot_move(fields: &[&str]) -> String {
    let game = game(fields[0], fields[1]);
    let level: Level = fields[2].parse().expect("vector level");
    let seed: u64 = fields[3].parse().expect("vector seed");
    // A fresh engine for each line, and the history the way the bindings
    // pass it: the hashes of the positions before the current one.
    let result = Engine::new().play_level_at(game.position(), &history_of(&game), level, seed);
    result
        .best_move
        .map_or_else(|| "-".to_string(), |m| m.to_string())
}

#[test]
fn bot_moves_match_the_vectors() {
    let text = fs::read_to_string(path()).expect("tests/vectors/bot-moves.txt");
    let bless = std::env::var_os("HOSTAGE_BLESS").is_some();
    let mut out = String::new();
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(fields.len(), 5, "line {}: five fields", n + 1);
        let got = bot_move(&fields);
        // The move must be legal where it is played.
        if got != "-" {
            let game = game(fields[0], fields[1]);
            assert!(
                game.position().parse_move(&got).is_ok(),
                "line {}: {got} is not legal",
                n + 1
            );
        }
        if bless {
            out.push_str(&format!(
                "{} | {} | {} | {} | {got}\n",
                fields[0], fields[1], fields[2], fields[3]
            ));
        } else {
            assert_eq!(got, fields[4], "line {}: {line}", n + 1);
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} vectors");
    if bless {
        fs::write(path(), out).expect("write the vectors");
    }
}
