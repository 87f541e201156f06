//! Invariant: after every move of a fuzzer-chosen walk, each colour's men
//! over board + own airfield + enemy prison are conserved (R1/R2), the
//! incremental hash equals the one computed from scratch, each side has one
//! king, the turn has passed, checked and unchecked play agree, and the
//! position is still valid (so the side that moved is not in check).
#![no_main]

use hostage_core::{Color, Position, Role};
use hostage_fuzz::{start, walk, Bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let first = start(&mut Bytes::new(data)).to_setup();
    let men = [first.men(Color::White), first.men(Color::Black)];
    walk(&mut Bytes::new(data), |before, m, after| {
        let setup = after.to_setup();
        for (color, men) in Color::ALL.into_iter().zip(men) {
            assert_eq!(
                setup.men(color),
                men,
                "{color:?} men after {m:?} from {before:?}"
            );
            assert_eq!(after.board().by_piece(Role::King.of(color)).count(), 1);
        }
        assert_eq!(
            after.zobrist_hash(),
            after.zobrist_hash_from_scratch(),
            "{m:?} from {before:?}"
        );
        assert_eq!(after.turn(), !before.turn());
        assert_eq!(before.clone().play(m).as_ref().ok(), Some(after));
        let rebuilt =
            Position::from_setup(setup).unwrap_or_else(|e| panic!("{m:?} from {before:?}: {e}"));
        assert_eq!(&rebuilt, after);
    });
});
