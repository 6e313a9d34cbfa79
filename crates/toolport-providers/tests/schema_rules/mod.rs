//! What each provider accepts, written down apart from the adapters from the providers' own
//! documentation, so that a test can check an adapted schema against it.

use serde_json::{Map, Value};

/// The fields of Gemini's `Schema` object (the Gemini API reference).
const GEMINI_FIELDS: &[&str] = &[
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

/// The types Gemini knows.
const GEMINI_TYPES: &[&str] = &["string", "number", "integer", "boolean", "array", "object"];

/// The keywords OpenAI's strict mode supports (the Structured Outputs guide).
const OPENAI_STRICT_KEYWORDS: &[&str] = &[
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

/// Every way `schema` breaks Gemini's rules, each naming its place.
pub fn gemini_violations(schema: &Value) -> Vec<String> {
    let mut violations = Vec::new();
    walk(schema, "", &mut |node, path| {
        for keyword in node.keys() {
            if !GEMINI_FIELDS.contains(&keyword.as_str()) {
                violations.push(format!("{path}: `{keyword}` is not a Gemini field"));
            }
        }
        if let Some(kind) = node.get("type")
            && !kind
                .as_str()
                .is_some_and(|kind| GEMINI_TYPES.contains(&kind))
        {
            violations.push(format!("{path}: type {kind} is not a Gemini type"));
        }
        if let Some(Value::Array(values)) = node.get("enum")
            && !values.iter().all(Value::is_string)
        {
            violations.push(format!("{path}: an enum that is not all strings"));
        }
        if let Some(format) = node.get("format").and_then(Value::as_str) {
            let allowed = match node.get("type").and_then(Value::as_str) {
                Some("string") => ["enum", "date-time"].contains(&format),
                Some("number") => ["float", "double"].contains(&format),
                Some("integer") => ["int32", "int64"].contains(&format),
                _ => false,
            };
            if !allowed {
                violations.push(format!("{path}: format `{format}`"));
            }
        }
        undefined_required(node, path, &mut violations);
    });
    violations
}

/// Every way `schema` breaks OpenAI's strict-mode rules, each naming its place.
pub fn openai_strict_violations(schema: &Value) -> Vec<String> {
    let mut violations = Vec::new();
    walk(schema, "", &mut |node, path| {
        for keyword in node.keys() {
            if !OPENAI_STRICT_KEYWORDS.contains(&keyword.as_str()) {
                violations.push(format!("{path}: `{keyword}` is not allowed in strict mode"));
            }
        }
        if !["type", "anyOf", "$ref", "enum", "const"]
            .iter()
            .any(|keyword| node.contains_key(*keyword))
        {
            violations.push(format!("{path}: accepts any value"));
        }
        if node.contains_key("$ref") && node.len() > 1 {
            violations.push(format!("{path}: keywords beside `$ref`"));
        }
        let is_object =
            node.get("type") == Some(&Value::from("object")) || node.contains_key("properties");
        if is_object {
            if node.get("additionalProperties") != Some(&Value::Bool(false)) {
                violations.push(format!(
                    "{path}: an object without additionalProperties: false"
                ));
            }
            let properties: Vec<&String> = node
                .get("properties")
                .and_then(Value::as_object)
                .map(|properties| properties.keys().collect())
                .unwrap_or_default();
            let required: Vec<&str> = node
                .get("required")
                .and_then(Value::as_array)
                .map(|names| names.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for property in properties {
                if !required.contains(&property.as_str()) {
                    violations.push(format!("{path}: `{property}` is not required"));
                }
            }
        }
    });
    violations
}

fn undefined_required(node: &Map<String, Value>, path: &str, violations: &mut Vec<String>) {
    let Some(Value::Array(required)) = node.get("required") else {
        return;
    };
    let properties = node.get("properties").and_then(Value::as_object);
    for name in required.iter().filter_map(Value::as_str) {
        if !properties.is_some_and(|properties| properties.contains_key(name)) {
            violations.push(format!("{path}: `{name}` is required but not defined"));
        }
    }
}

/// Calls `visit` with every schema object in `schema`: properties, items, union branches,
/// definitions and map values.
fn walk(schema: &Value, path: &str, visit: &mut dyn FnMut(&Map<String, Value>, &str)) {
    let Value::Object(node) = schema else {
        return;
    };
    visit(node, path);
    for (keyword, value) in node {
        match (keyword.as_str(), value) {
            ("properties" | "$defs" | "definitions", Value::Object(members)) => {
                for (name, member) in members {
                    walk(member, &format!("{path}/{keyword}/{name}"), visit);
                }
            }
            ("anyOf" | "oneOf" | "allOf", Value::Array(branches)) => {
                for (index, branch) in branches.iter().enumerate() {
                    walk(branch, &format!("{path}/{keyword}/{index}"), visit);
                }
            }
            ("items" | "additionalProperties" | "not", Value::Object(_)) => {
                walk(value, &format!("{path}/{keyword}"), visit);
            }
            _ => {}
        }
    }
}
