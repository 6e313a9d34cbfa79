//! [`ReadonlyContext`]: what a tool filter may know about the caller.

use serde_json::{Map, Value};

/// A read-only view of the caller's state, handed to tool predicates so that the tools a model
/// sees can depend on who is asking ("hide write tools from read-only users").
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// use toolport_tools::ReadonlyContext;
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
