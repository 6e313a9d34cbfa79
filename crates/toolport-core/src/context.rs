//! [`ReadonlyContext`]: what the layers may know about the caller of a tool.

use serde_json::{Map, Value};

/// A read-only view of the caller's state: who is asking, for which tenant, with which role.
///
/// Tool predicates see it, so the tools a model is offered can depend on who is asking ("hide
/// write tools from read-only users"). A tool call carries it down to the transport, so a
/// header provider can send the caller's identity with each HTTP request. It never goes on the
/// wire by itself.
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// use toolport_core::ReadonlyContext;
///
/// let context = ReadonlyContext::from_json(json!({"role": "viewer"}));
/// assert_eq!(context.get("role"), Some(&json!("viewer")));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReadonlyContext {
    state: Map<String, Value>,
}

impl ReadonlyContext {
    /// A context over the given state map.
    pub fn new(state: Map<String, Value>) -> Self {
        Self { state }
    }

    /// A context from a JSON object; any other JSON value gives an empty state.
    pub fn from_json(state: Value) -> Self {
        match state {
            Value::Object(state) => Self { state },
            _ => Self::default(),
        }
    }

    /// One value of the caller's state.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.state.get(key)
    }

    /// The whole state map.
    pub fn state(&self) -> &Map<String, Value> {
        &self.state
    }
}
