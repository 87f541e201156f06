//! Runs `tests/vectors/move-lists.txt`: every move list replays to the FEN
//! given, or fails with the code, the ply and the message given, through
//! [`Game::from_move_text`], and a failed [`Game::push_move_text`] leaves the
//! game as it was.

use std::{fs, path::PathBuf};

use hostage_core::{game::Game, Position};

mod escape;
use escape::unescape;

#[test]
fn move_list_vectors() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/move-lists.txt");
    let text = fs::read_to_string(&path).expect("tests/vectors/move-lists.txt");
    let (mut checked, mut failures) = (0, Vec::new());
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let (start, moves, expected, detail) = match fields[..] {
            [a, b, c] => (a, b, c, None),
            [a, b, c, d] => (a, b, c, Some(d)),
            _ => panic!("line {}: expected 3 or 4 fields: {line}", n + 1),
        };
        let moves = unescape(moves).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let start = match start {
            "-" => Position::new(),
            fen => Position::from_fen(fen).unwrap_or_else(|e| panic!("line {}: {e}", n + 1)),
        };
        let got = match Game::from_move_text(start.clone(), &moves) {
            Ok(game) => {
                let fen = game.position().fen();
                if detail.is_some_and(|d| d != fen) {
                    failures.push(format!("line {}: reached {fen}", n + 1));
                }
                format!("ok {}", game.ply())
            }
            Err(e) => {
                let message = e.to_string();
                if detail.is_some_and(|d| d != message) {
                    failures.push(format!("line {}: message {message}", n + 1));
                }
                // All or nothing: pushing the same text onto a game leaves it as it was.
                let mut game = Game::from_position(start);
                let pushed = game.push_move_text(&moves);
                if pushed.is_ok() || game.ply() != 0 {
                    failures.push(format!("line {}: push_move_text changed the game", n + 1));
                }
                format!("{}@{}", e.code(), e.ply())
            }
        };
        if got != expected {
            failures.push(format!("line {}: expected {expected}, got {got}", n + 1));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 15, "only {checked} lines checked");
}
