//! [`Responder`]: what the demo server answers to each JSON-RPC message it reads.

use serde_json::{Map, Value, json};

use crate::{INSTRUCTIONS, SERVER_NAME, SERVER_VERSION, TaskBook, UnknownTool, tool_definitions};

/// The protocol versions the demo speaks, newest first. An `initialize` asking for one of them
/// gets it; any other gets the newest.
const PROTOCOL_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// JSON-RPC's error codes.
const PARSE_ERROR: i32 = -32700;
const INVALID_REQUEST: i32 = -32600;
const METHOD_NOT_FOUND: i32 = -32601;
const INVALID_PARAMS: i32 = -32602;

/// One session's server state: its tasks. It answers `initialize`, `ping`, `tools/list` and
/// `tools/call`, ignores notifications and responses, and answers anything else with a
/// JSON-RPC error.
#[derive(Debug)]
pub(crate) struct Responder {
    book: TaskBook,
}

impl Responder {
    /// A session starting from the seed tasks.
    pub(crate) fn new() -> Self {
        Self {
            book: TaskBook::seeded(),
        }
    }

    /// The answer to one line of newline-delimited JSON-RPC, or `None` when there is nothing
    /// to answer (a notification, or a response to a request the server never sent).
    pub(crate) fn answer(&mut self, line: &str) -> Option<Value> {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            return Some(error(Value::Null, PARSE_ERROR, "parse error".to_owned()));
        };
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            let is_response = message.get("result").is_some() || message.get("error").is_some();
            return (!is_response)
                .then(|| error(Value::Null, INVALID_REQUEST, "invalid request".to_owned()));
        };
        // A message without an id is a notification: nothing to answer.
        let id = message.get("id")?.clone();
        let params = message.get("params");
        Some(match self.result(method, params) {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err((code, text)) => error(id, code, text),
        })
    }

    /// The result of one request, or its error code and message.
    fn result(&mut self, method: &str, params: Option<&Value>) -> Result<Value, (i32, String)> {
        match method {
            "initialize" => Ok(initialize(params)),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({"tools": tool_definitions()})),
            "tools/call" => self.call(params),
            other => Err((METHOD_NOT_FOUND, format!("method not found: `{other}`"))),
        }
    }

    /// Runs a `tools/call` on this session's tasks.
    fn call(&mut self, params: Option<&Value>) -> Result<Value, (i32, String)> {
        let invalid = |text: &str| (INVALID_PARAMS, text.to_owned());
        let name = params
            .and_then(|params| params.get("name"))
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("tools/call needs the tool's `name`"))?;
        let arguments = match params.and_then(|params| params.get("arguments")) {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(arguments)) => arguments.clone(),
            Some(_) => return Err(invalid("the tool's `arguments` must be an object")),
        };
        self.book
            .call(name, arguments)
            .map_err(|unknown: UnknownTool| (UnknownTool::CODE, unknown.to_string()))
    }
}

/// The `initialize` answer, in the version the client asked for if the demo speaks it.
fn initialize(params: Option<&Value>) -> Value {
    let asked = params
        .and_then(|params| params.get("protocolVersion"))
        .and_then(Value::as_str);
    let version = PROTOCOL_VERSIONS
        .into_iter()
        .find(|version| Some(*version) == asked)
        .unwrap_or(PROTOCOL_VERSIONS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": SERVER_NAME, "version": SERVER_VERSION},
        "instructions": INSTRUCTIONS,
    })
}

/// A JSON-RPC error answer.
fn error(id: Value, code: i32, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}
