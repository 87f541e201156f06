//! `tests/vectors/network-search.txt`: searches of a fresh engine with the
//! network read from `data/nnue.bin` at run time (or with the hand-written
//! evaluation) within a node budget or to a depth, and the node count, depth, score and
//! move each gives. The JavaScript (`hostage-wasm/js-tests/network.test.mjs`,
//! WebAssembly) and Python (`hostage-py/tests/test_network.py`) suites
//! check the same lines, so the three builds are shown to search alike.
//!
//! The expected values are this native engine's own output, the reference
//! of the other two. To write them afresh after a deliberate change to the
//! engine or the network:
//!
//! ```text
//! HOSTAGE_BLESS=1 cargo test -p hostage-engine --test network_vectors
//! ```

use std::{fs, path::PathBuf};

use hostage_core::{Game, Position};
use hostage_engine::{history_of, Engine, Limits, Score};

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/network-search.txt")
}

fn network() -> Vec<u8> {
    fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/nnue.bin"))
        .expect("data/nnue.bin")
}

/// The four expected fields of a line: nodes, depth, score, best move.
fn search(fields: &[&str], network: &[u8]) -> [String; 4] {
    let start = Position::from_fen(fields[0]).expect("vector FEN");
    let game = Game::from_moves(start, fields[1].split_whitespace().filter(|&m| m != "-"))
        .expect("vector history moves");
    let mut engine = Engine::new();
    match fields[2] {
        "network" => engine.load_network(network).expect("data/nnue.bin"),
        "hand" => engine.set_nnue(false),
        other => panic!("evaluation {other}: network or hand"),
    }
    let limits = match fields[3].split_once(' ') {
        Some(("nodes", n)) => Limits::nodes(n.parse().expect("vector node budget")),
        Some(("depth", d)) => Limits::depth(d.parse().expect("vector depth")),
        _ => panic!("limit {}: nodes N or depth D", fields[3]),
    };
    let r = engine.search(game.position(), &history_of(&game), &limits);
    let score = match r.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let best = r
        .best_move
        .map_or_else(|| "-".to_string(), |m| m.to_string());
    [r.nodes.to_string(), r.depth.to_string(), score, best]
}

#[test]
fn network_searches_match_the_vectors() {
    let text = fs::read_to_string(path()).expect("tests/vectors/network-search.txt");
    let bless = std::env::var_os("HOSTAGE_BLESS").is_some();
    let network = network();
    let mut out = String::new();
    let (mut checked, mut with_network) = (0, 0);
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(fields.len(), 8, "line {}: eight fields", n + 1);
        let got = search(&fields, &network);
        if bless {
            out.push_str(&format!(
                "{} | {}\n",
                fields[..4].join(" | "),
                got.join(" | ")
            ));
        } else {
            assert_eq!(got.as_slice(), &fields[4..], "line {}: {line}", n + 1);
        }
        checked += 1;
        with_network += usize::from(fields[2] == "network");
    }
    assert!(
        checked >= 6 && with_network >= 4,
        "{checked} vectors, {with_network} with the network"
    );
    if bless {
        fs::write(path(), out).expect("write the vectors");
    }
}
