//! The `faulty` server's tools: one that behaves (`echo`), one with a side effect (`charge`),
//! and one for each fault it commits on demand.
//!
//! | tool | does |
//! | ---- | ---- |
//! | `echo(text)` | answers `text` (read-only) |
//! | `charge(note)` | writes `charged NOTE` in the ledger, answers `charged NOTE` |
//! | `charge_then_crash(note)` | writes `charged NOTE`, then exits with status 3 without answering |
//! | `hang()` | writes `hanging ID` and never answers |
//! | `flood_stderr(bytes)` | writes that many bytes to stderr in 1 KiB lines, then answers |
//! | `oversized(bytes)` | answers with a text of that many bytes, on one line |
//! | `garbage_then_echo(text)` | writes lines that are not JSON-RPC to stdout, then answers `text` |
//! | `restart()` | answers, writes `restarting` and exits with status 0 |
//! | `stop_reading()` | answers, then never reads stdin again |
//! | `swap_with_next()` | writes `holding ID`; the next request's answer goes out under this call's id, and this call's under the next request's |
//! | `answer_under_previous_id(text)` | answers under the id of the request read before it |
//! | `answer_under_unknown_id(text)` | sends three answers under ids the client never used, then answers `text` |
//! | `answer_only_under_unknown_id()` | answers under an id the client never used, and never under its own |

use std::io::Write as _;

use serde_json::{Value, json};

use super::output::{Output, answer, failure};

/// The exit status of `charge_then_crash`.
const CRASH_STATUS: i32 = 3;
/// The length of each line `flood_stderr` writes, newline included.
const FLOOD_LINE: usize = 1024;

/// How the server answers a request.
#[derive(Debug)]
pub(super) enum Reply {
    /// A result under the request's id.
    Result(Value),
    /// A JSON-RPC error under the request's id.
    Error(Value),
    /// A result under the id of the request read before this one.
    UnderPreviousId(Value),
    /// No answer until the next request, then the two trade ids.
    HoldForNextRequest,
    /// No answer at all.
    Nothing,
    /// A result, then stdin is never read again.
    ThenStopReading(Value),
}

/// The `tools/list` result.
pub(super) fn list() -> Value {
    let text = json!({"text": {"type": "string"}});
    let note = json!({"note": {"type": "string"}});
    let bytes = json!({"bytes": {"type": "integer", "minimum": 0}});
    let none = json!({});
    json!({"tools": [
        tool("echo", "Answers the text.", &text, true),
        tool("charge", "Writes the note in the ledger: a side effect.", &note, false),
        tool("charge_then_crash", "Writes the note in the ledger, then exits with status 3 without answering.", &note, false),
        tool("hang", "Never answers.", &none, false),
        tool("flood_stderr", "Writes that many bytes to stderr, then answers.", &bytes, false),
        tool("oversized", "Answers with a text of that many bytes.", &bytes, false),
        tool("garbage_then_echo", "Writes lines that are not JSON-RPC to stdout, then answers the text.", &text, false),
        tool("restart", "Answers, then exits with status 0.", &none, false),
        tool("stop_reading", "Answers, then never reads stdin again.", &none, false),
        tool("swap_with_next", "Trades ids with the next request: each answer goes to the other.", &none, false),
        tool("answer_under_previous_id", "Answers under the id of the request before it.", &text, false),
        tool("answer_under_unknown_id", "Sends answers under ids never used, then answers the text.", &text, false),
        tool("answer_only_under_unknown_id", "Answers only under an id never used.", &none, false),
    ]})
}

/// One tool's listing: every property required.
fn tool(name: &str, description: &str, properties: &Value, read_only: bool) -> Value {
    let required: Vec<&String> = properties
        .as_object()
        .into_iter()
        .flatten()
        .map(|(key, _)| key)
        .collect();
    json!({
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties, "required": required},
        "annotations": {"readOnlyHint": read_only},
    })
}

/// A `tools/call` result with one text block.
pub(super) fn text_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}], "isError": false})
}

/// Runs the tool that `params` names, committing its fault.
pub(super) fn call(output: &Output, id: &Value, params: &Value) -> Reply {
    let name = params["name"].as_str().unwrap_or_default();
    let arguments = &params["arguments"];
    let text = arguments["text"].as_str().unwrap_or_default();
    let note = arguments["note"].as_str().unwrap_or_default();
    let bytes = arguments["bytes"]
        .as_u64()
        .and_then(|bytes| usize::try_from(bytes).ok())
        .unwrap_or(0);
    match name {
        "echo" => Reply::Result(text_result(text)),
        "charge" => {
            output.record(&format!("charged {note}"));
            Reply::Result(text_result(&format!("charged {note}")))
        }
        "charge_then_crash" => {
            output.record(&format!("charged {note}"));
            eprintln!("fatal: lost the database connection");
            std::process::exit(CRASH_STATUS)
        }
        "hang" => {
            output.record(&format!("hanging {id}"));
            Reply::Nothing
        }
        "flood_stderr" => {
            flood_stderr(bytes);
            Reply::Result(text_result(&format!("wrote {bytes} bytes to stderr")))
        }
        "oversized" => {
            output.write_stdout(&oversized_answer(id, bytes));
            Reply::Nothing
        }
        "garbage_then_echo" => {
            output.write_stdout(b"INFO listening on port 8080\n");
            output.write_stdout(b"\xff\xfe not even UTF-8\n");
            output.write_stdout(b"{\"jsonrpc\": \"2.0\", \"id\": \n");
            output.write_stdout(b"[1, 2, 3]\n");
            Reply::Result(text_result(text))
        }
        "restart" => {
            output.send(&answer(id, text_result("restarting")));
            output.record("restarting");
            std::process::exit(0)
        }
        "stop_reading" => Reply::ThenStopReading(text_result("no longer reading stdin")),
        "swap_with_next" => Reply::HoldForNextRequest,
        "answer_under_previous_id" => Reply::UnderPreviousId(text_result(text)),
        "answer_under_unknown_id" => {
            send_unsolicited(output);
            Reply::Result(text_result(text))
        }
        "answer_only_under_unknown_id" => {
            output.send(&answer(&json!("never-sent"), text_result("unsolicited")));
            Reply::Nothing
        }
        _ => Reply::Error(json!({"code": -32602, "message": format!("no tool {name}")})),
    }
}

/// The answer to `id` with a text of `bytes` bytes, written out directly: serializing that
/// much text would take longer than the client waits.
fn oversized_answer(id: &Value, bytes: usize) -> Vec<u8> {
    let head =
        format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":""#);
    let mut line = Vec::with_capacity(head.len() + bytes + 32);
    line.extend_from_slice(head.as_bytes());
    line.resize(line.len() + bytes, b'x');
    line.extend_from_slice(b"\"}],\"isError\":false}}\n");
    line
}

/// Answers under ids the client never used: a string, a large number, and an error.
fn send_unsolicited(output: &Output) {
    output.send(&answer(&json!("never-sent"), text_result("unsolicited")));
    output.send(&answer(&json!(987_654_321), text_result("unsolicited")));
    let error = json!({"code": -32603, "message": "unsolicited"});
    output.send(&failure(&json!("never-sent-either"), error));
}

/// Writes `bytes` bytes to stderr in numbered lines of [`FLOOD_LINE`] bytes; the last line
/// says it is the last.
fn flood_stderr(bytes: usize) {
    let mut stderr = std::io::stderr().lock();
    let mut written = 0;
    let mut number = 0;
    while written < bytes {
        let head = format!("flood line {number}: ");
        let fill = FLOOD_LINE.saturating_sub(head.len() + 1);
        let _ = writeln!(stderr, "{head}{}", "y".repeat(fill));
        written += FLOOD_LINE;
        number += 1;
    }
    let _ = writeln!(stderr, "flood done after {written} bytes");
}
