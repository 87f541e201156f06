//! Tests of the reference move generator itself (tests/reference/mod.rs).

mod reference;

use reference::RefPos;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
const AFTER_QXD5: &str = "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[#Pp] w KQkq - 0 3";

fn pos(fen: &str) -> RefPos {
    RefPos::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn perft_start_shallow() {
    let p = pos(START);
    assert_eq!(p.perft(1), 20);
    assert_eq!(p.perft(2), 400);
    assert_eq!(p.perft(3), 8902);
    assert_eq!(p.perft(4), 197_281);
}

#[test]
fn perft_start_depth5() {
    assert_eq!(pos(START).perft(5), 4_865_877);
}

#[test]
fn perft_after_qxd5() {
    let p = pos(AFTER_QXD5);
    assert_eq!(p.perft(1), 62);
    assert_eq!(p.perft(2), 4784);
    assert_eq!(p.perft(3), 199_491);
}
