//! Invariant: in positions reached by a fuzzer-chosen walk, `legal_moves`,
//! `count_legal_moves`, `is_legal` and `play` agree on what is legal: every
//! listed move is legal and plays, and for any fuzzer-built move `is_legal`
//! is membership in the list, and a rejected `play` hands back the position
//! unchanged.
#![no_main]

use hostage_fuzz::{any_move, walk, Bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let pos = walk(&mut b, |_, _, _| {});
    let moves = pos.legal_moves();
    assert_eq!(pos.count_legal_moves(), moves.len(), "{pos:?}");
    for (i, m) in moves.iter().enumerate() {
        assert!(!moves[..i].contains(m), "{m:?} listed twice in {pos:?}");
        assert!(pos.is_legal(m), "{m:?} listed but not legal in {pos:?}");
        assert!(
            pos.clone().play(*m).is_ok(),
            "{m:?} does not play in {pos:?}"
        );
    }
    for _ in 0..8 {
        let m = any_move(&mut b, &pos);
        let legal = moves.contains(&m);
        assert_eq!(pos.is_legal(&m), legal, "is_legal({m:?}) in {pos:?}");
        match pos.clone().play(m) {
            Ok(_) => assert!(legal, "{m:?} played in {pos:?}"),
            Err(e) => {
                assert!(!legal, "{m:?} rejected in {pos:?}");
                assert_eq!(e.position, pos);
                assert_eq!(e.position.zobrist_hash(), pos.zobrist_hash());
            }
        }
        if b.is_empty() {
            break;
        }
    }
});
