//! Invariant: on fuzzer-built sparse positions (kings, a few men, random
//! prisons and airfields, so pawns are randomly frozen or live) and along a
//! fuzzer-chosen walk from them, the fast move generator lists exactly the
//! moves of the reference generator, both agree on check and FEN, and the
//! move count of bulk counting is the list's length.
#![no_main]

#[path = "../../hostage-core/tests/reference/mod.rs"]
mod reference;

use hostage_core::Position;
use hostage_fuzz::{choose_move, sparse_fen, Bytes};
use libfuzzer_sys::fuzz_target;
use reference::RefPos;

fn assert_same(pos: &Position, reference: &RefPos) {
    let mut ours: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci().to_string())
        .collect();
    let mut theirs = reference.legal_moves();
    // Bulk counting (perft's last ply) counts square sets, not the list.
    assert_eq!(pos.count_legal_moves(), ours.len(), "count in {}", pos.fen());
    ours.sort();
    theirs.sort();
    let ours = (pos.fen(), pos.is_check(), ours);
    assert_eq!(
        ours,
        (reference.fen(), reference.is_check(), theirs),
        "in {}",
        ours.0
    );
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let fen = sparse_fen(&mut b);
    let Ok(mut pos) = Position::from_fen(&fen) else {
        return;
    };
    let mut reference = RefPos::from_fen(&fen).expect("the reference reads every legal FEN");
    for _ in 0..b.byte() % 8 {
        assert_same(&pos, &reference);
        let Some(m) = choose_move(&mut b, &pos) else {
            return;
        };
        reference = reference
            .play(&m.to_uci().to_string())
            .expect("the reference plays our move");
        pos.play_unchecked(m);
    }
    assert_same(&pos, &reference);
});
