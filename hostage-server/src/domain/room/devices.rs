//! The further tokens of a seat: one for each device of the account that
//! holds the seat, so the account plays its game from any device where it
//! is logged in with no secret kept in clear (`docs/server.md`, Accounts).
//!
//! Policy: the game service decides that a connection's account holds the
//! seat (the account's list of seats); the room only keeps the digests, at
//! most [`MAX_SEAT_DEVICES`] a seat, the oldest dropped first. The seat's
//! own token (the one it was taken with) is never dropped. A further token
//! acts for the seat exactly as its own token does.

use hostage_core::Color;

use super::{err, Change, Room};
use crate::domain::{
    event::Event,
    refusal::{ErrorCode, ProtoError},
    TokenHash, MAX_SEAT_DEVICES,
};

impl Room {
    /// Adds `token` to the further tokens of the taken seat `side`,
    /// dropping the oldest beyond [`MAX_SEAT_DEVICES`].
    ///
    /// # Errors
    ///
    /// `invalid_token` if the seat is free (there is no seat to act for).
    pub fn add_seat_token(&mut self, side: Color, token: TokenHash) -> Result<Change, ProtoError> {
        if self.tokens.get(side).is_none() {
            return Err(err(
                ErrorCode::InvalidToken,
                format!("the {} seat is free: no token to add", side.name()),
            ));
        }
        let undo = self.undo_point();
        let was = self.devices.get(side).clone();
        let mut devices = was.clone();
        devices.push(token);
        let over = devices.len().saturating_sub(MAX_SEAT_DEVICES);
        devices.drain(..over);
        self.devices.get_mut(side).clone_from(&devices);
        Ok(Change {
            event: Event::SeatTokenAdded {
                game: self.id.clone(),
                side,
                devices,
                was,
            },
            undo,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::tests::{code, room, B, W};
    use super::*;

    #[test]
    fn a_further_token_acts_for_its_seat_and_the_oldest_goes_first() {
        let mut r = room(None, Instant::now());
        let tokens: Vec<String> = (0..=MAX_SEAT_DEVICES)
            .map(|i| format!("device{i}"))
            .collect();
        let change = r
            .add_seat_token(Color::Black, TokenHash::of(&tokens[0]))
            .unwrap();
        let Event::SeatTokenAdded { devices, was, .. } = &change.event else {
            panic!("{:?}", change.event);
        };
        assert_eq!((devices.len(), was.len()), (1, 0));
        assert_eq!(r.seat(Some(&tokens[0])).unwrap(), Color::Black);
        assert_eq!(r.seat(Some(B)).unwrap(), Color::Black);
        assert_eq!(r.seat(Some(W)).unwrap(), Color::White);
        for t in &tokens[1..] {
            r.add_seat_token(Color::Black, TokenHash::of(t)).unwrap();
        }
        // Nine devices: the first is dropped, the seat's own token stays.
        assert_eq!(code(r.seat(Some(&tokens[0]))), ErrorCode::InvalidToken);
        for t in &tokens[1..] {
            assert_eq!(r.seat(Some(t)).unwrap(), Color::Black);
        }
        assert_eq!(r.seat(Some(B)).unwrap(), Color::Black);
    }

    #[test]
    fn a_refused_store_takes_the_token_back_and_a_free_seat_gets_none() {
        let mut r = room(None, Instant::now());
        let change = r
            .add_seat_token(Color::White, TokenHash::of("other"))
            .unwrap();
        r.undo(change.undo);
        assert_eq!(code(r.seat(Some("other"))), ErrorCode::InvalidToken);
        let (mut waiting, _) = Room::create("g".into(), 0, None, Color::White, TokenHash::of(W));
        assert_eq!(
            code(waiting.add_seat_token(Color::Black, TokenHash::of("x"))),
            ErrorCode::InvalidToken
        );
    }
}
