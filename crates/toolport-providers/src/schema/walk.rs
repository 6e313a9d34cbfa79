//! Where a JSON Schema keeps its subschemas, and the JSON Pointer of the node a walk is at.

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
    let mut path = Pointer {
        text: String::with_capacity(parent.len() + token.len() + 1),
        depth: 0,
    };
    path.text.push_str(parent);
    path.push(token);
    path.text
}

/// The JSON Pointer of the node a walk is at, in one buffer: a token is pushed before a child
/// is visited and taken off after, so a walk costs no string per node and a node's depth (its
/// count of tokens, one per array or object it is nested in) is known where it is visited.
#[derive(Debug, Default)]
pub(crate) struct Pointer {
    text: String,
    depth: usize,
}

impl Pointer {
    /// The pointer of the root, `""`.
    pub(crate) fn root() -> Self {
        Self::default()
    }

    /// The pointer as text.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// How many arrays and objects the node is nested in.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// Runs `visit` with this pointer extended by `token`, then takes the token off again.
    pub(crate) fn with_child<R>(&mut self, token: &str, visit: impl FnOnce(&mut Self) -> R) -> R {
        let length = self.text.len();
        self.push(token);
        let result = visit(self);
        self.text.truncate(length);
        self.depth -= 1;
        result
    }

    fn push(&mut self, token: &str) {
        self.text.push('/');
        for character in token.chars() {
            match character {
                '~' => self.text.push_str("~0"),
                '/' => self.text.push_str("~1"),
                other => self.text.push(other),
            }
        }
        self.depth += 1;
    }
}

/// Calls `visit` with every direct subschema of `schema`, `path` pointing at it, boolean
/// schemas included (but not the [`FLAGS`]). The definitions under `$defs` and `definitions`
/// are visited too.
pub(crate) fn for_each_subschema(
    schema: &mut Map<String, Value>,
    path: &mut Pointer,
    visit: &mut dyn FnMut(&mut Value, &mut Pointer),
) {
    for (keyword, value) in schema.iter_mut() {
        let keyword = keyword.as_str();
        match value {
            Value::Object(_) if SINGLE.contains(&keyword) => {
                path.with_child(keyword, |path| visit(value, path));
            }
            Value::Bool(_) if SINGLE.contains(&keyword) && !FLAGS.contains(&keyword) => {
                path.with_child(keyword, |path| visit(value, path));
            }
            Value::Object(members) if MAP.contains(&keyword) => {
                path.with_child(keyword, |path| {
                    for (name, subschema) in members.iter_mut() {
                        path.with_child(name, |path| visit(subschema, path));
                    }
                });
            }
            Value::Array(branches) if ARRAY.contains(&keyword) => {
                path.with_child(keyword, |path| {
                    for (index, subschema) in branches.iter_mut().enumerate() {
                        path.with_child(&index.to_string(), |path| visit(subschema, path));
                    }
                });
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
        let mut root = Pointer::root();
        for_each_subschema(
            schema.as_object_mut().unwrap(),
            &mut root,
            &mut |_, path| {
                paths.push((path.as_str().to_owned(), path.depth()));
            },
        );
        assert_eq!(
            paths,
            [
                ("/properties/a", 2),
                ("/items", 1),
                ("/anyOf/0", 2),
                ("/$defs/D", 2)
            ]
            .map(|(path, depth)| (path.to_owned(), depth))
        );
        assert_eq!((root.as_str(), root.depth()), ("", 0));
    }
}
