//! Runs `tests/vectors/san.txt` (format in its header): lenient SAN read
//! against a position, the long form and canonical SAN of the move found,
//! or the error code.

use std::{fs, path::PathBuf};

use hostage_core::{
    san::{San, SanError},
    uci::UciMove,
    Move, Position,
};

fn read(pos: &Position, input: &str) -> Result<Move, SanError> {
    San::from_ascii(input.as_bytes())?.to_move(pos)
}

#[test]
fn san_vectors() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/san.txt");
    let text = fs::read_to_string(&path).expect("tests/vectors/san.txt");
    let mut cases = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("san.txt:{}: {line}", n + 1);
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [fen, input, expected] = fields[..] else {
            panic!("{at}: expected 3 fields")
        };
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{at}: bad fen: {e}"));
        let result = read(&pos, input);
        if let Some(code) = expected.strip_prefix("error=") {
            match result {
                Err(e) => assert_eq!(e.code(), code, "{at}"),
                Ok(m) => panic!("{at}: expected {code}, read {m}"),
            }
        } else {
            let (uci, san) = expected
                .strip_prefix("uci=")
                .and_then(|rest| rest.split_once(" san="))
                .unwrap_or_else(|| panic!("{at}: bad expected field"));
            let m = result.unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(UciMove::from_move(&m).to_string(), uci, "{at}: long form");
            assert_eq!(San::write(&pos, &m), san, "{at}: canonical san");
            // The canonical spelling is read strictly, and the long form
            // names the same move.
            let strict = San::from_ascii_strict(san.as_bytes())
                .and_then(|s| s.to_move_strict(&pos))
                .unwrap_or_else(|e| panic!("{at}: canonical {san} not read strictly: {e}"));
            assert_eq!(strict, m, "{at}: strict");
            let long = UciMove::from_ascii(uci.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&pos).ok());
            assert_eq!(long, Some(m), "{at}: uci");
        }
        cases += 1;
    }
    assert!(cases >= 40, "only {cases} cases");
}
