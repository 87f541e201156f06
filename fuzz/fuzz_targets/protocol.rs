//! Invariant: any bytes given to the server's client-message parser (as
//! the socket gives it text: the bytes read as UTF-8, lossily) give either
//! a request or a typed rejection, never a panic. A rejection's echoed
//! input is shortened; an accepted request encodes to its canonical text,
//! which parses back to the same request, and encodes again to the same
//! text.
#![no_main]

use hostage_server::wire::protocol::{encode::encode, parse, GIVEN_MAX_CHARS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match parse(&text) {
        Err(rejection) => {
            let error = &rejection.error;
            assert!(!error.code.as_str().is_empty());
            for echoed in [&error.given, &error.game].into_iter().flatten() {
                assert!(echoed.chars().count() <= GIVEN_MAX_CHARS + 1, "{echoed:?}");
            }
        }
        Ok(envelope) => {
            let canonical = encode(&envelope);
            let again = parse(&canonical)
                .unwrap_or_else(|e| panic!("{canonical} (from {text:?}) is refused: {e:?}"));
            assert_eq!(again, envelope, "{canonical} (from {text:?}) reads differently");
            assert_eq!(encode(&again), canonical, "the canonical text of {text:?} is not stable");
        }
    }
});
