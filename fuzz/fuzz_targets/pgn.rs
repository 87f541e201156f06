//! Invariant: the PGN reader turns any bytes into games or errors and ends,
//! without a panic, a hang or unbounded memory (its `Limits`); the streaming
//! reader and the string reader agree; and every game read writes back to
//! PGN that reads as the same game.
#![no_main]

use hostage_core::pgn::{PgnError, PgnGame, Reader};
use libfuzzer_sys::fuzz_target;

fn summary(
    games: impl Iterator<Item = Result<PgnGame, PgnError>>,
    len: usize,
) -> Vec<Result<String, PgnError>> {
    let mut games = games.map(|g| g.map(|g| g.write()));
    // Every game or error consumes input, so there are at most len + 1.
    let out: Vec<_> = games.by_ref().take(len + 2).collect();
    assert!(
        games.next().is_none() && out.len() <= len + 1,
        "the reader does not end"
    );
    out
}

fuzz_target!(|data: &[u8]| {
    let streamed = summary(Reader::new(data), data.len());
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(summary(Reader::from_str(text), data.len()), streamed);
    }
    for written in streamed.iter().flatten() {
        let again = PgnGame::read(written).unwrap_or_else(|e| panic!("{written}\nreads as {e}"));
        assert_eq!(&again.write(), written);
    }
});
