//! The standard request headers of MCP 2026-07-28: `Mcp-Method` on every post, `Mcp-Name` on
//! `tools/call`, `prompts/get` and `resources/read` (and, with the tasks extension, on
//! `tasks/get`, `tasks/update` and `tasks/cancel`, naming the task), and a tool's
//! `Mcp-Param-*` headers on its calls, all read from the body about to be sent.

use std::borrow::Cow;

use http::{HeaderMap, HeaderName, HeaderValue};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::header_value;
use crate::tool_headers::ToolHeaders;

const MCP_METHOD: HeaderName = HeaderName::from_static("mcp-method");
const MCP_NAME: HeaderName = HeaderName::from_static("mcp-name");
/// The first protocol version with these headers.
const FIRST_VERSION: &str = "2026-07-28";

/// The fields of a message the headers mirror, read without decoding the rest.
#[derive(Deserialize)]
struct Routing<'a> {
    #[serde(borrow)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow)]
    params: Option<RoutingParams<'a>>,
}

#[derive(Deserialize)]
struct RoutingParams<'a> {
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    uri: Option<Cow<'a, str>>,
    #[serde(borrow, rename = "taskId")]
    task_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
}

/// Whether `version` (an `MCP-Protocol-Version` value) has the standard headers.
pub(crate) fn apply_to(version: &HeaderValue) -> bool {
    version
        .to_str()
        .is_ok_and(|version| version >= FIRST_VERSION)
}

/// Adds the standard headers of the message in `body` to `headers`.
pub(crate) fn add(body: &[u8], tools: &ToolHeaders, headers: &mut HeaderMap) {
    let Ok(routing) = serde_json::from_slice::<Routing<'_>>(body) else {
        return;
    };
    let Some(method) = routing.method else {
        return;
    };
    let Ok(method_value) = HeaderValue::from_str(&method) else {
        return;
    };
    headers.insert(MCP_METHOD, method_value);
    let Some(params) = routing.params else {
        return;
    };
    let name = match &*method {
        "tools/call" | "prompts/get" => params.name.as_deref(),
        "resources/read" => params.uri.as_deref(),
        "tasks/get" | "tasks/update" | "tasks/cancel" => params.task_id.as_deref(),
        _ => None,
    };
    if let Some(name) = name {
        headers.insert(MCP_NAME, header_value::encode(name));
    }
    if method == "tools/call"
        && let Some(tool) = params.name.as_deref()
    {
        let arguments = params
            .arguments
            .and_then(|raw| serde_json::from_str::<Map<String, Value>>(raw.get()).ok());
        for (name, value) in tools.headers_for(tool, arguments.as_ref()) {
            headers.insert(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers_of(body: serde_json::Value) -> Vec<(String, String)> {
        let mut headers = HeaderMap::new();
        add(
            body.to_string().as_bytes(),
            &ToolHeaders::default(),
            &mut headers,
        );
        let mut pairs: Vec<(String, String)> = headers
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_owned()))
            .collect();
        pairs.sort();
        pairs
    }

    #[test]
    fn every_message_with_a_method_names_it_and_three_name_their_target() {
        let pair = |name: &str, value: &str| (name.to_owned(), value.to_owned());
        let call = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather", "arguments": {}}});
        assert_eq!(
            headers_of(call),
            [
                pair("mcp-method", "tools/call"),
                pair("mcp-name", "get_weather")
            ]
        );
        let read = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "file:///ü.txt"}});
        assert_eq!(
            headers_of(read),
            [
                pair("mcp-method", "resources/read"),
                pair("mcp-name", "=?base64?ZmlsZTovLy/DvC50eHQ=?=")
            ]
        );
        let list = serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
        assert_eq!(headers_of(list), [pair("mcp-method", "tools/list")]);
        let note = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}});
        assert_eq!(
            headers_of(note),
            [pair("mcp-method", "notifications/cancelled")]
        );
        let answer = serde_json::json!({"jsonrpc": "2.0", "id": 0, "result": {}});
        assert!(headers_of(answer).is_empty());
    }

    #[test]
    fn a_request_about_a_task_names_the_task() {
        let pair = |name: &str, value: &str| (name.to_owned(), value.to_owned());
        for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
            let request = serde_json::json!({"jsonrpc": "2.0", "id": 4, "method": method, "params": {"taskId": "t-1"}});
            assert_eq!(
                headers_of(request),
                [pair("mcp-method", method), pair("mcp-name", "t-1")]
            );
        }
    }

    #[test]
    fn the_headers_start_with_2026_07_28() {
        assert!(apply_to(&HeaderValue::from_static("2026-07-28")));
        assert!(!apply_to(&HeaderValue::from_static("2025-11-25")));
    }
}
