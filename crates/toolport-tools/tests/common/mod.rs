//! What the tests of the call path share: a tool called over the scripted transport, so a test
//! sees every message the client sends.
#![allow(dead_code, reason = "each test file uses a different part")]

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::task::JoinHandle;
use toolport_testkit::scripted::{self, ScriptedConnection};
use toolport_tools::{McpToolset, McpToolsetBuilder, Tool, ToolError, ToolOutput};

/// A tool named `name` with an open input schema and the given `annotations`, as listed.
pub fn listed(name: &str, annotations: Value) -> Value {
    let mut tool = json!({
        "name": name,
        "description": format!("The {name} tool."),
        "inputSchema": {"type": "object"},
    });
    if !annotations.is_null() {
        tool["annotations"] = annotations;
    }
    tool
}

/// Calls the one tool `listed` with `arguments` on a toolset over a scripted connection, built
/// by `configure`. The test plays the server on the connection returned, which has answered
/// the handshake and `tools/list` already.
pub async fn call_listed(
    listed: Value,
    configure: impl FnOnce(McpToolsetBuilder) -> McpToolsetBuilder,
    arguments: Value,
) -> (
    JoinHandle<Result<ToolOutput, ToolError>>,
    ScriptedConnection,
    Arc<McpToolset>,
) {
    let (connector, server) = scripted::pair();
    let toolset = Arc::new(
        configure(McpToolset::builder(connector))
            .build()
            .await
            .unwrap(),
    );
    let call = tokio::spawn({
        let toolset = toolset.clone();
        async move {
            let tool = toolset.mcp_tools(None).await.unwrap().remove(0);
            tool.call(arguments, None).await
        }
    });
    let mut connection = server.accept().await;
    connection.complete_handshake().await;
    let list = connection.expect_request("tools/list").await;
    connection.respond(&list, json!({"tools": [listed]}));
    (call, connection, toolset)
}

/// Answers the next `tools/call` on `connection` with the text `text`, and returns its
/// arguments.
pub async fn answer_call(connection: &mut ScriptedConnection, text: &str) -> Value {
    let request = connection.expect_request("tools/call").await;
    connection.respond(
        &request,
        json!({"content": [{"type": "text", "text": text}]}),
    );
    request.params()["arguments"].clone()
}
