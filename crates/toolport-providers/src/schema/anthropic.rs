//! [`AnthropicAdapter`]: schemas for Anthropic's tool use, which takes JSON Schema as written but
//! wants an object root without a union at the top.

use serde_json::{Value, json};

use super::SchemaAdapter;
use super::bounds::{SchemaTooDeep, check_depth};
use super::change::{AdaptedSchema, ChangeLog, SchemaChangeKind};
use super::merge::merge_all_of;
use super::refs::replace_foreign_refs;
use super::root::ensure_object_root;

/// Adapts tool schemas to Anthropic's Messages API tools (`{"name", "description",
/// "input_schema"}`).
///
/// The schema passes through with every keyword, local `$ref`s included. On a copy, external
/// `$ref`s are replaced, a root `allOf` is merged, the root is made an object schema, and a
/// root `anyOf` or `oneOf` (which the API refuses at the top level) is dropped and reported.
///
/// ```
/// use serde_json::json;
/// use toolport_providers::schema::{AnthropicAdapter, SchemaAdapter};
///
/// let schema = json!({"type": "object", "properties": {"q": {"type": "string", "minLength": 1}}});
/// let adapted = AnthropicAdapter::new().adapt(&schema).unwrap();
/// assert_eq!(adapted.schema, schema);
/// assert!(adapted.changes.is_empty());
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct AnthropicAdapter {}

impl AnthropicAdapter {
    /// The adapter.
    pub fn new() -> Self {
        Self::default()
    }
}

impl SchemaAdapter for AnthropicAdapter {
    fn provider(&self) -> &'static str {
        "anthropic"
    }

    fn adapt(&self, schema: &Value) -> Result<AdaptedSchema, SchemaTooDeep> {
        check_depth(schema, self.provider())?;
        let mut changes = ChangeLog::default();
        let mut adapted = schema.clone();
        replace_foreign_refs(&mut adapted, schema, &mut changes);
        if let Value::Object(root) = &mut adapted {
            merge_all_of(root, "", &mut changes);
        }
        ensure_object_root(&mut adapted, &mut changes);
        if let Value::Object(root) = &mut adapted {
            for keyword in ["anyOf", "oneOf"] {
                if let Some(value) = root.shift_remove(keyword) {
                    let keyword = keyword.to_owned();
                    changes.push("", SchemaChangeKind::Dropped { keyword, value });
                }
            }
        }
        Ok(AdaptedSchema::new(adapted, changes, false))
    }

    /// `{"name", "description", "input_schema"}`.
    fn function_declaration(
        &self,
        name: &str,
        description: &str,
        adapted: &AdaptedSchema,
    ) -> Value {
        json!({"name": name, "description": description, "input_schema": adapted.schema})
    }
}
