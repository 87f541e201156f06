//! Every client message field read exactly as `docs/protocol.md` documents
//! it, table by table, one table per message type: each documented message
//! is accepted, and each field given with another JSON type (an array or
//! an object where a string or a number is documented, a number where a
//! string is, a string where a number is, `true`), a key given twice, and
//! a field the document does not name are `invalid_message`. The inputs
//! are written from the document, not from the parser.
//!
//! The parser is the one entry of every message (`ws.rs` parses before any
//! request reaches a game), and it is pure: a refused message changes
//! nothing.

use hostage_server::wire::protocol::{parse, ErrorCode};
use serde_json::{json, Map, Value};

const TOKEN: &str = "5f0c5f0c5f0c5f0c5f0c5f0c5f0c5f0c";

/// What the document says a field holds.
#[derive(Copy, Clone, Debug)]
enum Kind {
    /// A string.
    Text,
    /// A colour: `"white"` or `"black"`.
    Colour,
    /// A seat choice: `"white"`, `"black"` or `"random"`.
    Choice,
    /// An unsigned integer.
    Count,
    /// A clock object (or `null`).
    Clock,
}

/// The values of other JSON types than `kind`, each to be refused.
fn wrong_values(kind: Kind) -> Vec<Value> {
    let mut out = vec![json!(true), json!([]), json!(["white"]), json!({})];
    match kind {
        Kind::Text => out.extend([json!(7), json!(1.5), json!({"text": "x"})]),
        Kind::Colour | Kind::Choice => out.extend([
            json!(0),
            json!({"white": null}),
            json!({"black": null}),
            json!(["black"]),
            json!("White"),
            json!("w"),
        ]),
        Kind::Count => out.extend([
            json!("0"),
            json!(-1),
            json!(0.5),
            json!(1.0),
            json!({"n": 0}),
            json!([0]),
        ]),
        Kind::Clock => out.extend([
            json!([60_000, 0]),
            json!("60000+0"),
            json!(60_000),
            json!({"initial_ms": "60000", "increment_ms": 0}),
            json!({"initial_ms": 60_000, "increment_ms": [0]}),
            json!({"initial_ms": 60_000}),
            json!({"initial_ms": 60_000, "increment_ms": 0, "delay_ms": 0}),
            json!({"initial_ms": 60_000.0, "increment_ms": 0}),
        ]),
    }
    out
}

/// One message type: a documented example and its fields' kinds.
struct Case {
    kind: &'static str,
    example: Value,
    fields: &'static [(&'static str, Kind)],
}

fn cases() -> Vec<Case> {
    let game = "k3v9q0x2ma";
    let clock = json!({"initial_ms": 300_000, "increment_ms": 2000});
    let seat = |kind: &'static str| Case {
        kind,
        example: json!({"game": game, "token": TOKEN}),
        fields: &[("game", Kind::Text), ("token", Kind::Text)],
    };
    let mut cases = vec![
        Case {
            kind: "create",
            example: json!({"color": "white", "clock": clock, "name": "Ada"}),
            fields: &[
                ("color", Kind::Choice),
                ("clock", Kind::Clock),
                ("name", Kind::Text),
            ],
        },
        Case {
            kind: "join",
            example: json!({"game": game, "color": "black", "name": "Bob"}),
            fields: &[
                ("game", Kind::Text),
                ("color", Kind::Colour),
                ("name", Kind::Text),
            ],
        },
        Case {
            kind: "chat",
            example: json!({"game": game, "token": TOKEN, "text": "good luck!"}),
            fields: &[
                ("game", Kind::Text),
                ("token", Kind::Text),
                ("text", Kind::Text),
            ],
        },
        Case {
            kind: "watch",
            example: json!({"game": game}),
            fields: &[("game", Kind::Text)],
        },
        Case {
            kind: "unwatch",
            example: json!({"game": game}),
            fields: &[("game", Kind::Text)],
        },
        Case {
            kind: "resume",
            example: json!({"game": game, "token": TOKEN}),
            fields: &[("game", Kind::Text), ("token", Kind::Text)],
        },
        Case {
            kind: "move",
            example: json!({"game": game, "token": TOKEN, "move": "e2e4", "ply": 0}),
            fields: &[
                ("game", Kind::Text),
                ("token", Kind::Text),
                ("move", Kind::Text),
                ("ply", Kind::Count),
            ],
        },
        Case {
            kind: "ping",
            example: json!({}),
            fields: &[],
        },
        Case {
            kind: "lobby_watch",
            example: json!({}),
            fields: &[],
        },
        Case {
            kind: "lobby_unwatch",
            example: json!({}),
            fields: &[],
        },
        Case {
            kind: "challenge_create",
            example: json!({"color": "random", "clock": clock, "name": "Ada"}),
            fields: &[
                ("color", Kind::Choice),
                ("clock", Kind::Clock),
                ("name", Kind::Text),
            ],
        },
        Case {
            kind: "challenge_cancel",
            example: json!({"challenge": "q8x0c2kz1m"}),
            fields: &[("challenge", Kind::Text)],
        },
        Case {
            kind: "challenge_accept",
            example: json!({"challenge": "q8x0c2kz1m", "name": "Bob"}),
            fields: &[("challenge", Kind::Text), ("name", Kind::Text)],
        },
        Case {
            kind: "lobby_seek",
            example: json!({"clock": clock, "name": "Ada"}),
            fields: &[("clock", Kind::Clock), ("name", Kind::Text)],
        },
    ];
    for kind in [
        "resign",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "claim_win",
        "claim_draw",
        "abort",
        "propose_takeback",
        "accept_takeback",
        "decline_takeback",
        "rematch",
    ] {
        cases.push(seat(kind));
    }
    cases
}

/// The message `{"v":1,"type":kind, ...fields}` as text.
fn message(kind: &str, fields: &Map<String, Value>) -> String {
    let mut all = Map::new();
    all.insert("v".into(), json!(1));
    all.insert("type".into(), json!(kind));
    all.extend(fields.clone());
    Value::Object(all).to_string()
}

fn code_of(text: &str) -> Option<ErrorCode> {
    parse(text).err().map(|r| r.error.code)
}

fn object(v: &Value) -> Map<String, Value> {
    v.as_object().expect("an example is an object").clone()
}

#[test]
fn every_documented_example_is_accepted() {
    for case in cases() {
        let text = message(case.kind, &object(&case.example));
        assert!(parse(&text).is_ok(), "{text}: {:?}", parse(&text).err());
    }
}

#[test]
fn a_field_of_another_type_is_invalid_message() {
    let mut failures = Vec::new();
    for case in cases() {
        for &(field, kind) in case.fields {
            for wrong in wrong_values(kind) {
                let mut fields = object(&case.example);
                fields.insert(field.into(), wrong);
                let text = message(case.kind, &fields);
                if code_of(&text) != Some(ErrorCode::InvalidMessage) {
                    failures.push(format!("{text} → {:?}", code_of(&text)));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "accepted or misread:\n{}",
        failures.join("\n")
    );
}

#[test]
fn a_required_field_missing_or_null_is_invalid_message() {
    // Required: every field the document lists without "optional", except
    // a seat action's token (without one it is `not_a_player`) and `clock`
    // (documented as `null` or absent for no clock).
    let required: &[(&str, &[&str])] = &[
        ("create", &["color"]),
        ("join", &["game"]),
        ("chat", &["game", "text"]),
        ("watch", &["game"]),
        ("unwatch", &["game"]),
        ("resume", &["game", "token"]),
        ("move", &["game", "move", "ply"]),
        ("resign", &["game"]),
        ("rematch", &["game"]),
        ("challenge_create", &["color"]),
        ("challenge_cancel", &["challenge"]),
        ("challenge_accept", &["challenge"]),
    ];
    let cases = cases();
    let mut failures = Vec::new();
    for (kind, fields) in required {
        let case = cases.iter().find(|c| c.kind == *kind).expect("a case");
        for field in *fields {
            let mut without = object(&case.example);
            without.remove(*field);
            let mut null = object(&case.example);
            null.insert((*field).into(), Value::Null);
            for text in [message(kind, &without), message(kind, &null)] {
                if code_of(&text) != Some(ErrorCode::InvalidMessage) {
                    failures.push(format!("{text} → {:?}", code_of(&text)));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "accepted or misread:\n{}",
        failures.join("\n")
    );
}

#[test]
fn an_unknown_field_is_invalid_message() {
    for case in cases() {
        for extra in ["gmae", "Game", "rated", "v2", ""] {
            let mut fields = object(&case.example);
            fields.insert(extra.into(), json!("x"));
            let text = message(case.kind, &fields);
            assert_eq!(code_of(&text), Some(ErrorCode::InvalidMessage), "{text}");
        }
    }
}

#[test]
fn a_key_given_twice_is_invalid_message() {
    for case in cases() {
        let base = message(case.kind, &object(&case.example));
        let body = base.strip_suffix('}').expect("an object");
        // Each of the message's keys again, with the same value and with
        // another: never the last one silently.
        let mut keys: Vec<(String, Value)> = object(&case.example).into_iter().collect();
        keys.push(("v".into(), json!(1)));
        keys.push(("type".into(), json!(case.kind)));
        keys.push(("id".into(), json!(3)));
        for (key, value) in keys {
            let with_id = if key == "id" {
                format!("{body},\"id\":3")
            } else {
                body.to_owned()
            };
            let text = format!("{with_id},{}:{value}}}", json!(key));
            assert_eq!(code_of(&text), Some(ErrorCode::InvalidMessage), "{text}");
        }
        // Twice inside the clock object too.
        if case.fields.iter().any(|(f, _)| *f == "clock") {
            let mut fields = object(&case.example);
            fields.remove("clock");
            let body = message(case.kind, &fields);
            let body = body.strip_suffix('}').expect("an object");
            let text = format!(
                "{body},\"clock\":{{\"initial_ms\":60000,\"increment_ms\":0,\"initial_ms\":1000}}}}"
            );
            assert_eq!(code_of(&text), Some(ErrorCode::InvalidMessage), "{text}");
        }
    }
}

#[test]
fn the_common_fields_as_documented() {
    let ping = |extra: &str| format!("{{\"v\":1,\"type\":\"ping\"{extra}}}");
    // `id`: an unsigned 53-bit integer or a string of at most 64 characters.
    for good in [",\"id\":0", ",\"id\":9007199254740991", ",\"id\":\"abc\""] {
        assert!(parse(&ping(good)).is_ok(), "{good}");
    }
    let long = format!(",\"id\":\"{}\"", "x".repeat(65));
    for bad in [
        ",\"id\":9007199254740992",
        ",\"id\":-1",
        ",\"id\":1.5",
        ",\"id\":1e3",
        ",\"id\":true",
        ",\"id\":[1]",
        ",\"id\":{\"n\":1}",
        long.as_str(),
    ] {
        assert_eq!(
            code_of(&ping(bad)),
            Some(ErrorCode::InvalidMessage),
            "{bad}"
        );
    }
    // `v`: 1, else `unsupported_version`; `type`: a message type, else
    // `unknown_type`.
    for bad in ["\"1\"", "1.0", "2", "[1]", "{\"v\":1}", "true", "null"] {
        let text = format!("{{\"v\":{bad},\"type\":\"ping\"}}");
        assert_eq!(
            code_of(&text),
            Some(ErrorCode::UnsupportedVersion),
            "{text}"
        );
    }
    for bad in ["1", "[\"ping\"]", "{\"ping\":null}", "null", "\"Ping\""] {
        let text = format!("{{\"v\":1,\"type\":{bad}}}");
        assert_eq!(code_of(&text), Some(ErrorCode::UnknownType), "{text}");
    }
    // A message is one JSON object.
    for bad in [
        "[]",
        "[{\"v\":1,\"type\":\"ping\"}]",
        "\"ping\"",
        "1",
        "null",
    ] {
        assert_eq!(code_of(bad), Some(ErrorCode::InvalidMessage), "{bad}");
    }
}
