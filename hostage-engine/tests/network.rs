//! A network read from bytes at run time (`Engine::load_network`, the way
//! the WebAssembly build gets its weights): the shipped file searches
//! exactly as the embedded network does, and bad or truncated files are
//! refused with a typed error, never a panic.

use std::{fs, path::PathBuf};

use hostage_core::Position;
use hostage_engine::{
    nnue::{Network, NetworkError, FILE_LEN},
    Engine, Limits,
};

fn shipped() -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/nnue.bin");
    fs::read(path).expect("data/nnue.bin")
}

const FENS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
    "r3k2r/pppq1ppp/2n5/8/8/2N5/PPPQ1PPP/R3K2R[NBnb#PPpp] w KQkq - 0 12",
    "r1bq1rk1/ppp2ppp/2n2n2/4p3/1b2P3/2N2N2/PPP2PPP/R1BQKB1R[#Pp] w KQ - 0 7",
];

#[test]
fn the_shipped_file_searches_as_the_embedded_network() {
    for fen in FENS {
        let pos = Position::from_fen(fen).expect("fen");
        let limits = Limits::nodes(20_000);
        let embedded = Engine::new().search(&pos, &[], &limits);
        let mut loaded = Engine::new();
        loaded
            .load_network(&shipped())
            .expect("the shipped network");
        assert!(loaded.uses_network());
        let from_bytes = loaded.search(&pos, &[], &limits);
        assert_eq!(from_bytes.nodes, embedded.nodes, "{fen}");
        assert_eq!(from_bytes.best_move, embedded.best_move, "{fen}");
        assert_eq!(from_bytes.score, embedded.score, "{fen}");
        assert_eq!(from_bytes.pv, embedded.pv, "{fen}");
        // And the hand-written evaluation searches differently: the vector
        // of tests/vectors/network-search.txt tells the two apart.
        let mut hand = Engine::new();
        hand.set_nnue(false);
        assert!(!hand.uses_network());
        let by_hand = hand.search(&pos, &[], &limits);
        assert_ne!(
            (by_hand.nodes, by_hand.score),
            (embedded.nodes, embedded.score),
            "{fen}"
        );
    }
}

#[test]
fn every_truncation_of_the_shipped_file_is_refused() {
    let bytes = shipped();
    assert_eq!(bytes.len(), FILE_LEN);
    let mut engine = Engine::new();
    for len in 0..FILE_LEN {
        let err = engine.load_network(&bytes[..len]).expect_err("truncated");
        let expected = if len < 16 {
            "nnue_magic"
        } else {
            "nnue_length"
        };
        assert_eq!(err.code(), expected, "{len} bytes");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        engine.load_network(&longer),
        Err(NetworkError::Length {
            expected: FILE_LEN,
            found: FILE_LEN + 1
        })
    );
}

#[test]
fn a_refused_file_leaves_the_engine_as_it_was() {
    let pos = Position::new();
    let limits = Limits::nodes(5_000);
    let mut hand = Engine::new();
    hand.set_nnue(false);
    let before = hand.search(&pos, &[], &limits);
    let mut bad = shipped();
    bad[0] = b'X';
    let mut engine = Engine::new();
    engine.set_nnue(false);
    assert_eq!(engine.load_network(&bad), Err(NetworkError::Magic));
    assert!(!engine.uses_network());
    let after = engine.search(&pos, &[], &limits);
    assert_eq!(
        (after.nodes, after.best_move),
        (before.nodes, before.best_move)
    );
}

#[test]
fn damaged_headers_and_noise_are_refused_with_their_codes() {
    let good = shipped();
    let mut shape = good.clone();
    shape[8..12].copy_from_slice(&7u32.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&shape).map_err(|e| e.code()),
        Err("nnue_shape")
    );
    let mut hidden = good.clone();
    hidden[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        Network::from_bytes(&hidden).map_err(|e| e.code()),
        Err("nnue_shape")
    );
    // Any bytes at all: a seeded stream, of many lengths, never a panic.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for len in [
        0,
        1,
        8,
        15,
        16,
        17,
        100,
        FILE_LEN - 1,
        FILE_LEN,
        FILE_LEN + 3,
    ] {
        let noise: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        assert!(Network::from_bytes(&noise).is_err(), "{len} random bytes");
        // With the magic and the shape right, the weights may be anything.
        let mut framed = noise.clone();
        if framed.len() >= 16 {
            framed[..16].copy_from_slice(&good[..16]);
            assert_eq!(Network::from_bytes(&framed).is_ok(), len == FILE_LEN);
        }
    }
}
