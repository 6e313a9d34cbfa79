//! [`ToolHeaders`]: the `x-mcp-header` annotations of the tools a server listed (MCP
//! 2026-07-28), checked when the list arrives and applied to each call as `Mcp-Param-*`
//! headers.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use http::{HeaderName, HeaderValue};
use rmcp::model::{JsonObject, ListToolsResult};
use serde_json::{Map, Value};

use crate::header_value;

const ANNOTATION: &str = "x-mcp-header";
/// Keywords whose values are instance data, not schemas: an `x-mcp-header` key there is data.
const DATA_KEYWORDS: [&str; 4] = ["default", "const", "enum", "examples"];
/// The largest integer a header may carry (JavaScript's safe range).
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// One argument mirrored into a header.
#[derive(Debug)]
struct ParamHeader {
    /// `mcp-param-{name}`.
    header: HeaderName,
    /// The `properties` keys from the schema root to the argument.
    path: Box<[String]>,
}

/// The annotated tools of one session, by name. Tools without annotations take no room.
#[derive(Debug, Default)]
pub(crate) struct ToolHeaders {
    tools: Mutex<HashMap<String, Arc<[ParamHeader]>>>,
}

impl ToolHeaders {
    /// Learns the annotations of the tools in `page`, and drops each tool whose annotations
    /// break the specification's rules, with a warning naming the tool and the reason: one
    /// malformed tool must not keep the others from being used.
    pub(crate) fn learn(&self, page: &mut ListToolsResult) {
        let mut tools = self.tools.lock().unwrap_or_else(|e| e.into_inner());
        page.tools.retain(|tool| {
            let name = tool.name.to_string();
            match annotations(&tool.input_schema) {
                Ok(found) if found.is_empty() => {
                    tools.remove(&name);
                    true
                }
                Ok(found) => {
                    tools.insert(name, found.into());
                    true
                }
                Err(reason) => {
                    tracing::warn!(tool = %name, %reason, "left out a tool whose x-mcp-header annotations are invalid");
                    tools.remove(&name);
                    false
                }
            }
        });
    }

    /// The `Mcp-Param-*` headers of a call of `tool` with `arguments`: one for each annotated
    /// argument present with a primitive value.
    pub(crate) fn headers_for(
        &self,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
    ) -> Vec<(HeaderName, HeaderValue)> {
        let Some(params) = self
            .tools
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(tool)
            .cloned()
        else {
            return Vec::new();
        };
        let Some(arguments) = arguments else {
            return Vec::new();
        };
        params
            .iter()
            .filter_map(|param| {
                let (first, rest) = param.path.split_first()?;
                let value = rest
                    .iter()
                    .try_fold(arguments.get(first)?, |value, key| value.get(key))?;
                Some((param.header.clone(), header_value::encode(&as_text(value)?)))
            })
            .collect()
    }
}

/// A primitive argument as header text: a string as it is, an integer in decimal (within
/// JavaScript's safe range), a boolean as `true` or `false`.
fn as_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Bool(flag) => Some(flag.to_string()),
        Value::Number(number) => number
            .as_i64()
            .filter(|n| n.abs() <= MAX_SAFE_INTEGER)
            .map(|n| n.to_string()),
        _ => None,
    }
}

/// The annotations of `schema`, or why they are invalid: each must be a non-empty HTTP token,
/// unique regardless of case, on a `string`, `integer` or `boolean` property reached from the
/// root through `properties` keys alone.
fn annotations(schema: &JsonObject) -> Result<Vec<ParamHeader>, String> {
    if schema.contains_key(ANNOTATION) {
        return Err("x-mcp-header annotates the schema root, not a property".to_owned());
    }
    let mut found = Vec::new();
    collect(schema, Some(&mut Vec::new()), &mut found)?;
    let mut seen = HashSet::new();
    for (path, header, property) in &found {
        let property_path = path.join(".");
        let Value::String(name) = header else {
            return Err(format!(
                "property `{property_path}`: x-mcp-header is not a string"
            ));
        };
        if name.is_empty() || !name.bytes().all(is_token_char) {
            return Err(format!(
                "property `{property_path}`: x-mcp-header `{name}` is not an HTTP token"
            ));
        }
        if !seen.insert(name.to_ascii_lowercase()) {
            return Err(format!(
                "property `{property_path}`: x-mcp-header `{name}` is used twice"
            ));
        }
        let kind = property.get("type").and_then(Value::as_str);
        if !matches!(kind, Some("string" | "integer" | "boolean")) {
            return Err(format!(
                "property `{property_path}`: x-mcp-header needs a string, integer or boolean, not {kind:?}"
            ));
        }
    }
    found
        .into_iter()
        .map(|(path, header, _)| {
            let name = header.as_str().unwrap_or_default().to_ascii_lowercase();
            let header = HeaderName::try_from(format!("mcp-param-{name}"))
                .map_err(|_| format!("x-mcp-header `{name}` makes no header name"))?;
            Ok(ParamHeader {
                header,
                path: path.into_iter().map(str::to_owned).collect(),
            })
        })
        .collect()
}

/// An annotation found: the property's path, the annotation, and the property's schema.
type Found<'a> = (Vec<&'a str>, &'a Value, &'a JsonObject);

/// Walks `schema`, collecting the annotations on the `properties` chain from the root.
/// `chain` is the path to `schema` while it is on that chain, `None` once off it; an
/// annotation off the chain is an error.
fn collect<'a>(
    schema: &'a JsonObject,
    mut chain: Option<&mut Vec<&'a str>>,
    found: &mut Vec<Found<'a>>,
) -> Result<(), String> {
    for (keyword, value) in schema {
        match keyword.as_str() {
            ANNOTATION => match chain.as_deref() {
                Some(path) if !path.is_empty() => found.push((path.clone(), value, schema)),
                Some(_) => {}
                None => {
                    return Err(
                        "x-mcp-header sits off the chain of `properties` from the root".to_owned(),
                    );
                }
            },
            "properties" => {
                let Value::Object(properties) = value else {
                    continue;
                };
                for (name, property) in properties {
                    let Value::Object(property) = property else {
                        continue;
                    };
                    match chain.as_deref_mut() {
                        Some(path) => {
                            path.push(name);
                            collect(property, Some(path), found)?;
                            path.pop();
                        }
                        None => collect(property, None, found)?,
                    }
                }
            }
            keyword if DATA_KEYWORDS.contains(&keyword) => {}
            _ => collect_off_chain(value, found)?,
        }
    }
    Ok(())
}

/// Any schema inside `value` (an object, or the items of an array) is off the chain.
fn collect_off_chain<'a>(value: &'a Value, found: &mut Vec<Found<'a>>) -> Result<(), String> {
    match value {
        Value::Object(schema) => collect(schema, None, found),
        Value::Array(items) => items
            .iter()
            .try_for_each(|item| collect_off_chain(item, found)),
        _ => Ok(()),
    }
}

/// RFC 9110's `tchar`.
fn is_token_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

#[cfg(test)]
mod tests {
    use rmcp::model::Tool;
    use serde_json::json;

    use super::*;

    fn tool(name: &str, schema: Value) -> Tool {
        let Value::Object(schema) = schema else {
            panic!("a schema is an object");
        };
        Tool::new(name.to_owned(), "", Arc::new(schema))
    }

    fn listed(tools: Vec<Tool>) -> (ToolHeaders, Vec<String>) {
        let headers = ToolHeaders::default();
        let mut page = ListToolsResult::with_all_items(tools);
        headers.learn(&mut page);
        let names = page
            .tools
            .iter()
            .map(|tool| tool.name.to_string())
            .collect();
        (headers, names)
    }

    #[test]
    fn annotated_arguments_become_headers_nested_ones_too() {
        let schema = json!({
            "type": "object",
            "properties": {
                "region": { "type": "string", "x-mcp-header": "Region" },
                "query": { "type": "string" },
                "target": {
                    "type": "object",
                    "properties": { "shard": { "type": "integer", "x-mcp-header": "Shard" } },
                },
                "dry": { "type": "boolean", "x-mcp-header": "Dry-Run" },
            },
        });
        let (headers, names) = listed(vec![tool("execute_sql", schema)]);
        assert_eq!(names, ["execute_sql"]);
        let arguments = json!({ "region": "us-west1", "target": { "shard": 7 }, "dry": false });
        let mut sent = headers.headers_for("execute_sql", arguments.as_object());
        sent.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
        let sent: Vec<(&str, &str)> = sent
            .iter()
            .map(|(name, value)| (name.as_str(), value.to_str().unwrap()))
            .collect();
        assert_eq!(
            sent,
            [
                ("mcp-param-dry-run", "false"),
                ("mcp-param-region", "us-west1"),
                ("mcp-param-shard", "7"),
            ]
        );
        let partial = json!({ "query": "SELECT 1" });
        assert!(
            headers
                .headers_for("execute_sql", partial.as_object())
                .is_empty()
        );
    }

    #[test]
    fn a_tool_with_invalid_annotations_is_left_out_and_the_others_kept() {
        let property = |header: Value, kind: &str| json!({ "type": kind, "x-mcp-header": header });
        let invalid = [
            json!({ "type": "object", "x-mcp-header": "Root" }),
            json!({ "properties": { "a": property(json!(""), "string") } }),
            json!({ "properties": { "a": property(json!("Bad Name"), "string") } }),
            json!({ "properties": { "a": property(json!(7), "string") } }),
            json!({ "properties": { "a": property(json!("N"), "number") } }),
            json!({ "properties": { "a": property(json!("X"), "string"), "b": property(json!("x"), "string") } }),
            json!({ "properties": { "a": { "type": "array", "items": property(json!("I"), "string") } } }),
            json!({ "properties": { "a": { "anyOf": [property(json!("U"), "string")] } } }),
            json!({ "$defs": { "d": property(json!("D"), "string") } }),
        ];
        for (index, schema) in invalid.iter().enumerate() {
            let valid = json!({ "properties": { "a": property(json!("Fine"), "string") } });
            let tools = vec![tool("bad", schema.clone()), tool("good", valid)];
            let (_, names) = listed(tools);
            assert_eq!(names, ["good"], "case {index}: {schema}");
        }
    }

    #[test]
    fn an_annotation_inside_instance_data_is_data() {
        let schema = json!({
            "properties": { "a": { "type": "object", "default": { "x-mcp-header": "No" } } },
        });
        let (headers, names) = listed(vec![tool("t", schema)]);
        assert_eq!(names, ["t"]);
        assert!(
            headers
                .headers_for("t", json!({ "a": {} }).as_object())
                .is_empty()
        );
    }

    #[test]
    fn only_safe_primitive_values_are_sent() {
        let schema = json!({ "properties": { "n": { "type": "integer", "x-mcp-header": "N" } } });
        let (headers, _) = listed(vec![tool("t", schema)]);
        let unsafe_integer = json!({ "n": 9_007_199_254_740_993_i64 });
        assert!(
            headers
                .headers_for("t", unsafe_integer.as_object())
                .is_empty()
        );
        let negative = json!({ "n": -7 });
        let sent = headers.headers_for("t", negative.as_object());
        assert_eq!(sent[0].1, "-7");
    }
}
