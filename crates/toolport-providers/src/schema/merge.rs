//! Merging `allOf` into the schema that holds it, and `oneOf` as `anyOf`, for providers that
//! have neither.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::change::{ChangeLog, SchemaChangeKind};

/// Merges the branches of `schema`'s `allOf` into `schema` and reports it. `properties` and
/// `required` are united; any other keyword keeps the first value met (the schema's own, then
/// the branches' in order), and a later value that differs is reported as dropped.
pub(crate) fn merge_all_of(schema: &mut Map<String, Value>, path: &str, changes: &mut ChangeLog) {
    let Some(Value::Array(branches)) = schema.shift_remove("allOf") else {
        return;
    };
    changes.push(path, SchemaChangeKind::MergedAllOf);
    for branch in branches {
        let Value::Object(branch) = branch else {
            continue;
        };
        for (keyword, value) in branch {
            merge_keyword(schema, keyword, value, path, changes);
        }
    }
}

/// Takes `oneOf` as `anyOf` (unless the schema has an `anyOf` already) and reports it.
pub(crate) fn one_of_as_any_of(
    schema: &mut Map<String, Value>,
    path: &str,
    changes: &mut ChangeLog,
) {
    if schema.contains_key("anyOf") {
        return;
    }
    if let Some(branches) = schema.shift_remove("oneOf") {
        schema.insert("anyOf".into(), branches);
        changes.push(path, SchemaChangeKind::OneOfAsAnyOf);
    }
}

fn merge_keyword(
    schema: &mut Map<String, Value>,
    keyword: String,
    value: Value,
    path: &str,
    changes: &mut ChangeLog,
) {
    match (keyword.as_str(), schema.get_mut(&keyword), value) {
        (_, None, value) => {
            schema.insert(keyword, value);
        }
        ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
            for (name, property) in theirs {
                mine.entry(name).or_insert(property);
            }
        }
        ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
            let mut present: HashSet<String> = mine.iter().map(Value::to_string).collect();
            for name in theirs {
                if present.insert(name.to_string()) {
                    mine.push(name);
                }
            }
        }
        (_, Some(existing), value) if *existing == value => {}
        (_, Some(_), value) => changes.push(path, SchemaChangeKind::Dropped { keyword, value }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::SchemaChange;
    use serde_json::json;

    #[test]
    fn properties_and_required_are_united() {
        let mut schema = json!({
            "description": "a pet",
            "allOf": [
                {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
                {"properties": {"age": {"type": "integer"}}, "required": ["age", "name"]},
            ],
        });
        let mut changes = ChangeLog::default();
        merge_all_of(schema.as_object_mut().unwrap(), "", &mut changes);
        let changes = changes.into_changes();
        assert_eq!(
            schema,
            json!({
                "description": "a pet",
                "type": "object",
                "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
                "required": ["name", "age"],
            })
        );
        assert_eq!(
            changes,
            [SchemaChange::new("", SchemaChangeKind::MergedAllOf)]
        );
    }

    #[test]
    fn a_conflicting_keyword_keeps_the_first_value_and_reports_the_other() {
        let mut schema = json!({"type": "string", "allOf": [{"type": "integer"}]});
        let mut changes = ChangeLog::default();
        merge_all_of(schema.as_object_mut().unwrap(), "/p", &mut changes);
        let changes = changes.into_changes();
        assert_eq!(schema, json!({"type": "string"}));
        assert_eq!(
            changes[1],
            SchemaChange::new(
                "/p",
                SchemaChangeKind::Dropped {
                    keyword: "type".into(),
                    value: json!("integer"),
                }
            )
        );
    }
}
