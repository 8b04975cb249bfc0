//! A client's message, read without a tree of the whole message.
//!
//! Each message was parsed into a `serde_json::Value` (a map, a `String`
//! per key), then its action and reference copied out of it, at every
//! action. Now only the parts kept are built: the type is borrowed from
//! the text where it can be, the action, the reference and the helper's
//! request are values of their own. A message this reading refuses (not
//! an object, a field of another type, a key given twice) is read again
//! as a `Value`, exactly as before, so what such a message gets back does
//! not change.

use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;

#[derive(Debug, PartialEq)]
pub(crate) struct Incoming<'a> {
    /// `type`, if it is a string.
    pub kind: Option<Cow<'a, str>>,
    /// `ref`, or null.
    pub reference: Value,
    /// `action`, when the key is there (`null` included).
    pub action: Option<Value>,
    /// The helper's `request`, or null.
    pub request: Value,
    /// `"move": true` (a `rematch` that moves the connection to the new
    /// game); any other value, or none, is false.
    pub moving: bool,
}

/// [`Incoming`] as serde reads it. The type is borrowed from the text: a
/// type written with escapes cannot be, and is read the slow way.
#[derive(Deserialize)]
struct Borrowed<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<&'a str>,
    /// `ref`, or null.
    #[serde(rename = "ref", default)]
    reference: Value,
    #[serde(default, deserialize_with = "present")]
    action: Option<Value>,
    #[serde(default)]
    request: Value,
    #[serde(rename = "move", default)]
    moving: Value,
}

/// A field that is there, whatever its value (`Option<Value>` alone would
/// read `null` as absent).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

impl<'a> Incoming<'a> {
    /// Reads `text`; Err: it is not JSON (serde's reason).
    pub(crate) fn read(text: &'a str) -> Result<Self, serde_json::Error> {
        match serde_json::from_str::<Borrowed<'a>>(text) {
            Ok(b) => Ok(Incoming {
                kind: b.kind.map(Cow::Borrowed),
                reference: b.reference,
                action: b.action,
                request: b.request,
                moving: b.moving == Value::Bool(true),
            }),
            Err(_) => serde_json::from_str::<Value>(text).map(|v| Self::from_value(&v)),
        }
    }

    /// What the server read from a message parsed as a `Value`.
    fn from_value(v: &Value) -> Self {
        Incoming {
            kind: v
                .get("type")
                .and_then(Value::as_str)
                .map(|s| Cow::Owned(s.to_string())),
            reference: v.get("ref").cloned().unwrap_or(Value::Null),
            action: v.get("action").cloned(),
            request: v.get("request").cloned().unwrap_or(Value::Null),
            moving: v.get("move") == Some(&Value::Bool(true)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_value_tree_read() {
        for text in [
            r#"{"type":"act","ref":7,"action":3}"#,
            r#"{"type":"act","ref":"a","action":{"word":"cat","at":[1,2]}}"#,
            r#"{"type":"act","ref":null,"action":null}"#,
            r#"{"type":"act"}"#,
            r#"{"type":"a\"ct","action":1}"#,
            r#"{"type":"assist","ref":{"x":[1]},"request":{"kind":"plays"}}"#,
            r#"{"type":"rematch","ref":2,"move":true}"#,
            r#"{"type":"rematch","move":"true"}"#,
            r#"{"type":"rematch","move":1,"move":true}"#,
            r#"{"type":"chat","text":"hi","extra":[1,{"deep":true}]}"#,
            r#"{"type":7,"action":1}"#,
            r#"{"type":null}"#,
            r#"{"type":"act","action":1,"action":2}"#,
            r#"{"type":"act","type":"sync"}"#,
            r#"[1,2]"#,
            r#""act""#,
            r#"null"#,
            r#"{}"#,
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            assert_eq!(
                Incoming::read(text).unwrap(),
                Incoming::from_value(&v),
                "{text}"
            );
        }
    }

    #[test]
    fn the_type_is_borrowed_from_the_text() {
        let m = Incoming::read(r#"{"type":"act","action":1}"#).unwrap();
        assert!(matches!(m.kind, Some(Cow::Borrowed("act"))));
    }

    #[test]
    fn not_json_is_an_error() {
        for text in ["", "{", r#"{"type":"act""#, "nope", "{\"a\":1}x"] {
            assert!(Incoming::read(text).is_err(), "{text:?}");
        }
    }
}
