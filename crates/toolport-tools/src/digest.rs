//! The canonical form of a schema (object keys sorted), and the fingerprint of a schema or a
//! description: the sha256 of its canonical form.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// `sha256:` and the hex sha256 of `value` in canonical JSON: object keys sorted at every
/// level, no whitespace. Two schemas that differ only in key order or formatting have the same
/// fingerprint.
pub(crate) fn of_json(value: &Value) -> String {
    of_bytes(canonical(value).to_string().as_bytes())
}

/// `sha256:` and the hex sha256 of `text`'s UTF-8 bytes.
pub(crate) fn of_text(text: &str) -> String {
    of_bytes(text.as_bytes())
}

fn of_bytes(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(7 + digest.len() * 2);
    hex.push_str("sha256:");
    for byte in digest {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

/// `value` with every object's keys in sorted order.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(members) => Value::Object(canonical_object(members)),
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// `members` with its keys, and those of every object within, in sorted order: a schema in
/// the canonical form a lock keeps.
pub(crate) fn canonical_object(members: &Map<String, Value>) -> Map<String, Value> {
    let mut keys: Vec<&String> = members.keys().collect();
    keys.sort();
    keys.into_iter()
        .map(|key| (key.clone(), canonical(&members[key])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn key_order_and_formatting_do_not_matter() {
        let a: Value =
            serde_json::from_str(r#"{"type":"object","properties":{"b":{},"a":{}}}"#).unwrap();
        let b: Value = serde_json::from_str(
            "{ \"properties\": {\"a\": {}, \"b\": {}},\n \"type\": \"object\" }",
        )
        .unwrap();
        assert_eq!(of_json(&a), of_json(&b));
        assert_ne!(of_json(&a), of_json(&json!({"type": "object"})));
    }

    #[test]
    fn the_digest_is_sha256() {
        // The published sha256 of "abc".
        assert_eq!(
            of_text("abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
