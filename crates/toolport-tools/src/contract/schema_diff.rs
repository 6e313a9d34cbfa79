//! What changed between a pinned schema and today's, property by property: properties added,
//! removed or retyped, `required` changes, and any other keyword by name.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::diff::{ContractChangeKind, ToolSchema};
use crate::schema::MAX_DEPTH;

/// The keywords of an object schema whose changes have kinds of their own.
const OBJECT_KEYWORDS: [&str; 2] = ["properties", "required"];

/// Every change from `pinned` to `now`, two schemas of a tool that are not equal: at least
/// one.
///
/// A server's schema is untrusted input: nested properties are compared [`MAX_DEPTH`] levels
/// down at most, and a difference deeper than that is said as a change of the property at that
/// level.
pub(super) fn schema_changes(
    schema: ToolSchema,
    pinned: &Map<String, Value>,
    now: &Map<String, Value>,
) -> Vec<ContractChangeKind> {
    let mut comparison = Comparison {
        schema,
        changes: Vec::new(),
    };
    comparison.object(None, pinned, now, 0);
    let keywords = changed_keywords(pinned, now, &OBJECT_KEYWORDS);
    if !keywords.is_empty() || comparison.changes.is_empty() {
        comparison
            .changes
            .push(ContractChangeKind::KeywordsChanged {
                schema,
                path: None,
                keywords,
            });
    }
    comparison.changes
}

/// The changes found so far in one schema.
struct Comparison {
    schema: ToolSchema,
    changes: Vec<ContractChangeKind>,
}

impl Comparison {
    /// The changes to the properties and `required` of an object schema: the schema itself
    /// (`path` is `None`), or its property at `path`, `depth` levels of properties down.
    fn object(
        &mut self,
        path: Option<&str>,
        pinned: &Map<String, Value>,
        now: &Map<String, Value>,
        depth: usize,
    ) {
        let none = Map::new();
        let pinned_properties = properties(pinned).unwrap_or(&none);
        let now_properties = properties(now).unwrap_or(&none);
        let pinned_required = required(pinned);
        let now_required = required(now);
        let schema = self.schema;
        let path_of = |name: &str| match path {
            Some(path) => format!("{path}.{name}"),
            None => name.to_owned(),
        };
        for name in pinned_properties.keys() {
            if !now_properties.contains_key(name) {
                let path = path_of(name);
                self.changes
                    .push(ContractChangeKind::PropertyRemoved { schema, path });
            }
        }
        for name in now_properties.keys() {
            if !pinned_properties.contains_key(name) {
                self.changes.push(ContractChangeKind::PropertyAdded {
                    schema,
                    path: path_of(name),
                    required: now_required.contains(name.as_str()),
                });
            }
        }
        for (name, pinned_property) in pinned_properties {
            if let Some(now_property) = now_properties.get(name)
                && pinned_property != now_property
            {
                self.property(path_of(name), pinned_property, now_property, depth + 1);
            }
        }
        // A property added or removed is said once, with whether it is required.
        for name in now_required.difference(&pinned_required) {
            if !now_properties.contains_key(*name) || pinned_properties.contains_key(*name) {
                let path = path_of(name);
                self.changes
                    .push(ContractChangeKind::BecameRequired { schema, path });
            }
        }
        for name in pinned_required.difference(&now_required) {
            if !pinned_properties.contains_key(*name) || now_properties.contains_key(*name) {
                let path = path_of(name);
                self.changes
                    .push(ContractChangeKind::NoLongerRequired { schema, path });
            }
        }
    }

    /// The changes to the property at `path`, whose schemas `pinned` and `now` are not equal.
    fn property(&mut self, path: String, pinned: &Value, now: &Value, depth: usize) {
        let found_before = self.changes.len();
        let none = Map::new();
        let pinned_members = pinned.as_object().unwrap_or(&none);
        let now_members = now.as_object().unwrap_or(&none);
        let explained: &[&str] = if pinned.get("type") != now.get("type") {
            self.changes.push(ContractChangeKind::PropertyRetyped {
                schema: self.schema,
                path: path.clone(),
                from: type_name(pinned),
                to: type_name(now),
            });
            // The properties of another type are not compared, nor named as keywords.
            &["type", "properties", "required"]
        } else if depth < MAX_DEPTH {
            self.object(Some(&path), pinned_members, now_members, depth);
            &["type", "properties", "required"]
        } else {
            &["type"]
        };
        let keywords = changed_keywords(pinned_members, now_members, explained);
        if !keywords.is_empty() || self.changes.len() == found_before {
            self.changes.push(ContractChangeKind::KeywordsChanged {
                schema: self.schema,
                path: Some(path),
                keywords,
            });
        }
    }
}

/// The schema's `properties`, when it is an object.
fn properties(schema: &Map<String, Value>) -> Option<&Map<String, Value>> {
    schema.get("properties").and_then(Value::as_object)
}

/// The names in the schema's `required`.
fn required(schema: &Map<String, Value>) -> BTreeSet<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The keywords, besides `explained`, whose values differ between the two schemas, sorted.
fn changed_keywords(
    pinned: &Map<String, Value>,
    now: &Map<String, Value>,
    explained: &[&str],
) -> Vec<String> {
    let keywords: BTreeSet<&String> = pinned.keys().chain(now.keys()).collect();
    keywords
        .into_iter()
        .filter(|keyword| !explained.contains(&keyword.as_str()))
        .filter(|keyword| pinned.get(*keyword) != now.get(*keyword))
        .cloned()
        .collect()
}

/// A property's `type` in words: `integer`, `string or null` for a list of types, `untyped`
/// when it has none.
fn type_name(schema: &Value) -> String {
    match schema.get("type") {
        None => "untyped".to_owned(),
        Some(Value::String(name)) => name.clone(),
        Some(Value::Array(names)) if names.iter().all(Value::is_string) => names
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        Some(other) => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_type_is_said_in_words() {
        assert_eq!(type_name(&json!({"type": "integer"})), "integer");
        assert_eq!(
            type_name(&json!({"type": ["string", "null"]})),
            "string or null"
        );
        assert_eq!(type_name(&json!({"description": "Any."})), "untyped");
        assert_eq!(type_name(&json!(true)), "untyped");
        assert_eq!(type_name(&json!({"type": 3})), "3");
    }
}
