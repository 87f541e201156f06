//! The payload of a game's announcement (`NOTIFY hostage_games`).
//!
//! Policy: `<game> <origin>`, and for a stored move its record after an
//! `m`: `<takebacks> <ply> <uci> <white ms> <black ms> <at ms>
//! <termination> <winner>`, `-` for what is not there. Every field is one
//! word (ids, marks, long-form moves and the stores' names of endings and
//! sides have no spaces); a move with a field that is not, or any payload
//! that does not read, is announced as a change of its game, which the
//! instances then read from the store: a payload never makes a room
//! differ from the store, it only spares a read.

use hostage_core::{ByColor, Color};

use crate::{
    domain::End,
    store::columns::end_params,
    store::{AnnouncedMove, Changed},
};

/// The payload announcing a change of `game` by the store `origin`, with
/// the record of the move it stored, if it was a move.
pub(super) fn payload(game: &str, origin: &str, announced: Option<&AnnouncedMove>) -> String {
    let plain = format!("{game} {origin}");
    // A correspondence move's deadline is not in the record: its game is
    // read from the store (a move there is days apart, the read is cheap).
    let Some(m) = announced.filter(|m| m.deadline_ms.is_none()) else {
        return plain;
    };
    let ms = |side: Color| {
        m.clocks
            .map_or("-".to_string(), |c| c.get(side).to_string())
    };
    let (termination, winner) = end_params(m.end);
    let record = [
        m.takebacks.to_string(),
        m.ply.to_string(),
        m.uci.clone(),
        ms(Color::White),
        ms(Color::Black),
        m.at_ms.to_string(),
        termination.unwrap_or("-").to_string(),
        winner.unwrap_or("-").to_string(),
    ];
    if record
        .iter()
        .any(|f| f.is_empty() || f.contains(char::is_whitespace))
    {
        return plain;
    }
    format!("{plain} m {}", record.join(" "))
}

/// What `payload` announces; `None` for an announcement of this store's
/// own (`origin`: its server already knows).
pub(super) fn parse(payload: &str, origin: &str) -> Option<Changed> {
    let mut words = payload.split(' ');
    let game = words.next().unwrap_or_default().to_string();
    if words.next() == Some(origin) {
        return None;
    }
    let rest: Vec<&str> = words.collect();
    Some(match rest.as_slice() {
        ["m", record @ ..] => match read_move(record) {
            Some(announced) => Changed::Move(game, announced),
            None => Changed::Game(game),
        },
        _ => Changed::Game(game),
    })
}

/// A move's record, as [`payload`] writes it.
fn read_move(record: &[&str]) -> Option<AnnouncedMove> {
    let [takebacks, ply, uci, white, black, at_ms, termination, winner] = record else {
        return None;
    };
    let number = |s: &str| s.parse::<u64>().ok();
    let clocks = match (*white, *black) {
        ("-", "-") => None,
        (w, b) => Some(ByColor::new(number(w)?, number(b)?)),
    };
    let end = match (*termination, *winner) {
        ("-", "-") => None,
        (t, w) => Some(End::from_names(t, (w != "-").then_some(w))?),
    };
    Some(AnnouncedMove {
        ply: number(ply)?,
        uci: (*uci).to_string(),
        clocks,
        at_ms: number(at_ms)?,
        end,
        deadline_ms: None,
        takebacks: number(takebacks)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::EndReason;

    fn announced(clocks: Option<(u64, u64)>, end: Option<End>) -> AnnouncedMove {
        AnnouncedMove {
            ply: 41,
            uci: "e7e8q".into(),
            clocks: clocks.map(|(w, b)| ByColor::new(w, b)),
            at_ms: 1_764_000_000_123,
            deadline_ms: None,
            end,
            takebacks: 2,
        }
    }

    #[test]
    fn a_move_is_written_as_documented_and_read_back() {
        let m = announced(Some((59_000, 61_500)), None);
        let p = payload("g1", "o1", Some(&m));
        assert_eq!(p, "g1 o1 m 2 41 e7e8q 59000 61500 1764000000123 - -");
        assert_eq!(parse(&p, "other"), Some(Changed::Move("g1".into(), m)));
    }

    #[test]
    fn endings_and_untimed_moves_read_back() {
        let mate = End {
            reason: EndReason::Rules(hostage_core::Termination::Checkmate),
            winner: Some(Color::Black),
        };
        let drawn = End {
            reason: EndReason::Rules(hostage_core::Termination::Stalemate),
            winner: None,
        };
        for m in [
            announced(None, Some(mate)),
            announced(Some((0, 5)), Some(drawn)),
        ] {
            let p = payload("g", "o", Some(&m));
            assert_eq!(parse(&p, "x"), Some(Changed::Move("g".into(), m)), "{p}");
        }
        assert!(payload("g", "o", Some(&announced(None, Some(mate)))).ends_with(" checkmate black"));
    }

    #[test]
    fn its_own_announcements_are_not_passed_on() {
        let m = announced(None, None);
        assert_eq!(parse(&payload("g", "me", Some(&m)), "me"), None);
        assert_eq!(parse(&payload("g", "me", None), "me"), None);
        assert_eq!(parse("g me", "you"), Some(Changed::Game("g".into())));
    }

    #[test]
    fn a_record_that_does_not_read_announces_the_game() {
        for p in [
            "g o m",
            "g o m 1 2 e2e4 - - 5 -",
            "g o m 1 2 e2e4 - - 5 - - extra",
            "g o m x 2 e2e4 - - 5 - -",
            "g o m 1 -2 e2e4 - - 5 - -",
            "g o m 1 2 e2e4 7 - 5 - -",
            "g o m 1 2 e2e4 - - 5 checkmate purple",
            "g o m 1 2 e2e4 - - 5 nonsense -",
            "g o m 1 2 e2e4 - - 5 - white",
            "g o m 1 2 e2e4 - - 99999999999999999999999 - -",
            "g o something else",
            "g o ",
        ] {
            assert_eq!(parse(p, "me"), Some(Changed::Game("g".into())), "{p}");
        }
        assert_eq!(parse("", "me"), Some(Changed::Game(String::new())));
    }

    #[test]
    fn a_field_with_a_space_sends_the_plain_announcement() {
        let mut m = announced(None, None);
        m.uci = "e2 e4".into();
        assert_eq!(payload("g", "o", Some(&m)), "g o");
    }
}
