//! The JSON bodies of the HTTP endpoints (accounts, `account_http.rs`;
//! puzzles, `puzzle_http.rs`), read exactly as documented, by one parser:
//! a JSON object (an array of the fields in order, which serde reads as a
//! struct, is refused), each key once (at any depth, as the WebSocket's
//! messages: `wire/protocol/strict.rs`), exactly the keys of the body and
//! of their documented types. Anything else is `invalid_request`, whose
//! message names what is wrong (not JSON, not an object, a key given
//! twice, wrong keys or types) and never a value read, so a password is
//! never echoed. A refused body changes nothing: it is read before any
//! other step of the request.

use axum::{body::Bytes, extract::rejection::BytesRejection};
use serde::de::DeserializeOwned;

use crate::{
    domain::account::{AccountError, AccountRefusal},
    wire::protocol::strict::{self, Unread},
};

/// The JSON object `body`, with exactly the keys of `T`, each once.
///
/// # Errors
///
/// `invalid_request`.
pub(crate) fn parse<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, AccountError> {
    let invalid = |why: &str| {
        AccountError::new(
            AccountRefusal::InvalidRequest,
            format!("the body is not the JSON object this endpoint takes ({why})"),
        )
    };
    let body = body.map_err(|e| {
        AccountError::new(
            AccountRefusal::InvalidRequest,
            format!("the body could not be read: {e}"),
        )
    })?;
    let text = std::str::from_utf8(&body).map_err(|_| invalid("not UTF-8"))?;
    let value = strict::parse(text).map_err(|e| match e {
        Unread::Syntax(e) => invalid(category(&e)),
        Unread::Duplicate(_) => invalid("a key given twice"),
    })?;
    if !value.is_object() {
        return Err(invalid("not an object"));
    }
    // The serde error names the key or the type at fault, never a value.
    serde_json::from_value(value).map_err(|e| invalid(category(&e)))
}

/// What kind of JSON error `e` is, without any of the text it read.
fn category(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Io => "unreadable",
        serde_json::error::Category::Syntax => "not JSON",
        serde_json::error::Category::Data => "wrong keys or types",
        serde_json::error::Category::Eof => "cut short",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Pair {
        username: String,
        password: String,
    }

    fn read(text: &str) -> Result<Pair, String> {
        parse::<Pair>(Ok(Bytes::from(text.to_owned()))).map_err(|e| {
            assert_eq!(e.code(), "invalid_request");
            e.message
        })
    }

    #[test]
    fn only_the_documented_object_is_read() {
        assert!(read(r#"{"username": "Ada", "password": "secret pass"}"#).is_ok());
        let refused = [
            (r#"["Ada", "secret pass"]"#, "not an object"),
            (
                r#"{"username": "Ada", "username": "Bob", "password": "p"}"#,
                "a key given twice",
            ),
            (
                r#"{"username": 7, "password": "secret pass"}"#,
                "wrong keys",
            ),
            (r#"{"username": "Ada"}"#, "wrong keys"),
            (
                r#"{"username": "Ada", "password": "p", "x": 1}"#,
                "wrong keys",
            ),
            ("null", "not an object"),
            ("", "cut short"),
            ("{", "cut short"),
            ("not json", "not JSON"),
        ];
        for (body, why) in refused {
            let message = read(body).unwrap_err();
            assert!(message.contains(why), "{body}: {message}");
            assert!(!message.contains("secret"), "{message}");
        }
        let bytes = Bytes::from_static(b"{\"username\": \"\xff\", \"password\": \"p\"}");
        let e = parse::<Pair>(Ok(bytes)).unwrap_err();
        assert!(e.message.contains("not UTF-8"), "{}", e.message);
    }
}
