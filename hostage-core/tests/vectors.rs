//! Runs the language-neutral vectors of `tests/vectors/` (formats in
//! `tests/README.md`): every `*.perft` file and `fen.txt`.

use std::{fs, path::PathBuf};

use hostage_core::{perft, perft_full, Position};

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

/// Perft counts above this are skipped in the default run; set
/// `HOSTAGE_PERFT_MAX` to raise it.
fn node_limit() -> u64 {
    std::env::var("HOSTAGE_PERFT_MAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000_000)
}

#[test]
fn perft_vectors() {
    let mut files: Vec<PathBuf> = fs::read_dir(vectors_dir())
        .expect("tests/vectors exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .perft files");
    let mut checked = 0;
    for file in files {
        let text = fs::read_to_string(&file).expect("readable");
        let mut pos: Option<(String, Position)> = None;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            let at = format!("{}:{}", file.display(), n + 1);
            if let Some(fen) = line.strip_prefix("epd ") {
                let p = Position::from_fen(fen.trim()).unwrap_or_else(|e| panic!("{at}: {e}"));
                pos = Some((fen.trim().to_owned(), p));
            } else if let Some(rest) = line.strip_prefix("perft ") {
                let (fen, p) = pos
                    .as_ref()
                    .unwrap_or_else(|| panic!("{at}: perft before epd"));
                let mut parts = rest.split_whitespace();
                let depth: u32 = parts.next().and_then(|d| d.parse().ok()).expect("depth");
                let nodes: u64 = parts.next().and_then(|d| d.parse().ok()).expect("nodes");
                if nodes <= node_limit() {
                    assert_eq!(perft(p, depth), nodes, "{at}: {fen} depth {depth}");
                    checked += 1;
                }
                // Every leaf played, as search plays it: `play_unchecked` on
                // each move kind, not only the generator's bulk count.
                if nodes <= 2_000_000 {
                    let full = perft_full(p, depth);
                    assert_eq!(full, nodes, "{at}: {fen} depth {depth}, every leaf played");
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} perft lines checked");
}

#[test]
fn fen_vectors() {
    let text = fs::read_to_string(vectors_dir().join("fen.txt")).expect("fen.txt");
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let (input, expected) = line
            .rsplit_once('|')
            .unwrap_or_else(|| panic!("line {}", n + 1));
        let expected = expected.trim();
        let result = Position::from_fen(input);
        match expected {
            "ok" => {
                let pos = result.unwrap_or_else(|e| panic!("line {}: {input}: {e}", n + 1));
                assert_eq!(pos.fen(), input.trim(), "line {}", n + 1);
            }
            _ if expected.starts_with('=') => {
                let pos = result.unwrap_or_else(|e| panic!("line {}: {input}: {e}", n + 1));
                assert_eq!(pos.fen(), expected[1..].trim(), "line {}", n + 1);
            }
            code => match result {
                Ok(pos) => panic!(
                    "line {}: {input} parsed as {}, expected {code}",
                    n + 1,
                    pos.fen()
                ),
                Err(e) => assert_eq!(e.code(), code, "line {}: {input}", n + 1),
            },
        }
        checked += 1;
    }
    assert!(checked >= 40);
}
