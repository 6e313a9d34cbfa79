//! The way back from a strict schema: the `null`s a model sends for the properties an adapter
//! made required and nullable are removed before the arguments go to the server.

use serde_json::Value;

use super::change::{AdaptedSchema, SchemaChangeKind};
use super::walk::child_path;

/// How deep arguments are followed; deeper values are passed on as they are.
const MAX_DEPTH: usize = 64;

impl AdaptedSchema {
    /// Removes from `arguments` every `null` the model sent for a property that was optional in
    /// the server's schema and that strict mode made required and nullable
    /// ([`SchemaChangeKind::RequiredNullable`]), so that the server sees the property left out,
    /// as it asked. Other values, and a `null` for a property that was nullable already, stay.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolport_providers::schema::{OpenAiAdapter, SchemaAdapter};
    ///
    /// let adapted = OpenAiAdapter::strict().adapt(&json!({
    ///     "type": "object",
    ///     "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    ///     "required": ["city"],
    /// }))?;
    /// let mut arguments = json!({"city": "Oslo", "days": null});
    /// adapted.strip_added_nulls(&mut arguments);
    /// assert_eq!(arguments, json!({"city": "Oslo"}));
    /// # Ok::<(), toolport_providers::schema::SchemaTooDeep>(())
    /// ```
    pub fn strip_added_nulls(&self, arguments: &mut Value) {
        let added: Vec<(&str, &str)> = self
            .changes
            .iter()
            .filter_map(|change| match &change.kind {
                SchemaChangeKind::RequiredNullable {
                    property,
                    null_added: true,
                } => Some((change.path.as_str(), property.as_str())),
                _ => None,
            })
            .collect();
        if !added.is_empty() {
            strip(arguments, String::new(), &self.schema, &added, 0);
        }
    }
}

/// Strips `value`, whose schema sits at `pointer` in `document`.
fn strip(
    value: &mut Value,
    pointer: String,
    document: &Value,
    added: &[(&str, &str)],
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let pointer = resolve_refs(pointer, document);
    match value {
        Value::Object(members) => {
            let pointer = object_branch(pointer, document);
            members.retain(|name, member| {
                !(member.is_null() && added.contains(&(pointer.as_str(), name.as_str())))
            });
            for (name, member) in members.iter_mut() {
                let property = child_path(&child_path(&pointer, "properties"), name);
                strip(member, property, document, added, depth + 1);
            }
        }
        Value::Array(items) => {
            let pointer = array_branch(pointer, document);
            for item in items {
                strip(
                    item,
                    child_path(&pointer, "items"),
                    document,
                    added,
                    depth + 1,
                );
            }
        }
        _ => {}
    }
}

/// Follows bare `$ref`s (bounded, for a schema that refers to itself) to the schema they name.
fn resolve_refs(mut pointer: String, document: &Value) -> String {
    for _ in 0..MAX_DEPTH {
        let reference = document
            .pointer(&pointer)
            .and_then(|schema| schema.get("$ref"))
            .and_then(Value::as_str)
            .and_then(|reference| reference.strip_prefix('#'));
        match reference {
            Some(target) => pointer = target.to_owned(),
            None => break,
        }
    }
    pointer
}

/// For an object value under a union, the first branch that describes objects.
fn object_branch(pointer: String, document: &Value) -> String {
    branch_where(pointer, document, |schema| {
        schema.get("properties").is_some() || schema.get("type") == Some(&"object".into())
    })
}

/// For an array value under a union, the first branch that describes arrays.
fn array_branch(pointer: String, document: &Value) -> String {
    branch_where(pointer, document, |schema| schema.get("items").is_some())
}

fn branch_where(pointer: String, document: &Value, fits: impl Fn(&Value) -> bool) -> String {
    let Some(Value::Array(branches)) = document.pointer(&pointer).and_then(|s| s.get("anyOf"))
    else {
        return pointer;
    };
    let union = child_path(&pointer, "anyOf");
    for index in 0..branches.len() {
        let branch = resolve_refs(child_path(&union, &index.to_string()), document);
        if document.pointer(&branch).is_some_and(&fits) {
            return branch;
        }
    }
    pointer
}
