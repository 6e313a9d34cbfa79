//! The object root every provider requires of a tool's parameters.

use serde_json::{Map, Value, json};

use super::change::{ChangeLog, SchemaChangeKind};

/// Makes the root of `schema` an object schema. A root without a `type` (and without a union)
/// gets `"type": "object"`; a type array that allows `object` becomes `object`. Any other root (a
/// string, a union, `true`) is replaced by an object schema that accepts any arguments. MCP
/// requires an object `inputSchema`, so a conforming server never meets the last case.
pub(crate) fn ensure_object_root(schema: &mut Value, changes: &mut ChangeLog) {
    let Value::Object(root) = schema else {
        replace_root(schema, changes);
        return;
    };
    match root.get("type") {
        Some(Value::String(kind)) if kind == "object" => {}
        None if !has_union(root) => {
            root.insert("type".into(), json!("object"));
            changes.push("", SchemaChangeKind::ObjectTypeAdded);
        }
        Some(Value::Array(types)) if types.contains(&json!("object")) => {
            let types = types.iter().filter_map(|t| t.as_str().map(String::from));
            let types = types.collect();
            root.insert("type".into(), json!("object"));
            changes.push("", SchemaChangeKind::TypeArray { types });
        }
        _ => replace_root(schema, changes),
    }
}

fn has_union(schema: &Map<String, Value>) -> bool {
    schema.contains_key("anyOf") || schema.contains_key("oneOf")
}

fn replace_root(schema: &mut Value, changes: &mut ChangeLog) {
    let original = std::mem::replace(schema, json!({"type": "object", "properties": {}}));
    if let Some(description) = original.get("description") {
        schema["description"] = description.clone();
    }
    changes.push("", SchemaChangeKind::RootReplaced { original });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::SchemaChange;

    fn adapted(mut schema: Value) -> (Value, Vec<SchemaChange>) {
        let mut changes = ChangeLog::default();
        ensure_object_root(&mut schema, &mut changes);
        (schema, changes.into_changes())
    }

    #[test]
    fn an_object_root_is_left_alone() {
        let schema = json!({"type": "object", "properties": {"a": {}}});
        assert_eq!(adapted(schema.clone()), (schema, vec![]));
    }

    #[test]
    fn a_root_without_a_type_becomes_an_object() {
        let (schema, changes) = adapted(json!({"properties": {"a": {}}}));
        assert_eq!(schema, json!({"properties": {"a": {}}, "type": "object"}));
        assert_eq!(
            changes,
            [SchemaChange::new("", SchemaChangeKind::ObjectTypeAdded)]
        );
    }

    #[test]
    fn a_string_root_is_replaced_and_reported() {
        let (schema, changes) = adapted(json!({"type": "string", "description": "a name"}));
        assert_eq!(
            schema,
            json!({"type": "object", "properties": {}, "description": "a name"})
        );
        assert!(changes[0].is_loss());
    }
}
