//! [`GeminiAdapter`]: schemas for Gemini's function declarations, which take an OpenAPI 3.0
//! subset of JSON Schema and reject every keyword outside it.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use super::SchemaAdapter;
use super::bounds::{SchemaTooDeep, check_depth};
use super::change::{AdaptedSchema, ChangeLog, SchemaChangeKind};
use super::copy_budget::CopyBudget;
use super::merge::{merge_all_of, one_of_as_any_of};
use super::refs::inline_local_refs;
use super::root::ensure_object_root;
use super::walk::{Pointer, for_each_subschema};
use crate::json_measure;

/// The keywords Gemini's `Schema` accepts. Everything else is dropped and reported.
const KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "propertyOrdering",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "anyOf",
    "default",
    "example",
];

/// How many times a recursive `$ref` is inlined inside itself before it is cut, by default.
const DEFAULT_RECURSION_DEPTH: usize = 2;

/// Adapts tool schemas to Gemini (the Gemini API and Vertex AI function declarations).
///
/// On a copy of the schema it:
/// - inlines local `$ref`s and drops `$defs` (a recursive one is cut after
///   [`recursion_depth`](Self::recursion_depth) levels); an external `$ref` is replaced;
/// - merges `allOf`, takes `oneOf` as `anyOf`, and turns a union with `null` into `nullable`;
/// - turns type arrays into a nullable type or an `anyOf`, and `const` into a one-value `enum`;
/// - drops an `enum` that is not all strings (Gemini's enums are strings), a `format` Gemini
///   does not know for the type, `required` names of undefined properties, and every keyword
///   outside Gemini's `Schema` (`additionalProperties`, `$schema`, `exclusiveMinimum`, …).
///
/// Each change is reported in the [`AdaptedSchema`].
///
/// ```
/// use serde_json::json;
/// use toolport_providers::schema::{GeminiAdapter, SchemaAdapter};
///
/// let adapted = GeminiAdapter::new().adapt(&json!({
///     "$schema": "https://json-schema.org/draft/2020-12/schema",
///     "type": "object",
///     "properties": {"note": {"type": ["string", "null"]}},
///     "additionalProperties": false,
/// }))?;
/// assert_eq!(
///     adapted.schema,
///     json!({"type": "object", "properties": {"note": {"type": "string", "nullable": true}}})
/// );
/// assert_eq!(adapted.changes.len(), 3);
/// # Ok::<(), toolport_providers::schema::SchemaTooDeep>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct GeminiAdapter {
    recursion_depth: usize,
}

impl Default for GeminiAdapter {
    fn default() -> Self {
        Self {
            recursion_depth: DEFAULT_RECURSION_DEPTH,
        }
    }
}

impl GeminiAdapter {
    /// The adapter with its defaults: recursion cut at depth 2.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many times a recursive `$ref` is inlined inside itself before it is cut.
    pub fn recursion_depth(mut self, depth: usize) -> Self {
        self.recursion_depth = depth;
        self
    }
}

impl SchemaAdapter for GeminiAdapter {
    fn provider(&self) -> &'static str {
        "gemini"
    }

    fn adapt(&self, schema: &Value) -> Result<AdaptedSchema, SchemaTooDeep> {
        check_depth(schema, self.provider())?;
        let mut changes = ChangeLog::default();
        let mut budget = CopyBudget::default();
        let mut adapted =
            inline_local_refs(schema, self.recursion_depth, &mut budget, &mut changes);
        ensure_object_root(&mut adapted, &mut changes);
        normalize(
            &mut adapted,
            &mut Pointer::root(),
            &mut budget,
            &mut changes,
        );
        Ok(AdaptedSchema::new(adapted, changes, false))
    }

    /// `{"name", "description", "parameters"}`, as in a `functionDeclarations` list. Gemini
    /// rejects an object without properties, so a tool without parameters has none.
    fn function_declaration(
        &self,
        name: &str,
        description: &str,
        adapted: &AdaptedSchema,
    ) -> Value {
        let mut declaration = json!({"name": name, "description": description});
        let has_properties = adapted
            .schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|properties| !properties.is_empty());
        if has_properties {
            declaration["parameters"] = adapted.schema.clone();
        }
        declaration
    }
}

/// Rewrites `node` and everything below it into Gemini's subset. What decides which keywords
/// stay (merging `allOf`, `oneOf` and `const`, dropping the rest) runs before the children, so
/// nothing below a dropped keyword is rewritten; what reads the children (a union's branches)
/// runs after them. A union's branches copied for each type of a type array are paid from
/// `budget`.
fn normalize(
    node: &mut Value,
    pointer: &mut Pointer,
    budget: &mut CopyBudget,
    changes: &mut ChangeLog,
) {
    if let Value::Bool(accepts_anything) = *node {
        if !accepts_anything {
            changes.push(pointer.as_str(), SchemaChangeKind::FalseSchema);
        }
        *node = json!({});
    }
    let Value::Object(schema) = node else {
        return;
    };
    let path = pointer.as_str();
    merge_all_of(schema, path, changes);
    one_of_as_any_of(schema, path, changes);
    if let Some(value) = schema.shift_remove("const") {
        schema.insert("enum".into(), json!([value]));
        changes.push(path, SchemaChangeKind::ConstAsEnum);
    }
    drop_unknown_keywords(schema, path, changes);
    for_each_subschema(schema, pointer, &mut |child, pointer| {
        normalize(child, pointer, budget, changes);
    });
    let path = pointer.as_str();
    union_with_null(schema, path, changes);
    type_array(schema, path, budget, changes);
    string_enum(schema, path, changes);
    known_format(schema, path, changes);
    defined_required(schema, path, changes);
}

/// `anyOf: [X, {"type": "null"}]` as X, nullable; with several other branches, the `null` ones
/// go and the union is marked nullable.
fn union_with_null(schema: &mut Map<String, Value>, path: &str, changes: &mut ChangeLog) {
    let Some(Value::Array(branches)) = schema.get_mut("anyOf") else {
        return;
    };
    let before = branches.len();
    branches.retain(|branch| !is_null_type(branch));
    if branches.len() == before {
        return;
    }
    changes.push(path, SchemaChangeKind::NullableUnion);
    if branches.len() == 1 {
        let only = branches.pop();
        // The union goes before its branch moves up, so a union inside the branch stays.
        schema.shift_remove("anyOf");
        if let Some(Value::Object(only)) = only {
            for (keyword, value) in only {
                schema.entry(keyword).or_insert(value);
            }
        }
    }
    schema.insert("nullable".into(), Value::Bool(true));
}

fn is_null_type(schema: &Value) -> bool {
    schema.get("type") == Some(&json!("null"))
}

/// `type: ["T", "null"]` as a nullable `T`; several non-null types as an `anyOf` of each, or,
/// when the schema has an `anyOf` already, as that union with each branch held to the types
/// (a branch of another type cannot match, and goes; if none is left, the types alone).
fn type_array(
    schema: &mut Map<String, Value>,
    path: &str,
    budget: &mut CopyBudget,
    changes: &mut ChangeLog,
) {
    let Some(Value::Array(types)) = schema.get("type") else {
        return;
    };
    let names: Vec<String> = types
        .iter()
        .filter_map(|t| t.as_str().map(String::from))
        .collect();
    let mut seen = HashSet::new();
    let mut kept: Vec<&String> = names
        .iter()
        .filter(|name| *name != "null" && seen.insert(name.as_str()))
        .collect();
    if kept.len() < names.len() {
        schema.insert("nullable".into(), Value::Bool(true));
    }
    match kept.len() {
        0 => {
            schema.shift_remove("type");
        }
        1 => {
            schema.insert("type".into(), json!(kept.remove(0)));
        }
        _ => {
            schema.shift_remove("type");
            let held = match schema.shift_remove("anyOf") {
                Some(Value::Array(branches)) => match held_to_types(branches, &kept, budget) {
                    Ok(held) => held,
                    Err(branches) => {
                        let (keyword, value) = ("anyOf".into(), Value::Array(branches));
                        changes.push(path, SchemaChangeKind::Dropped { keyword, value });
                        Vec::new()
                    }
                },
                _ => Vec::new(),
            };
            // No branch left (or none to begin with): a union of the types alone.
            let union = if held.is_empty() {
                kept.iter().map(|name| json!({"type": name})).collect()
            } else {
                held
            };
            schema.insert("anyOf".into(), Value::Array(union));
        }
    }
    changes.push(path, SchemaChangeKind::TypeArray { types: names });
}

/// The branches of a union whose schema also allows only `types`: a branch of one of them
/// stays, a branch of none goes, and a branch without a type becomes one branch per type. The
/// copies that takes are paid from `budget`; when it cannot pay, the branches come back as
/// they were, as the error.
fn held_to_types(
    branches: Vec<Value>,
    types: &[&String],
    budget: &mut CopyBudget,
) -> Result<Vec<Value>, Vec<Value>> {
    // Each copy is the branch with `"type": name` added.
    let names: usize = types
        .iter()
        .map(|name| json_measure::size_of_str(name) + r#","type":"#.len())
        .sum();
    let copies = branches
        .iter()
        .filter(|branch| branch.get("type").and_then(Value::as_str).is_none())
        .map(|branch| {
            let branch = json_measure::size(branch).saturating_mul(types.len());
            branch.saturating_add(names)
        })
        .fold(0, usize::saturating_add);
    if !budget.spend(copies) {
        return Err(branches);
    }
    let allowed: HashSet<&str> = types.iter().map(|name| name.as_str()).collect();
    let mut held = Vec::new();
    for branch in branches {
        match branch.get("type").and_then(Value::as_str) {
            Some(own) => {
                if allowed.contains(own) {
                    held.push(branch);
                }
            }
            None => {
                for name in types {
                    let mut typed = branch.clone();
                    if let Value::Object(fields) = &mut typed {
                        fields.insert("type".into(), json!(name));
                    }
                    held.push(typed);
                }
            }
        }
    }
    Ok(held)
}

/// Gemini's enums are strings: a `null` in one marks the schema nullable, and an enum with any
/// other kind of value is dropped.
fn string_enum(schema: &mut Map<String, Value>, path: &str, changes: &mut ChangeLog) {
    let Some(Value::Array(values)) = schema.get_mut("enum") else {
        return;
    };
    let had_null = values.iter().any(Value::is_null);
    values.retain(|value| !value.is_null());
    let all_strings = !values.is_empty() && values.iter().all(Value::is_string);
    if had_null {
        schema.insert("nullable".into(), Value::Bool(true));
    }
    if all_strings {
        schema.entry("type").or_insert_with(|| json!("string"));
    } else if let Some(value) = schema.shift_remove("enum") {
        let keyword = "enum".into();
        changes.push(path, SchemaChangeKind::Dropped { keyword, value });
    }
}

/// The formats Gemini takes: `enum` and `date-time` for strings, `float` and `double` for
/// numbers, `int32` and `int64` for integers.
fn known_format(schema: &mut Map<String, Value>, path: &str, changes: &mut ChangeLog) {
    let Some(format) = schema.get("format").and_then(Value::as_str) else {
        return;
    };
    let known = match schema.get("type").and_then(Value::as_str) {
        Some("string") => matches!(format, "enum" | "date-time"),
        Some("number") => matches!(format, "float" | "double"),
        Some("integer") => matches!(format, "int32" | "int64"),
        _ => false,
    };
    if !known && let Some(value) = schema.shift_remove("format") {
        let keyword = "format".into();
        changes.push(path, SchemaChangeKind::Dropped { keyword, value });
    }
}

/// Removes from `required` the names its own schema does not define, which Gemini refuses. That
/// includes a union branch that only adds `required` to its parent's properties: Gemini cannot
/// say it. (`allOf` branches are merged before this, so their names count.)
fn defined_required(schema: &mut Map<String, Value>, path: &str, changes: &mut ChangeLog) {
    let defined: HashSet<String> = match schema.get("properties") {
        Some(Value::Object(properties)) => properties.keys().cloned().collect(),
        _ => HashSet::new(),
    };
    let Some(Value::Array(required)) = schema.get_mut("required") else {
        return;
    };
    required.retain(|name| {
        let known = name.as_str().is_some_and(|name| defined.contains(name));
        if !known {
            let property = name.as_str().unwrap_or_default().to_owned();
            changes.push(path, SchemaChangeKind::UnknownRequired { property });
        }
        known
    });
    if required.is_empty() {
        schema.shift_remove("required");
    }
}

fn drop_unknown_keywords(schema: &mut Map<String, Value>, path: &str, changes: &mut ChangeLog) {
    let unknown: Vec<String> = schema
        .keys()
        .filter(|keyword| !KEYWORDS.contains(&keyword.as_str()))
        .cloned()
        .collect();
    for keyword in unknown {
        if let Some(value) = schema.shift_remove(&keyword) {
            changes.push(path, SchemaChangeKind::Dropped { keyword, value });
        }
    }
}
