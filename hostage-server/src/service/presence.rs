//! Telling the players of a game that goes on when a seat has gone (no
//! connection follows the game from it) and when it is back:
//! `opponent_gone` and `opponent_back` (`docs/protocol.md`, Abandonment).
//!
//! Policy: each game remembers which seats its followers were told gone
//! ([`Told`]); a message is sent only when that changes, so a player hears
//! each departure and each return once, and a follower that arrives while a
//! seat is gone is told at once ([`Told::catch_up`]). Only a game that goes
//! on is told about (a waiting or finished game cannot be claimed).
//!
//! How long a seat has been gone is the game service's to measure
//! (`games.rs`): on one server, from the moment its last follower left,
//! told at once; with a store several servers share, a seat is gone only
//! when no server has marked it present lately, which the service checks
//! every presence period. `claim_after_ms` is the time left before
//! `claim_win`/`claim_draw` is accepted, by the same rule the claim is
//! judged by.

use std::time::Duration;

use hostage_core::{ByColor, Color};

use crate::wire::protocol::Message;

/// The seats the followers of one game were told gone.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Told(ByColor<bool>);

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `opponent_gone` for `seat`, gone for `gone_for`, claimable once gone for `claim_wait`.
fn gone_message(game: &str, seat: Color, gone_for: Duration, claim_wait: Duration) -> Message {
    Message::OpponentGone {
        game: game.to_string(),
        color: seat,
        claim_after_ms: millis(claim_wait.saturating_sub(gone_for)),
    }
}

impl Told {
    /// Whether the followers were told `seat` is gone.
    #[must_use]
    pub fn is_told(&self, seat: Color) -> bool {
        *self.0.get(seat)
    }

    /// The messages that bring the followers up to date, given how long
    /// each seat has been gone (`None`: present) in a game that goes on
    /// (`active`); `claim_wait` is how long a seat must be gone before a
    /// claim. Remembers what was told. Each message comes with the seat it
    /// is about: its own followers (a seat back on another connection) are
    /// not told about themselves.
    pub fn changes(
        &mut self,
        game: &str,
        active: bool,
        gone: ByColor<Option<Duration>>,
        claim_wait: Duration,
    ) -> Vec<(Color, Message)> {
        if !active {
            return Vec::new();
        }
        let mut messages = Vec::new();
        for seat in Color::ALL {
            let told = self.0.get_mut(seat);
            match (*gone.get(seat), *told) {
                (Some(gone_for), false) => {
                    *told = true;
                    messages.push((seat, gone_message(game, seat, gone_for, claim_wait)));
                }
                (None, true) => {
                    *told = false;
                    let back = Message::OpponentBack {
                        game: game.to_string(),
                        color: seat,
                    };
                    messages.push((seat, back));
                }
                _ => {}
            }
        }
        messages
    }

    /// What a new follower of a game that goes on must be told: each seat
    /// the others were told gone, with the time left before a claim.
    #[must_use]
    pub fn catch_up(
        &self,
        game: &str,
        active: bool,
        gone: ByColor<Option<Duration>>,
        claim_wait: Duration,
    ) -> Vec<Message> {
        if !active {
            return Vec::new();
        }
        Color::ALL
            .into_iter()
            .filter(|&seat| self.is_told(seat))
            .map(|seat| {
                let gone_for = gone.get(seat).unwrap_or_default();
                gone_message(game, seat, gone_for, claim_wait)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WAIT: Duration = Duration::from_secs(120);

    fn json(m: &Message) -> serde_json::Value {
        serde_json::from_str(&m.to_text(None)).unwrap()
    }

    #[test]
    fn a_departure_and_a_return_are_told_once_each() {
        let mut told = Told::default();
        let black_gone = ByColor::new(None, Some(Duration::from_secs(20)));
        let m = told.changes("g", true, black_gone, WAIT);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].0, Color::Black);
        let v = json(&m[0].1);
        assert_eq!(v["type"], "opponent_gone");
        assert_eq!(v["game"], "g");
        assert_eq!(v["color"], "black");
        assert_eq!(v["claim_after_ms"], 100_000);
        // Still gone: nothing new.
        assert!(told.changes("g", true, black_gone, WAIT).is_empty());
        // A late follower is told, with the time left now.
        let later = ByColor::new(None, Some(Duration::from_secs(150)));
        let caught = told.catch_up("g", true, later, WAIT);
        assert_eq!(json(&caught[0])["claim_after_ms"], 0);
        // Back: told once.
        let back = told.changes("g", true, ByColor::new(None, None), WAIT);
        assert_eq!(
            json(&back[0].1),
            serde_json::json!({"v": 1, "type": "opponent_back", "game": "g", "color": "black"})
        );
        assert!(told
            .changes("g", true, ByColor::new(None, None), WAIT)
            .is_empty());
        assert!(told
            .catch_up("g", true, ByColor::new(None, None), WAIT)
            .is_empty());
    }

    #[test]
    fn a_game_that_does_not_go_on_is_not_told_about() {
        let mut told = Told::default();
        let gone = ByColor::new(Some(Duration::ZERO), Some(Duration::ZERO));
        assert!(told.changes("g", false, gone, WAIT).is_empty());
        assert!(!told.is_told(Color::White));
        assert_eq!(told.changes("g", true, gone, WAIT).len(), 2);
        assert!(told.catch_up("g", false, gone, WAIT).is_empty());
    }
}
