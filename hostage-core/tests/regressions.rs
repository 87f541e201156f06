//! Inputs the fuzzers (`fuzz/`, `docs/testing.md`) found wrong, each as a
//! plain test named for the bug, kept after the fix.

use hostage_core::{san::San, Position};

/// `fuzz/fuzz_targets/san_uci.rs` found that strict SAN reading accepts the
/// capture mark before the disambiguating file (`xde3` for `dxe3`), though
/// `San::from_ascii_strict` + `to_move_strict` must accept exactly the
/// canonical form (up to `+`/`#`).
#[test]
fn strict_san_rejects_capture_mark_before_disambiguation() {
    let pos = Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq d6 0 2")
        .expect("legal");
    let knights = Position::from_fen("4k3/8/8/8/8/8/3p4/1N1K1N2[] w - - 0 1").expect("legal");
    for (pos, canonical, wrong) in [(&pos, "exd5", "xed5"), (&knights, "Nbxd2", "Nxbd2")] {
        let read = |text: &str| {
            San::from_ascii_strict(text.as_bytes()).and_then(|s| s.to_move_strict(pos))
        };
        let m = read(canonical).expect("the canonical form reads");
        assert_eq!(San::write(pos, &m), canonical);
        assert!(
            read(wrong).is_err(),
            "strict SAN accepted {wrong:?} for {canonical:?}"
        );
        // The lenient reader may still take it.
        assert_eq!(
            San::from_ascii(wrong.as_bytes()).and_then(|s| s.to_move(pos)),
            Ok(m)
        );
    }
}

/// Found while fixing the above: strict reading must also keep the file
/// before the rank (`Nb1d2`, never `N1bd2`).
#[test]
fn strict_san_keeps_file_before_rank() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/1N1K1N2[] w - - 0 1").expect("legal");
    let strict =
        |text: &str| San::from_ascii_strict(text.as_bytes()).and_then(|s| s.to_move_strict(&pos));
    assert!(strict("Nbd2").is_ok());
    assert!(strict("N1bd2").is_err());
    assert_eq!(
        San::from_ascii(b"N1bd2").and_then(|s| s.to_move(&pos)),
        strict("Nbd2")
    );
}
