//! [`OpenAiAdapter`]: schemas for OpenAI function calling, in strict mode (Structured Outputs)
//! where the schema allows it, else non-strict.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use super::SchemaAdapter;
use super::bounds::{MAX_SHOWN_BYTES, SchemaTooDeep, check_depth};
use super::change::{AdaptedSchema, ChangeLog, SchemaChangeKind};
use super::copy_budget::CopyBudget;
use super::merge::{merge_all_of, one_of_as_any_of};
use super::refs::{Target, merge_siblings, reference_of, replace_foreign_refs, resolve};
use super::root::ensure_object_root;
use super::walk::{Pointer, for_each_subschema};

/// The keywords strict mode accepts. Others are dropped and reported, except those in
/// [`NOT_STRICT`], which make the schema non-strict.
const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "title",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
];

/// Keywords whose meaning strict mode cannot express: dropping them would let the model send
/// arguments of another shape, so the tool is declared non-strict instead.
const NOT_STRICT: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "prefixItems",
    "additionalItems",
    "contains",
];

/// The string formats strict mode knows.
const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Strict mode's bounds: objects nested at most this deep, and this many properties in all.
const MAX_OBJECT_DEPTH: usize = 10;
const MAX_PROPERTIES: usize = 5000;

/// The most reasons a [`SchemaChangeKind::NotStrict`] gives; the rest are counted.
const LISTED_PROBLEMS: usize = 8;

/// Adapts tool schemas to OpenAI function calling (`{"type": "function", "function": {…}}`).
///
/// Both modes replace external `$ref`s and make the root an object schema; non-strict changes
/// nothing else. Strict mode (the default) also, on a copy:
/// - sets `additionalProperties: false` on every object;
/// - makes every property required, and the optional ones nullable (the model sends `null`
///   where it would have left a property out);
/// - merges `allOf`, takes `oneOf` as `anyOf`, and inlines a `$ref` that has keywords beside it;
/// - drops keywords strict mode does not take (`default`, `minLength`, `examples`, …) and
///   formats it does not know.
///
/// Where that cannot keep the schema's meaning (an open map, `not`, `if`, `patternProperties`,
/// a schema that accepts any value, objects nested more than 10 deep, more than 5,000
/// properties, `$ref`s to inline past a bound of [`InlineBound`](super::InlineBound), more
/// changes than an [`AdaptedSchema`] lists), the tool falls back to the non-strict schema, and
/// a [`SchemaChangeKind::NotStrict`] change says why.
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
/// assert!(adapted.strict);
/// assert_eq!(adapted.schema["required"], json!(["city", "days"]));
/// assert_eq!(adapted.schema["properties"]["days"]["type"], json!(["integer", "null"]));
/// assert_eq!(adapted.schema["additionalProperties"], json!(false));
/// # Ok::<(), toolport_providers::schema::SchemaTooDeep>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct OpenAiAdapter {
    strict: bool,
}

impl Default for OpenAiAdapter {
    fn default() -> Self {
        Self::strict()
    }
}

impl OpenAiAdapter {
    /// Strict mode where the schema allows it, else non-strict.
    pub fn strict() -> Self {
        Self { strict: true }
    }

    /// Non-strict always: the schema as the server wrote it, with an object root.
    pub fn non_strict() -> Self {
        Self { strict: false }
    }
}

impl SchemaAdapter for OpenAiAdapter {
    fn provider(&self) -> &'static str {
        "openai"
    }

    fn adapt(&self, schema: &Value) -> Result<AdaptedSchema, SchemaTooDeep> {
        check_depth(schema, self.provider())?;
        let mut changes = ChangeLog::default();
        let mut lenient = schema.clone();
        replace_foreign_refs(&mut lenient, schema, &mut changes);
        ensure_object_root(&mut lenient, &mut changes);
        if !self.strict {
            return Ok(AdaptedSchema::new(lenient, changes, false));
        }
        let mut strict = lenient.clone();
        let mut pass = StrictPass {
            document: &lenient,
            changes: changes.clone(),
            problems: Vec::new(),
            unlisted_problems: 0,
            properties: 0,
            expanding: Vec::new(),
            budget: CopyBudget::default(),
            budget_spent: false,
        };
        pass.visit(&mut strict, &mut Pointer::root(), 0);
        if pass.properties > MAX_PROPERTIES {
            pass.problem(
                &Pointer::root(),
                &format!(
                    "has {} properties in all, over strict mode's {MAX_PROPERTIES}",
                    pass.properties
                ),
            );
        }
        if !pass.changes.is_whole() {
            pass.problem(
                &Pointer::root(),
                "needs more changes than are listed whole, and strict mode's `null`s could not \
                 all be taken out again",
            );
        }
        if pass.problems.is_empty() {
            return Ok(AdaptedSchema::new(strict, pass.changes, true));
        }
        let mut reason = pass.problems.join("; ");
        if pass.unlisted_problems > 0 {
            reason.push_str(&format!("; and {} more", pass.unlisted_problems));
        }
        changes.push("", SchemaChangeKind::NotStrict { reason });
        Ok(AdaptedSchema::new(lenient, changes, false))
    }

    /// `{"type": "function", "function": {"name", "description", "parameters", "strict"}}`, the
    /// Chat Completions shape.
    fn function_declaration(
        &self,
        name: &str,
        description: &str,
        adapted: &AdaptedSchema,
    ) -> Value {
        json!({
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "parameters": adapted.schema,
                "strict": adapted.strict,
            },
        })
    }
}

/// One walk of a schema copy, making it strict and collecting why it cannot be.
struct StrictPass<'a> {
    /// The document `$ref`s resolve in.
    document: &'a Value,
    changes: ChangeLog,
    /// Why the schema cannot be strict, the first [`LISTED_PROBLEMS`] of them.
    problems: Vec<String>,
    /// How many more reasons there are.
    unlisted_problems: usize,
    properties: usize,
    /// The targets being inlined, outermost first; `None` for a `$ref` left as it was.
    expanding: Vec<Option<&'a Value>>,
    /// What inlining may still spend.
    budget: CopyBudget,
    /// Whether a `$ref` was left as it was because a bound of the budget was met (said once).
    budget_spent: bool,
}

impl<'a> StrictPass<'a> {
    /// Makes `node` strict; `object_depth` is how many object schemas hold it.
    fn visit(&mut self, node: &mut Value, path: &mut Pointer, object_depth: usize) {
        let Value::Object(schema) = node else {
            self.problem(path, "accepts any value (a boolean schema)");
            return;
        };
        let mut inlining = false;
        if let Some(reference) = reference_of(schema).map(str::to_owned) {
            if schema.len() == 1 {
                // A bare `$ref` is made strict where its target is defined.
                return;
            }
            self.inline_referenced(schema, &reference, path);
            inlining = true;
        }
        merge_all_of(schema, path.as_str(), &mut self.changes);
        one_of_as_any_of(schema, path.as_str(), &mut self.changes);
        for keyword in NOT_STRICT {
            if schema.contains_key(*keyword) {
                self.problem(path, &format!("uses `{keyword}`"));
            }
        }
        if matches!(schema.get("items"), Some(Value::Array(_))) {
            self.problem(path, "uses `items` as an array (a tuple)");
        }
        let constrained = ["type", "anyOf", "$ref", "enum", "const"];
        if !constrained
            .iter()
            .any(|keyword| schema.contains_key(*keyword))
        {
            self.problem(path, "accepts any value (no `type`)");
        }
        let is_object = is_object_schema(schema);
        if is_object {
            self.close_object(schema, path, object_depth + 1);
        }
        let child_depth = object_depth + usize::from(is_object);
        for_each_subschema(schema, path, &mut |child, path| {
            self.visit(child, path, child_depth);
        });
        if is_object {
            self.require_every_property(schema, path);
        }
        self.drop_unsupported(schema, path);
        if inlining {
            self.expanding.pop();
        }
    }

    /// Strict mode takes no keywords beside a `$ref`, so the target is inlined under them. Inside
    /// its own expansion a reference is not inlined again: its siblings are dropped instead, and
    /// the bare `$ref` stays. Once inlining meets a bound of its budget nothing more is
    /// inlined, and the schema cannot be strict.
    fn inline_referenced(
        &mut self,
        schema: &mut Map<String, Value>,
        reference: &str,
        path: &Pointer,
    ) {
        let document: &'a Value = self.document;
        let target = match resolve(document, reference) {
            Target::Local(target)
                if !self.budget_spent
                    && !self
                        .expanding
                        .iter()
                        .flatten()
                        .any(|seen| std::ptr::eq(*seen, target)) =>
            {
                match self.budget.spend_on_inlining(target, path.depth()) {
                    Ok(()) => Some(target),
                    Err(bound) => {
                        self.budget_spent = true;
                        self.problem(
                            path,
                            &format!("needs its `$ref`s inlined, past the bound of {bound}"),
                        );
                        None
                    }
                }
            }
            _ => None,
        };
        let Some(target) = target else {
            let siblings: Vec<String> = schema.keys().filter(|k| *k != "$ref").cloned().collect();
            for keyword in siblings {
                if let Some(value) = schema.shift_remove(&keyword) {
                    let kind = SchemaChangeKind::Dropped { keyword, value };
                    self.changes.push(path.as_str(), kind);
                }
            }
            self.expanding.push(None);
            return;
        };
        if let Value::Object(merged) = merge_siblings(target.clone(), schema) {
            *schema = merged;
        }
        let reference = reference.to_owned();
        self.changes
            .push(path.as_str(), SchemaChangeKind::Inlined { reference });
        self.expanding.push(Some(target));
    }

    fn close_object(&mut self, schema: &mut Map<String, Value>, path: &Pointer, depth: usize) {
        // Said once, where the objects first nest too deep; deeper ones add nothing.
        if depth == MAX_OBJECT_DEPTH + 1 {
            self.problem(
                path,
                &format!("objects nested {depth} deep, over {MAX_OBJECT_DEPTH}"),
            );
        }
        match schema.get("additionalProperties") {
            Some(Value::Bool(false)) => {}
            None | Some(Value::Bool(true)) => {
                schema.insert("additionalProperties".into(), Value::Bool(false));
                self.changes
                    .push(path.as_str(), SchemaChangeKind::ClosedObject);
            }
            Some(_) => self.problem(path, "is a map (`additionalProperties` is a schema)"),
        }
    }

    fn require_every_property(&mut self, schema: &mut Map<String, Value>, path: &Pointer) {
        let mut required: Vec<Value> = match schema.shift_remove("required") {
            Some(Value::Array(required)) => required,
            _ => Vec::new(),
        };
        if let Some(Value::Object(properties)) = schema.get_mut("properties") {
            self.properties += properties.len();
            let already: HashSet<String> = required
                .iter()
                .filter_map(|name| name.as_str().map(str::to_owned))
                .collect();
            for (name, property) in properties.iter_mut() {
                if already.contains(name) {
                    continue;
                }
                let null_added = make_nullable(property);
                required.push(Value::String(name.clone()));
                self.changes.push(
                    path.as_str(),
                    SchemaChangeKind::RequiredNullable {
                        property: name.clone(),
                        null_added,
                    },
                );
            }
        }
        schema.insert("required".into(), Value::Array(required));
    }

    fn drop_unsupported(&mut self, schema: &mut Map<String, Value>, path: &Pointer) {
        let unsupported: Vec<String> = schema
            .iter()
            .filter(|(keyword, value)| {
                let keyword = keyword.as_str();
                let known = STRICT_KEYWORDS.contains(&keyword) || NOT_STRICT.contains(&keyword);
                let unknown_format = keyword == "format"
                    && !value.as_str().is_some_and(|f| STRICT_FORMATS.contains(&f));
                !known || unknown_format
            })
            .map(|(keyword, _)| keyword.clone())
            .collect();
        for keyword in unsupported {
            if let Some(value) = schema.shift_remove(&keyword) {
                self.changes
                    .push(path.as_str(), SchemaChangeKind::Dropped { keyword, value });
            }
        }
    }

    /// Notes why the schema cannot be strict: what the node at `path` does.
    fn problem(&mut self, path: &Pointer, what: &str) {
        if self.problems.len() == LISTED_PROBLEMS {
            self.unlisted_problems += 1;
            return;
        }
        let place = match path.as_str() {
            "" => "the root",
            path if path.len() > MAX_SHOWN_BYTES => "a place with a long path",
            path => path,
        };
        self.problems.push(format!("{place} {what}"));
    }
}

fn is_object_schema(schema: &Map<String, Value>) -> bool {
    match schema.get("type") {
        Some(Value::String(kind)) => kind == "object",
        Some(Value::Array(kinds)) => kinds.contains(&json!("object")),
        _ => schema.contains_key("properties"),
    }
}

/// Lets `schema` accept `null` too, and says whether it did not before: a type gains `"null"`
/// (and an `enum` its `null` value), a union gains a `null` branch, and anything else becomes
/// a union with `null`.
fn make_nullable(schema: &mut Value) -> bool {
    let Value::Object(members) = schema else {
        return false;
    };
    let null = json!("null");
    let added = match members.get_mut("type") {
        Some(Value::String(kind)) if *kind != "null" => {
            let kind = std::mem::take(kind);
            members.insert("type".into(), json!([kind, "null"]));
            true
        }
        Some(Value::Array(kinds)) if !kinds.contains(&null) => {
            kinds.push(null);
            true
        }
        Some(_) => false,
        None => {
            let enum_has_null = members
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|values| values.contains(&Value::Null));
            if enum_has_null || members.get("const") == Some(&Value::Null) {
                return false;
            }
            if let Some(Value::Array(branches)) = members.get_mut("anyOf") {
                if branches.iter().any(|b| b.get("type") == Some(&null)) {
                    return false;
                }
                branches.push(json!({"type": "null"}));
            } else {
                let inner = std::mem::take(schema);
                *schema = json!({"anyOf": [inner, {"type": "null"}]});
            }
            return true;
        }
    };
    if let Some(Value::Array(values)) = members.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
    added
}
