//! The service: the hub of games ([`games::Hub`]), the lobby
//! ([`lobby::Lobby`]) and presence. It runs the domain's decisions
//! (`domain/`), stores them (`store/`) before anything else, then tells the
//! followers, with the wire's messages (`wire/`).
//!
//! | file | concern |
//! | --- | --- |
//! | `accounts.rs` | accounts: sign-up, login (throttled, hashed off the async threads), sessions, password changes, closing |
//! | `games.rs`, `games/` | the game service: rooms, followers, store-then-broadcast, catching up with a shared store |
//! | `lobby.rs` | the lobby: open challenges, kept live for its watchers, accepted into games |
//! | `puzzles.rs` | an account's puzzle rating: the standing, an attempt rated and stored |
//! | `presence.rs` | telling the players a seat has gone and is back (`opponent_gone`, `opponent_back`) |
//! | `limits.rs` | the limits an operator sets (timeouts, caps, queue bytes, eviction, abandonment) |

pub mod accounts;
pub mod games;
pub mod limits;
pub mod lobby;
pub mod presence;
pub mod puzzles;
