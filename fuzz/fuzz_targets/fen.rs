//! Invariant: any bytes are either rejected by the FEN reader with an error,
//! or read as a setup that writes and reads back unchanged; when that setup
//! is a legal position, its canonical FEN reads back to an equal position
//! with the same Zobrist hash and is written again identically.
#![no_main]

use hostage_core::{fen::Fen, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(fen) = Fen::from_ascii(data) else {
        return;
    };
    let text = fen.to_string();
    let again = Fen::from_ascii(text.as_bytes()).expect("written FEN reads back");
    assert_eq!(again, fen, "setup changed through {text}");
    let Ok(pos) = fen.into_position() else {
        return;
    };
    let canonical = pos.fen();
    let reread = Position::from_fen(&canonical).expect("canonical FEN is legal");
    assert_eq!(reread, pos, "position changed through {canonical}");
    assert_eq!(
        reread.zobrist_hash(),
        pos.zobrist_hash(),
        "hash of {canonical}"
    );
    assert_eq!(reread.fen(), canonical);
});
