//! Reading a message's JSON exactly as documented, where serde_json is
//! laxer: a key given twice is refused (serde_json keeps the last), and a
//! field documented as an object is refused when given as an array (serde
//! reads a struct from an array of its fields in order).

use serde::{
    de::{self, DeserializeOwned, Error as _, MapAccess, SeqAccess, Visitor},
    Deserialize, Deserializer,
};
use serde_json::{Map, Number, Value};

/// Why a text was not read as a message's JSON.
pub(crate) enum Unread {
    /// Not JSON at all (`invalid_json`).
    Syntax(serde_json::Error),
    /// JSON, but an object gives a key twice (`invalid_message`).
    Duplicate(serde_json::Error),
}

/// `text` as a JSON value, refusing an object that gives a key twice, at
/// any depth.
pub(crate) fn parse(text: &str) -> Result<Value, Unread> {
    serde_json::from_str::<Unique>(text)
        .map(|u| u.0)
        .map_err(|e| match e.classify() {
            serde_json::error::Category::Data => Unread::Duplicate(e),
            _ => Unread::Syntax(e),
        })
}

/// A JSON value whose objects give each key once.
struct Unique(Value);

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Unique, D::Error> {
        d.deserialize_any(UniqueVisitor).map(Unique)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(UniqueVisitor)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Unique(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(A::Error::custom(format!(
                    "the key \"{key}\" is given twice"
                )));
            }
            let Unique(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// An optional field documented as a JSON object (`clock`): absent or
/// `null` is `None`, an object is read as `T`, and anything else is
/// refused, an array included.
pub(crate) fn optional_object<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    match Option::<Map<String, Value>>::deserialize(d)? {
        None => Ok(None),
        Some(object) => T::deserialize(Value::Object(object))
            .map(Some)
            .map_err(D::Error::custom),
    }
}

/// A field documented as a string that names one of a few values
/// (`color`: `"white"`, `"black"`, `"random"`): only a JSON string is read.
/// serde would also read a unit variant from a one-key object
/// (`{"white": null}`).
pub(crate) fn named<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let name = String::deserialize(d)?;
    T::deserialize(Value::String(name)).map_err(D::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_given_twice_is_refused_at_any_depth() {
        assert!(matches!(
            parse(r#"{"a":1,"a":1}"#),
            Err(Unread::Duplicate(_))
        ));
        assert!(matches!(
            parse(r#"{"a":{"b":1,"b":2}}"#),
            Err(Unread::Duplicate(_))
        ));
        assert!(matches!(
            parse(r#"[{"b":1,"b":2}]"#),
            Err(Unread::Duplicate(_))
        ));
        assert!(matches!(parse(r#"{"a":1,"#), Err(Unread::Syntax(_))));
        assert!(matches!(parse("{not json"), Err(Unread::Syntax(_))));
    }

    #[test]
    fn a_value_reads_as_serde_json_reads_it() {
        let text = r#"{"a":[1,-2,3.5,"x",null,true,{"b":{}}],"c":18446744073709551615}"#;
        assert_eq!(parse(text).ok(), serde_json::from_str::<Value>(text).ok());
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Pair {
        a: u64,
        b: u64,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Holder {
        #[serde(default, deserialize_with = "optional_object")]
        pair: Option<Pair>,
    }

    #[test]
    fn an_object_field_refuses_an_array() {
        let read = |v: Value| serde_json::from_value::<Holder>(v).ok();
        assert_eq!(
            read(serde_json::json!({"pair": {"a": 1, "b": 2}})),
            Some(Holder {
                pair: Some(Pair { a: 1, b: 2 })
            })
        );
        assert_eq!(
            read(serde_json::json!({"pair": null})),
            Some(Holder { pair: None })
        );
        assert_eq!(read(serde_json::json!({})), Some(Holder { pair: None }));
        assert_eq!(read(serde_json::json!({"pair": [1, 2]})), None);
        assert_eq!(read(serde_json::json!({"pair": "1+2"})), None);
        assert_eq!(
            read(serde_json::json!({"pair": {"a": 1, "b": 2, "c": 3}})),
            None
        );
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Side {
        Left,
        Right,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    struct Named {
        #[serde(deserialize_with = "named")]
        side: Side,
    }

    #[test]
    fn a_named_value_is_a_string_only() {
        let read = |v: Value| serde_json::from_value::<Named>(v).ok();
        assert_eq!(
            read(serde_json::json!({"side": "left"})),
            Some(Named { side: Side::Left })
        );
        assert_eq!(read(serde_json::json!({"side": {"left": null}})), None);
        assert_eq!(read(serde_json::json!({"side": ["left"]})), None);
        assert_eq!(read(serde_json::json!({"side": "Left"})), None);
        assert_eq!(read(serde_json::json!({"side": 0})), None);
    }
}
