//! What the example's server answers: the 2025-11-25 handshake, its four tools, and the task
//! requests of the one that runs as a task (kept in `tasks.rs`).

use serde_json::{Value, json};
use toolport::stdio::StdioServer;

use super::tasks::Tasks;

/// The line the `noisy` tool writes before its answer: a log line written to the socket by
/// mistake, which is not JSON-RPC.
pub const NOISE: &str = "noisy: this log line went to the socket by mistake";

/// The protocol version the server speaks, the last one with a handshake and its own tasks.
const PROTOCOL_VERSION: &str = "2025-11-25";

/// JSON-RPC's code for a method the server does not have.
pub(super) const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC's code for parameters the method cannot take.
pub(super) const INVALID_PARAMS: i64 = -32602;

/// How long the `huge` tool's text is: one KiB past the client's limit on one message.
const HUGE_TEXT_BYTES: usize = StdioServer::MAX_MESSAGE_BYTES + 1024;

/// The server's answer to one request.
#[derive(Debug)]
pub(super) struct Answer {
    /// Whether a line that is not JSON-RPC ([`NOISE`]) goes out before it.
    pub(super) noisy: bool,
    /// The result, or the JSON-RPC error object.
    pub(super) outcome: Result<Value, Value>,
}

impl Answer {
    /// The answer `result`.
    pub(super) fn result(result: Value) -> Self {
        Self {
            noisy: false,
            outcome: Ok(result),
        }
    }

    /// The JSON-RPC error `code`, saying `message`.
    pub(super) fn error(code: i64, message: impl Into<String>) -> Self {
        Self {
            noisy: false,
            outcome: Err(json!({"code": code, "message": message.into()})),
        }
    }
}

/// The answer to the request `method` with `params`, on a connection whose tasks are `tasks`.
pub(super) fn answer(method: &str, params: &Value, tasks: &mut Tasks) -> Answer {
    match method {
        "initialize" => Answer::result(initialize_result()),
        "ping" => Answer::result(json!({})),
        "tools/list" => Answer::result(json!({ "tools": tools() })),
        "tools/call" => call(params, tasks),
        "tasks/get" => tasks.get(params),
        "tasks/result" => tasks.result(params),
        "tasks/cancel" => tasks.cancel(params),
        // `server/discover` among them: a client that prefers 2026-07-28 asks it first, and
        // falls back to `initialize` on this error.
        _ => Answer::error(METHOD_NOT_FOUND, format!("no method `{method}`")),
    }
}

/// The `initialize` result: 2025-11-25, with tools, and tool calls run as tasks.
fn initialize_result() -> Value {
    json!({
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {
            "tools": {},
            "tasks": {"requests": {"tools": {"call": {}}}, "cancel": {}},
        },
        "serverInfo": {"name": "custom-transport-example", "version": env!("CARGO_PKG_VERSION")},
    })
}

/// The four tools, as `tools/list` gives them.
fn tools() -> Value {
    let no_arguments = json!({"type": "object"});
    let one_string = |name: &str| {
        json!({
            "type": "object",
            "properties": {name: {"type": "string"}},
            "required": [name],
        })
    };
    json!([
        {
            "name": "echo",
            "description": "Answers with its `text` argument.",
            "inputSchema": one_string("text"),
        },
        {
            "name": "huge",
            "description": "Answers with a text longer than the client's limit on one message.",
            "inputSchema": no_arguments,
        },
        {
            "name": "noisy",
            "description": "Writes a line that is not JSON-RPC before its answer.",
            "inputSchema": no_arguments,
        },
        {
            "name": "write_report",
            "description": "Writes a report on `topic`; runs as a task.",
            "inputSchema": one_string("topic"),
            "execution": {"taskSupport": "required"},
        },
    ])
}

/// The answer to `tools/call` with `params`.
fn call(params: &Value, tasks: &mut Tasks) -> Answer {
    let arguments = &params["arguments"];
    match params["name"].as_str().unwrap_or_default() {
        "echo" => match arguments["text"].as_str() {
            Some(text) => Answer::result(text_result(text)),
            None => Answer::error(INVALID_PARAMS, "echo needs a `text` string"),
        },
        "huge" => Answer::result(text_result(&"x".repeat(HUGE_TEXT_BYTES))),
        "noisy" => Answer {
            noisy: true,
            ..Answer::result(text_result("a quiet answer after a noisy line"))
        },
        "write_report" => match (params.get("task"), arguments["topic"].as_str()) {
            // 2025-11-25: a tool whose `taskSupport` is `required`, called without a task.
            (None, _) => Answer::error(METHOD_NOT_FOUND, "write_report runs only as a task"),
            (Some(_), Some(topic)) => Answer::result(json!({ "task": tasks.create(topic) })),
            (Some(_), None) => Answer::error(INVALID_PARAMS, "write_report needs a `topic`"),
        },
        name => Answer::error(INVALID_PARAMS, format!("no tool `{name}`")),
    }
}

/// A tool's result with one block of `text`.
pub(super) fn text_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}], "isError": false})
}
