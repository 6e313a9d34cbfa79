//! The MCP a fault host speaks, by hand: `initialize` (2025-11-25 or what the client asks
//! for), `tools/list` and `tools/call` of its one tool, `ping`, and `notifications/cancelled`,
//! and the [`Reply`] its behaviour makes of each request.

use std::time::Duration;

use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::behaviour::FaultBehaviour;
use super::state::{Shared, Swap};

/// The protocol version answered when the client asks for one the host does not know.
const LATEST: &str = "2025-11-25";
/// The versions the host answers with as asked.
const KNOWN: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// The id of the response nobody asked for.
pub(super) const UNSOLICITED_ID: u64 = 987_654_321;
/// How long the first call of a swap waits for a second.
const SWAP_WAIT: Duration = Duration::from_secs(2);

/// What the host does about one request.
#[derive(Debug)]
pub(super) enum Reply {
    /// Answer with this message.
    Answer(Value),
    /// Answer with this message, then forget the session.
    AnswerThenExpire(Value),
    /// Never answer.
    Unanswered,
    /// Die without answering.
    Crash,
    /// Answer with this message one byte a second, the rest at once when `faster` fires.
    Trickle {
        answer: Value,
        faster: CancellationToken,
    },
    /// Reset the connection that would carry the answer, and never answer.
    Reset,
    /// Send a response to an id nobody sent, then this answer.
    AfterUnsolicited { unsolicited: Value, answer: Value },
}

/// The reply to `message`, or `None` for a notification or a response (which answer
/// nothing). A `notifications/cancelled` is counted here.
pub(super) async fn reply(shared: &Shared, message: &Value) -> Option<Reply> {
    let method = message.get("method")?.as_str()?;
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    let Some(id) = message.get("id").cloned() else {
        if method == "notifications/cancelled" {
            shared.note_cancelled(params.get("requestId"));
        }
        return None;
    };
    let reply = match method {
        "initialize" => {
            shared.count_initialization();
            if shared
                .strike(|b| b == FaultBehaviour::HangInInitialize)
                .is_some()
            {
                return Some(Reply::Unanswered);
            }
            Reply::Answer(result(&id, initialize_result(&params)))
        }
        "tools/list" => Reply::Answer(result(&id, json!({ "tools": [record_tool()] }))),
        "ping" => Reply::Answer(result(&id, json!({}))),
        "tools/call" => call(shared, &id, &params).await,
        _ => Reply::Answer(error(&id, -32601, &format!("method not found: {method}"))),
    };
    if let Reply::Answer(answer) | Reply::AnswerThenExpire(answer) = &reply
        && answer.get("id") == Some(&id)
    {
        shared.note_answered(&id);
    }
    Some(reply)
}

/// A `tools/call` of `record`: counted, then answered as the behaviour has it.
async fn call(shared: &Shared, id: &Value, params: &Value) -> Reply {
    if params.get("name").and_then(Value::as_str) != Some("record") {
        return Reply::Answer(error(id, -32602, "unknown tool; the only tool is `record`"));
    }
    let label = params
        .pointer("/arguments/label")
        .and_then(Value::as_str)
        .unwrap_or_default();
    shared.count_execution();
    let answer = result(id, text_result(label));
    match shared.swap(id) {
        Some(Swap::Second { first }) => return Reply::Answer(result(&first, text_result(label))),
        Some(Swap::First { second }) => {
            return match tokio::time::timeout(SWAP_WAIT, second).await {
                Ok(Ok(second)) => Reply::Answer(result(&second, text_result(label))),
                _ => {
                    shared.stop_waiting();
                    Reply::Answer(answer)
                }
            };
        }
        None => {}
    }
    let Some(fault) = shared.strike(strikes_a_call) else {
        return Reply::Answer(answer);
    };
    match fault {
        FaultBehaviour::CrashMidCall => Reply::Crash,
        FaultBehaviour::HangInCall => Reply::Unanswered,
        FaultBehaviour::OversizedResponse { bytes } => {
            Reply::Answer(result(id, text_result(&"x".repeat(bytes))))
        }
        FaultBehaviour::SlowLoris => Reply::Trickle {
            answer,
            faster: shared.slow_answer(id),
        },
        FaultBehaviour::ResetMidStream => Reply::Reset,
        FaultBehaviour::SessionExpiry => Reply::AnswerThenExpire(answer),
        FaultBehaviour::StaleId => match shared.last_answered() {
            Some(stale) => Reply::Answer(result(&stale, text_result(label))),
            None => Reply::Answer(answer),
        },
        FaultBehaviour::UnsolicitedId => Reply::AfterUnsolicited {
            unsolicited: result(&json!(UNSOLICITED_ID), text_result("unsolicited")),
            answer,
        },
        FaultBehaviour::Healthy | FaultBehaviour::HangInInitialize | FaultBehaviour::SwappedIds => {
            Reply::Answer(answer)
        }
    }
}

/// Whether `behaviour` strikes at a `tools/call` (a swap strikes in [`Shared::swap`]).
fn strikes_a_call(behaviour: FaultBehaviour) -> bool {
    !matches!(
        behaviour,
        FaultBehaviour::Healthy | FaultBehaviour::HangInInitialize | FaultBehaviour::SwappedIds
    )
}

fn initialize_result(params: &Value) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    let version = asked.filter(|v| KNOWN.contains(v)).unwrap_or(LATEST);
    json!({
        "protocolVersion": version,
        "capabilities": { "tools": {} },
        "serverInfo": { "name": "toolport-fault-host", "version": "1.0.0" },
    })
}

fn record_tool() -> Value {
    json!({
        "name": "record",
        "description": "Records its label (a side effect the host counts) and answers with it.",
        "inputSchema": {
            "type": "object",
            "properties": { "label": { "type": "string" } },
            "required": ["label"],
        },
    })
}

fn text_result(text: &str) -> Value {
    json!({ "content": [{ "type": "text", "text": text }], "isError": false })
}

/// A JSON-RPC response to `id`.
pub(super) fn result(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

/// A `notifications/message` log line, for a stream's first event.
pub(super) fn log_notification(text: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "method": "notifications/message",
        "params": { "level": "info", "data": text },
    })
}

/// `message` as one SSE `message` event.
pub(super) fn sse_event(message: &Value) -> String {
    format!("event: message\ndata: {message}\n\n")
}
