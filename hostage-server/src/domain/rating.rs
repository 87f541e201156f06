//! Ratings: Glicko-2 as lichess runs it, one rating per category.
//!
//! | file | concern |
//! | --- | --- |
//! | `rating/glicko2.rs` | Glickman's algorithm: one rating period, steps 1–8 |
//! | `rating/instant.rs` | lichess's flavour: a game is a period of its own, rated at once; deviations grow with time; lichess's parameters and bounds |
//! | `rating/category.rs` | the categories, by a clock's estimated duration, and correspondence |
//! | `rating/rateable.rs` | whether a game is rated: both players logged in, a clock or days per move, not aborted |
//!
//! Sources (`docs/server.md`, Ratings): Mark E. Glickman, "Example of the
//! Glicko-2 system" (2013); lichess's parameters and categories (lila and
//! scalachess, AGPL: read for their numbers only); liglicko2 (Niklas
//! Fiekas, MIT or Apache-2.0) for fractional rating periods.

pub mod category;
pub mod glicko2;
pub mod instant;
pub mod rateable;
