//! The `clock` field of `create`, `challenge_create` and `lobby_seek`, and
//! the time control as `state` and the lobby show it (`docs/protocol.md`,
//! Clocks and Correspondence).
//!
//! Policy: the field is an object, one of two shapes, read exactly:
//! `{"initial_ms":…,"increment_ms":…}` (Fischer clocks, both keys) or
//! `{"days":…}` (correspondence, the one key). A key of the other shape,
//! an unknown key, a missing key, or a value that is not a whole
//! non-negative number is `invalid_message`; a well-formed value out of
//! bounds (a clock's [`crate::domain::CLOCK_INITIAL_MS`], days not one of
//! [`DAYS`]) is `invalid_clock`, with what was given.

use serde::{de::Error as _, Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::{
    domain::correspondence::{Days, DAYS},
    domain::refusal::{ErrorCode, ProtoError},
    domain::ClockSpec,
};

/// The `clock` field as read, before its bounds are checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum ClockField {
    /// Fischer clocks.
    Fischer(ClockSpec),
    /// Days per move, as given.
    Days(u64),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DaysField {
    days: u64,
}

impl<'de> Deserialize<'de> for ClockField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ClockField, D::Error> {
        let map = Map::<String, Value>::deserialize(d)?;
        if map.contains_key("days") {
            DaysField::deserialize(Value::Object(map))
                .map(|f| ClockField::Days(f.days))
                .map_err(D::Error::custom)
        } else {
            ClockSpec::deserialize(Value::Object(map))
                .map(ClockField::Fischer)
                .map_err(D::Error::custom)
        }
    }
}

pub use crate::domain::correspondence::Control;

/// The `clock` field checked against its bounds.
///
/// # Errors
///
/// `invalid_clock`.
pub(crate) fn checked(field: Option<ClockField>) -> Result<Control, ProtoError> {
    match field {
        None => Ok((None, None)),
        Some(ClockField::Fischer(spec)) => {
            super::validate_clock(&spec)?;
            Ok((Some(spec), None))
        }
        Some(ClockField::Days(n)) => Days::new(n).map(|d| (None, Some(d))).ok_or_else(|| {
            ProtoError::new(
                ErrorCode::InvalidClock,
                format!("days must be one of {DAYS:?}"),
            )
            .given(n.to_string())
        }),
    }
}

/// A time control as shown: `{"initial_ms":…,"increment_ms":…}` or
/// `{"days":…}` (`null` where there is none).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum TimeControl {
    /// Fischer clocks.
    Fischer(ClockSpec),
    /// Days per move.
    Days {
        /// Days per move: 1, 2, 3, 5, 7 or 14.
        days: u8,
    },
}

impl TimeControl {
    /// The time control of a game or challenge with these.
    #[must_use]
    pub fn of(clock: Option<ClockSpec>, days: Option<Days>) -> Option<TimeControl> {
        match (days, clock) {
            (Some(d), _) => Some(TimeControl::Days { days: d.get() }),
            (None, Some(spec)) => Some(TimeControl::Fischer(spec)),
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read(v: Value) -> Option<ClockField> {
        serde_json::from_value(v).ok()
    }

    #[test]
    fn two_shapes_read_exactly() {
        assert_eq!(read(json!({"days": 3})), Some(ClockField::Days(3)));
        assert_eq!(
            read(json!({"initial_ms": 60_000, "increment_ms": 0})),
            Some(ClockField::Fischer(ClockSpec {
                initial_ms: 60_000,
                increment_ms: 0
            }))
        );
        for bad in [
            json!({"days": "3"}),
            json!({"days": 3.5}),
            json!({"days": -1}),
            json!({"days": null}),
            json!({"days": 3, "initial_ms": 60_000}),
            json!({"days": 3, "increment_ms": 0}),
            json!({"initial_ms": 60_000}),
            json!({}),
            json!([3]),
            json!(3),
        ] {
            assert_eq!(read(bad.clone()), None, "{bad}");
        }
    }

    #[test]
    fn days_out_of_the_list_are_an_invalid_clock() {
        for n in [1, 2, 3, 5, 7, 14] {
            let (clock, days) = checked(Some(ClockField::Days(n))).unwrap();
            assert_eq!((clock, days.map(Days::get)), (None, u8::try_from(n).ok()));
        }
        for n in [0, 4, 6, 15, 30, u64::MAX] {
            let e = checked(Some(ClockField::Days(n))).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidClock);
            assert_eq!(e.given.as_deref(), Some(n.to_string().as_str()));
        }
        assert_eq!(
            serde_json::to_value(TimeControl::of(None, Days::new(7))).unwrap(),
            json!({"days": 7})
        );
    }
}
