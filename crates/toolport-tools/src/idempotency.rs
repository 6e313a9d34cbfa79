//! [`Idempotency`]: a tool's opt-in idempotency key, derived from the agent's invocation id and
//! the arguments, sent as an argument or in `_meta`, so that a call that timed out can be sent
//! again without a second side effect.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use rmcp::model::RequestMetaObject;
use serde_json::{Map, Value};

use crate::ReadonlyContext;
use crate::digest;

/// The context key the invocation id is read from, by default.
const INVOCATION_ID: &str = "invocation_id";

/// Where a tool's idempotency key goes in the request.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyPlacement {
    /// An argument of this name, which the server's schema declares. It is taken out of the
    /// declaration the model sees: the model never makes or sees the key.
    Argument(String),
    /// A `_meta` entry of this name on the `tools/call` request.
    Meta(String),
}

/// A tool's idempotency: where its key goes, and how many times a call that timed out is sent
/// again with the same key.
///
/// The key is a sha256 of the agent's invocation id (read from the caller's context, under
/// `invocation_id` unless [`invocation_id_from`](Self::invocation_id_from) says otherwise), the
/// tool's name and the canonical arguments, so the same model call in the same invocation gets
/// the same key, and a server that honours it charges, books or refunds once. Without an
/// invocation id in the context, each call gets a key of its own, which still covers its
/// retries. A keyed tool is also replayed after a lost connection.
///
/// The server must honour the key: this only sends it. Set it per tool, with
/// [`ReplayPolicy::idempotent`](crate::ReplayPolicy::idempotent).
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub struct Idempotency {
    placement: KeyPlacement,
    retries: u32,
    invocation_key: String,
}

impl Idempotency {
    /// The key as the argument `name`; one retry after a timeout.
    pub fn argument(name: impl Into<String>) -> Self {
        Self::new(KeyPlacement::Argument(name.into()))
    }

    /// The key in the request's `_meta` under `key`; one retry after a timeout.
    pub fn meta(key: impl Into<String>) -> Self {
        Self::new(KeyPlacement::Meta(key.into()))
    }

    fn new(placement: KeyPlacement) -> Self {
        Self {
            placement,
            retries: 1,
            invocation_key: INVOCATION_ID.to_owned(),
        }
    }

    /// How many times a call that timed out is sent again, with the same key. Default 1.
    pub fn retries(mut self, retries: u32) -> Self {
        self.retries = retries;
        self
    }

    /// The context key the invocation id is read from. Default `invocation_id`.
    pub fn invocation_id_from(mut self, key: impl Into<String>) -> Self {
        self.invocation_key = key.into();
        self
    }

    /// Where the key goes.
    pub fn placement(&self) -> &KeyPlacement {
        &self.placement
    }

    /// How many times a call that timed out is sent again.
    pub fn retry_count(&self) -> u32 {
        self.retries
    }

    /// The key of a call of `tool` with `arguments` by the caller of `context`.
    pub(crate) fn key(
        &self,
        tool: &str,
        arguments: &Value,
        context: Option<&ReadonlyContext>,
    ) -> String {
        let invocation = context
            .and_then(|context| context.get(&self.invocation_key))
            .map_or_else(fresh_nonce, |id| match id {
                Value::String(id) => id.clone(),
                other => other.to_string(),
            });
        let arguments = digest::of_json(arguments);
        let digest = digest::of_text(&format!("{invocation}\0{tool}\0{arguments}"));
        // The first 32 hex digits: 128 bits.
        let hex = &digest["sha256:".len()..];
        format!("tpk-{}", &hex[..32])
    }

    /// Puts `key` where it goes: among `arguments`, or in `meta`.
    pub(crate) fn apply(
        &self,
        key: String,
        arguments: &mut Map<String, Value>,
        meta: &mut Option<RequestMetaObject>,
    ) {
        match &self.placement {
            KeyPlacement::Argument(name) => {
                arguments.insert(name.clone(), Value::String(key));
            }
            KeyPlacement::Meta(name) => {
                let meta = meta.get_or_insert_with(RequestMetaObject::new);
                meta.insert(name.clone(), Value::String(key));
            }
        }
    }

    /// `schema` without the key's argument, for the declaration the model sees.
    pub(crate) fn hide_from(&self, schema: &mut Value) {
        let KeyPlacement::Argument(name) = &self.placement else {
            return;
        };
        if let Some(Value::Object(properties)) = schema.get_mut("properties") {
            properties.shift_remove(name);
        }
        if let Some(Value::Array(required)) = schema.get_mut("required") {
            required.retain(|required| required.as_str() != Some(name));
        }
    }
}

/// A value no other call of this process gets, for a call without an invocation id.
fn fresh_nonce() -> String {
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    format!("{}-{nanos}-{call}", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn context(invocation: &str) -> ReadonlyContext {
        ReadonlyContext::from_json(json!({"invocation_id": invocation}))
    }

    #[test]
    fn the_same_call_in_the_same_invocation_gets_the_same_key() {
        let keys = Idempotency::argument("idempotency_key");
        let arguments = json!({"amount": 5, "to": "acct-1"});
        let reordered = json!({"to": "acct-1", "amount": 5});
        let first = keys.key("charge", &arguments, Some(&context("inv-1")));
        assert_eq!(
            first,
            keys.key("charge", &reordered, Some(&context("inv-1")))
        );
        assert_eq!(first.len(), "tpk-".len() + 32);
        assert_ne!(
            first,
            keys.key("charge", &arguments, Some(&context("inv-2")))
        );
        assert_ne!(
            first,
            keys.key("refund", &arguments, Some(&context("inv-1")))
        );
        assert_ne!(
            first,
            keys.key("charge", &json!({"amount": 6}), Some(&context("inv-1")))
        );
    }

    #[test]
    fn without_an_invocation_id_every_call_gets_its_own_key() {
        let keys = Idempotency::meta("io.example/idempotency-key");
        let arguments = json!({"amount": 5});
        assert_ne!(
            keys.key("charge", &arguments, None),
            keys.key("charge", &arguments, None)
        );
    }

    #[test]
    fn the_key_argument_is_hidden_from_the_model() {
        let mut schema = json!({
            "type": "object",
            "properties": {"amount": {"type": "integer"}, "idempotency_key": {"type": "string"}},
            "required": ["amount", "idempotency_key"],
        });
        Idempotency::argument("idempotency_key").hide_from(&mut schema);
        assert_eq!(
            schema,
            json!({"type": "object", "properties": {"amount": {"type": "integer"}}, "required": ["amount"]})
        );
    }
}
