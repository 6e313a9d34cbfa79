//! Shared helpers: bounded waits, tool-call parameters, and a scripted raw-HTTP event-stream
//! server for the reconnect cases the fixture server cannot play.
#![allow(dead_code, reason = "each test file uses a different part")]

pub mod scripted;

use std::future::Future;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use serde_json::json;
use toolport_session::{CallOptions, McpSession, SessionError};

/// Every wait in these tests is bounded by this.
pub const WAIT: Duration = Duration::from_secs(5);

/// `future`, or a panic naming `what` after [`WAIT`].
pub async fn bounded<T>(what: &str, future: impl Future<Output = T>) -> T {
    tokio::time::timeout(WAIT, future)
        .await
        .unwrap_or_else(|_| panic!("{what} took longer than {WAIT:?}"))
}

/// Parameters for calling `tool` with a JSON object of arguments.
pub fn params(tool: &str, arguments: serde_json::Value) -> CallToolRequestParams {
    let serde_json::Value::Object(arguments) = arguments else {
        panic!("arguments must be an object")
    };
    CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments)
}

/// Calls the lab server's `echo` with `options`.
pub async fn echo_with(
    session: &McpSession,
    text: &str,
    options: CallOptions,
) -> Result<CallToolResult, SessionError> {
    let call = session.call_tool(params("echo", json!({ "text": text })), options);
    bounded("tools/call echo", call).await
}

/// Calls the lab server's `echo`.
pub async fn echo(session: &McpSession, text: &str) -> Result<CallToolResult, SessionError> {
    echo_with(session, text, CallOptions::default()).await
}

/// The text of a result's first content.
pub fn text_of(result: &CallToolResult) -> String {
    result.content[0]
        .as_text()
        .expect("text content")
        .text
        .clone()
}
