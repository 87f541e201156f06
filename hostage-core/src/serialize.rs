//! `serde` support (feature `serde`): the text types serialize as their
//! canonical strings and deserialize by parsing (SAN leniently).
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use hostage_core::{fen::Fen, Square};
//!
//! let sq: Square = serde_json::from_str("\"e4\"").unwrap();
//! assert_eq!(serde_json::to_string(&sq).unwrap(), "\"e4\"");
//! let fen: Fen = serde_json::from_str("\"4k3/8/8/8/8/8/8/4K3[R] w E - 0 1\"").unwrap();
//! assert_eq!(fen.to_string(), "4k3/8/8/8/8/8/8/4K3[R] w E - 0 1");
//! # }
//! ```

use alloc::string::{String, ToString};
use core::{fmt::Display, str::FromStr};

use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

use crate::{fen::Fen, san::San, uci::UciMove, Square};

fn serialize_display<T: Display, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

fn deserialize_parse<'de, T, D>(deserializer: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    let text = String::deserialize(deserializer)?;
    text.parse()
        .map_err(|e: T::Err| de::Error::custom(e.to_string()))
}

macro_rules! via_string {
    ($($t:ty),*) => {$(
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serialize_display(self, serializer)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$t, D::Error> {
                deserialize_parse(deserializer)
            }
        }
    )*};
}

via_string!(Fen, San, UciMove, Square);
