//! Runs `tests/vectors/bad-input.txt` (format in `tests/README.md`): every
//! hostile input gives its documented error code, and nothing panics.

use std::{fs, panic, path::PathBuf};

use hostage_core::{fen::Fen, pgn::PgnGame, san::San, uci::UciMove, Position};

mod escape;
use escape::unescape;

/// What `kind` gives for `input` in `position`: `Ok(())` or an error code.
fn run(kind: &str, position: &Position, input: &str) -> Result<(), &'static str> {
    match kind {
        "fen" => Position::from_fen(input).map(drop).map_err(|e| e.code()),
        "san" => San::from_ascii(input.as_bytes())
            .and_then(|san| san.to_move(position))
            .map(drop)
            .map_err(|e| e.code()),
        "uci" => UciMove::from_ascii(input.as_bytes())
            .and_then(|uci| uci.to_move(position))
            .map(drop)
            .map_err(|e| e.code()),
        "pgn" => PgnGame::read(input).map(drop).map_err(|e| e.code()),
        _ => panic!("unknown kind {kind:?}"),
    }
}

/// One line of the corpus, its position parsed and its input unescaped.
struct Case {
    /// The line number, from 1.
    line: usize,
    /// The line as written, for messages.
    text: String,
    kind: String,
    position: Position,
    input: String,
    expected: String,
}

/// Every case of `tests/vectors/bad-input.txt` (blank and `#` lines are
/// skipped); a malformed line fails the test that reads it.
fn cases() -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/bad-input.txt");
    let text = fs::read_to_string(&path).expect("tests/vectors/bad-input.txt");
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [kind, position, input, expected] = fields[..] else {
            panic!("line {}: expected 4 fields: {line}", n + 1);
        };
        let input = unescape(input).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let position = match position {
            "-" => Position::new(),
            fen => Position::from_fen(fen).unwrap_or_else(|e| panic!("line {}: {e}", n + 1)),
        };
        cases.push(Case {
            line: n + 1,
            text: line.to_owned(),
            kind: kind.to_owned(),
            position,
            input,
            expected: expected.to_owned(),
        });
    }
    cases
}

#[test]
fn bad_input_vectors() {
    let (mut checked, mut failures) = (0, Vec::new());
    for case in cases() {
        let got = panic::catch_unwind(|| run(&case.kind, &case.position, &case.input));
        let got = match got {
            Ok(Ok(())) => "ok".to_owned(),
            Ok(Err(code)) => code.to_owned(),
            Err(_) => "PANIC".to_owned(),
        };
        if got != case.expected {
            failures.push(format!(
                "line {}: expected {}, got {got}: {}",
                case.line, case.expected, case.text
            ));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 150, "only {checked} lines checked");
}

/// The newer entry points on one case: the same code as [`run`], and a
/// message that names a short printable input whole and stays short.
fn run_new(kind: &str, position: &Position, input: &str) -> Result<(), String> {
    let (code, message) = match kind {
        // A Fen parses without validating; into_position validates.
        "fen" => match Fen::from_ascii(input.as_bytes()).and_then(Fen::into_position) {
            Ok(_) => return Ok(()),
            Err(e) => (e.code(), e.to_string()),
        },
        "san" => match position.parse_san(input) {
            Ok(_) => return Ok(()),
            Err(e) => (e.code(), e.to_string()),
        },
        "uci" => match UciMove::from_ascii(input.as_bytes()) {
            Err(e) => (e.code(), e.to_string()),
            Ok(uci) => match (
                position.parse_uci(input),
                position.variation_san_uci(&[uci]),
            ) {
                (Ok(_), Ok(_)) => return Ok(()),
                (Err(a), Err(b)) if a.code() == b.code() => (a.code(), a.to_string()),
                (a, b) => return Err(format!("parse_uci {a:?} but variation_san_uci {b:?}")),
            },
        },
        _ => return Ok(()),
    };
    if message.chars().count() > 400 {
        return Err(format!("{code}: a message of {} characters", message.len()));
    }
    let printable = (1..=60).contains(&input.len())
        && input
            .bytes()
            .all(|b| (0x20..0x7f).contains(&b) && !matches!(b, b'\\' | b'\'' | b'"'))
        && input.trim() == input;
    // A FEN error from into_position names the FEN as written, not as given.
    let named = message.contains(&format!("'{input}'"));
    if printable && !(kind == "fen" && message.starts_with("illegal")) && !named {
        return Err(format!("{code}: {message:?} does not name {input:?}"));
    }
    if (code.starts_with("illegal") || code.starts_with("ambiguous"))
        && !message.contains(&position.fen())
    {
        return Err(format!("{code}: {message:?} does not name the position"));
    }
    Err(code.to_owned())
}

#[test]
fn bad_input_vectors_through_the_newer_entry_points() {
    let mut failures = Vec::new();
    for case in cases() {
        let got = match panic::catch_unwind(|| run_new(&case.kind, &case.position, &case.input)) {
            Ok(Ok(())) => "ok".to_owned(),
            Ok(Err(code)) => code,
            Err(_) => "PANIC".to_owned(),
        };
        if case.kind != "pgn" && got != case.expected {
            failures.push(format!(
                "line {}: expected {}, got {got}",
                case.line, case.expected
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn unescape_forms() {
    assert_eq!(unescape(r"a\x00b\\\n\t").as_deref(), Ok("a\0b\\\n\t"));
    assert_eq!(
        unescape(r"\u{2013}\u{1f600}").as_deref(),
        Ok("\u{2013}\u{1f600}")
    );
    assert_eq!(unescape(r"x{repeat:3:a\x7c}y").as_deref(), Ok("xa|a|a|y"));
    assert_eq!(unescape("{repeat:0:a}").as_deref(), Ok(""));
    assert!(unescape(r"\q").is_err() && unescape(r"\x80").is_err() && unescape(r"\x+1").is_err());
}
