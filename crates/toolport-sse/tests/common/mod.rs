//! Shared helpers: calling the lab server's `echo`, and a scripted raw-HTTP event-stream
//! server for the reconnect cases the fixture server cannot play. The generic helpers
//! (`bounded`, `call_params`, `first_text`) are the testkit's.
#![allow(dead_code, reason = "each test file uses a different part")]

pub mod scripted;

use rmcp::model::CallToolResult;
use serde_json::json;
use toolport_session::{CallOptions, McpSession, SessionError};
use toolport_testkit::{bounded, call_params};

/// Calls the lab server's `echo` with `options`.
pub async fn echo_with(
    session: &McpSession,
    text: &str,
    options: CallOptions,
) -> Result<CallToolResult, SessionError> {
    let call = session.call_tool(call_params("echo", json!({ "text": text })), options);
    bounded("tools/call echo", call).await
}

/// Calls the lab server's `echo`.
pub async fn echo(session: &McpSession, text: &str) -> Result<CallToolResult, SessionError> {
    echo_with(session, text, CallOptions::default()).await
}
