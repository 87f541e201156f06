//! Fixtures for the tests of the `Store` contract (`store.rs`,
//! `takeback_store.rs`, `group_commit.rs`): the writes that make a game
//! ready to play, and a runtime to drive a store. Included as
//! `#[path = "support/store.rs"] mod store_fixtures;`.

#![allow(dead_code)]

use hostage_core::{ByColor, Color};
use hostage_server::{
    domain::{ClockSpec, TokenHash},
    store::{NewGame, Store, Write},
};

/// Creates game `id`, 60 s a side, White seated with token `w`.
pub fn create(id: &str) -> Write {
    Write::CreateGame(NewGame {
        id: id.into(),
        created_ms: 1,
        start_fen: hostage_core::Position::new().fen(),
        days: None,
        clock: Some(ClockSpec {
            initial_ms: 60_000,
            increment_ms: 0,
        }),
        seat: Color::White,
        token: TokenHash::of("w"),
        name: None,
    })
}

/// Seats Black in game `id` with token `b`; both clocks at 60 s.
pub fn seat(id: &str) -> Write {
    Write::TakeSeat {
        game: id.into(),
        side: Color::Black,
        token: TokenHash::of("b"),
        clocks: Some(ByColor::new(60_000, 60_000)),
        deadline_ms: None,
        name: None,
    }
}

/// Game `id`, 60 s a side, both seats taken (tokens `w` and `b`), no move.
pub async fn seated_game(store: &dyn Store, id: &str) {
    store.write(create(id)).await.expect("create");
    store.write(seat(id)).await.expect("seat");
}

/// A runtime on the test's own thread: writes handed over in one poll are
/// all queued before a writer task runs, so they make one group.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}
