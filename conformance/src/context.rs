//! What the suite tells the client about a scenario in `MCP_CONFORMANCE_CONTEXT`: the tool
//! calls it wants made, with their arguments, and the credentials of the `auth/*` scenarios
//! that hand the client some (a pre-registered client, a signing key).

use serde_json::{Map, Value};

/// The env var holding the scenario's context, a JSON object.
const CONTEXT_VAR: &str = "MCP_CONFORMANCE_CONTEXT";

/// One call the suite asks for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ToolCall {
    pub(crate) name: String,
    pub(crate) arguments: Map<String, Value>,
}

/// The context, when the suite gave one that is JSON.
fn context() -> Option<Value> {
    let text = std::env::var(CONTEXT_VAR).ok()?;
    serde_json::from_str(&text).ok()
}

/// The calls named in the context's `toolCalls`, in order; none when the suite gave no context.
pub(crate) fn tool_calls() -> Vec<ToolCall> {
    context().map(|context| parse(&context)).unwrap_or_default()
}

/// The string field `name` of the context (`client_id`, `client_secret`, ...), or an error
/// saying that the suite did not give it.
pub(crate) fn field(name: &str) -> anyhow::Result<String> {
    context()
        .as_ref()
        .and_then(|context| context.get(name)?.as_str())
        .map(str::to_owned)
        .ok_or_else(|| anyhow::anyhow!("{CONTEXT_VAR} has no `{name}`"))
}

fn parse(context: &Value) -> Vec<ToolCall> {
    let Some(calls) = context.get("toolCalls").and_then(Value::as_array) else {
        return Vec::new();
    };
    calls
        .iter()
        .filter_map(|call| {
            let name = call.get("name")?.as_str()?.to_owned();
            let arguments = call
                .get("arguments")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            Some(ToolCall { name, arguments })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_tool_calls_are_read_in_order_with_their_arguments() {
        let context = json!({
            "name": "http-custom-headers",
            "toolCalls": [
                { "name": "a", "arguments": { "region": "us-west1", "verbose": null } },
                { "name": "b" },
                { "arguments": {} },
            ],
        });
        let calls = parse(&context);
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[0].name, "a");
        assert_eq!(calls[0].arguments["region"], "us-west1");
        assert!(calls[0].arguments["verbose"].is_null());
        assert_eq!((calls[1].name.as_str(), calls[1].arguments.len()), ("b", 0));
        assert!(parse(&json!({ "name": "x" })).is_empty());
    }
}
