//! Invariant: in positions reached by a fuzzer-chosen walk, any text read as
//! SAN (lenient or strict) or as a long-form move either fails with an error
//! or names a legal move, and writing a legal move in either notation then
//! reading it back gives the same move.
//!
//! Layout: the text (a length byte, then the bytes), a walk, a move choice.
#![no_main]

use hostage_core::{san::San, uci::UciMove, Position};
use hostage_fuzz::{choose_move, walk, Bytes};
use libfuzzer_sys::fuzz_target;

fn strip_mark(s: &[u8]) -> &[u8] {
    s.strip_suffix(b"+").or(s.strip_suffix(b"#")).unwrap_or(s)
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let text = b.text();
    let pos: Position = walk(&mut b, |_, _, _| {});
    if let Some(m) = choose_move(&mut b, &pos) {
        let san = San::write(&pos, &m);
        assert_eq!(
            San::from_ascii_strict(san.as_bytes()).and_then(|s| s.to_move_strict(&pos)),
            Ok(m),
            "{san}"
        );
        let uci = m.to_uci().to_string();
        assert_eq!(
            UciMove::from_ascii(uci.as_bytes()).and_then(|u| u.to_move(&pos)),
            Ok(m),
            "{uci}"
        );
    }
    if let Ok(m) = San::from_ascii(text).and_then(|s| s.to_move(&pos)) {
        assert!(pos.is_legal(&m), "{m:?} read in {pos:?}");
    }
    if let Ok(m) = San::from_ascii_strict(text).and_then(|s| s.to_move_strict(&pos)) {
        let canonical = San::from_move(&pos, &m).to_string();
        let text = String::from_utf8_lossy(strip_mark(text));
        assert_eq!(canonical, text, "strict SAN accepted {text:?} in {pos:?}");
    }
    if let Ok(uci) = UciMove::from_ascii(text) {
        assert_eq!(UciMove::from_ascii(uci.to_string().as_bytes()), Ok(uci));
        if let Ok(m) = uci.to_move(&pos) {
            assert!(pos.is_legal(&m) && m.to_uci() == uci, "{uci} gave {m:?}");
        }
    }
    if let Ok(m) = std::str::from_utf8(text).map(|t| pos.parse_move(t)) {
        assert!(m.map_or(true, |m| pos.is_legal(&m)));
    }
});
