//! Where a JSON Schema keeps its subschemas, and the JSON Pointer paths that name them.

use serde_json::{Map, Value};

/// Keywords whose value is one subschema.
const SINGLE: &[&str] = &[
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
];

/// Keywords of [`SINGLE`] whose boolean value is read as a flag (`false`: nothing more is
/// allowed) by the keyword's own rule, and not visited as a schema.
const FLAGS: &[&str] = &[
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Keywords whose value maps names to subschemas.
const MAP: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
    "definitions",
];

/// Keywords whose value is an array of subschemas (`items` too, in drafts before 2020-12).
const ARRAY: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// `parent` extended by one reference token, escaped as RFC 6901 says (`~` as `~0`, `/` as `~1`).
pub(crate) fn child_path(parent: &str, token: &str) -> String {
    let mut path = String::with_capacity(parent.len() + token.len() + 1);
    path.push_str(parent);
    path.push('/');
    for character in token.chars() {
        match character {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            other => path.push(other),
        }
    }
    path
}

/// Calls `visit` with every direct subschema of `schema` and its path, boolean schemas
/// included (but not the [`FLAGS`]). The definitions under `$defs` and `definitions` are
/// visited too.
pub(crate) fn for_each_subschema(
    schema: &mut Map<String, Value>,
    path: &str,
    visit: &mut dyn FnMut(&mut Value, &str),
) {
    for (keyword, value) in schema.iter_mut() {
        let keyword = keyword.as_str();
        match value {
            Value::Object(_) if SINGLE.contains(&keyword) => {
                visit(value, &child_path(path, keyword));
            }
            Value::Bool(_) if SINGLE.contains(&keyword) && !FLAGS.contains(&keyword) => {
                visit(value, &child_path(path, keyword));
            }
            Value::Object(members) if MAP.contains(&keyword) => {
                let keyword_path = child_path(path, keyword);
                for (name, subschema) in members.iter_mut() {
                    visit(subschema, &child_path(&keyword_path, name));
                }
            }
            Value::Array(branches) if ARRAY.contains(&keyword) => {
                let keyword_path = child_path(path, keyword);
                for (index, subschema) in branches.iter_mut().enumerate() {
                    visit(subschema, &child_path(&keyword_path, &index.to_string()));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tokens_are_escaped_as_rfc_6901_says() {
        assert_eq!(child_path("", "a/b~c"), "/a~1b~0c");
        assert_eq!(child_path("/properties", "x"), "/properties/x");
    }

    #[test]
    fn every_kind_of_subschema_is_visited() {
        let mut schema = json!({
            "properties": {"a": {"type": "string"}},
            "items": {"type": "number"},
            "anyOf": [{"type": "null"}],
            "$defs": {"D": {"type": "boolean"}},
            "enum": [{"not": "a schema"}],
        });
        let mut paths = Vec::new();
        for_each_subschema(schema.as_object_mut().unwrap(), "", &mut |_, path| {
            paths.push(path.to_owned());
        });
        assert_eq!(
            paths,
            ["/properties/a", "/items", "/anyOf/0", "/$defs/D"].map(String::from)
        );
    }
}
