//! What the rig adapter's tests share: the tasks server as a child process, the replay model,
//! an agent over a tool server, and the transcript the model received.

#![allow(
    dead_code,
    reason = "each test binary uses its own part of the helpers"
)]

use std::sync::Arc;

use rig_agent::run::{PromptError, PromptResponse};
use rig_agent::tool::server::{ToolServer, ToolServerHandle};
use rig_agent::{Agent, AgentBuilder};
use rig_core::completion::CompletionRequest;
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::Value;
use toolport::McpToolset;
use toolport::stdio::StdioServer;
use toolport_rig::{RigToolset, StopOnTransportFailure};

/// The instruction the reference's agents have.
pub const INSTRUCTION: &str =
    "You manage a software project's task tracker. Use the tools to read and change it.";

/// The testkit's task tracker, served by the `toolport-fixture` binary as a child process.
pub fn tasks_server() -> StdioServer {
    StdioServer::new(toolport_fixtures::fixture_binary()).arg("tasks")
}

/// A toolset over a fresh tasks server.
pub async fn tasks_toolset() -> Arc<McpToolset> {
    Arc::new(McpToolset::builder(tasks_server()).build().await.unwrap())
}

/// The replay model: answers with `turns` in order and keeps every request it receives.
pub fn replay(turns: impl IntoIterator<Item = MockTurn>) -> MockCompletionModel {
    MockCompletionModel::from_turns(turns)
}

/// A recorded turn that calls `name` with `arguments`, under the call id `id`.
pub fn call(id: &str, name: &str, arguments: Value) -> MockTurn {
    MockTurn::tool_call(id, name, arguments)
}

/// An empty tool server, for a `LiveTools` to fill.
pub fn tool_server() -> ToolServerHandle {
    ToolServer::new().owner("tasks").run()
}

/// The tasks agent over `tools`, answering with `model`, stopping on transport failures.
pub fn agent(model: &MockCompletionModel, tools: ToolServerHandle) -> Agent {
    AgentBuilder::new(model.clone())
        .name("tasks_agent")
        .preamble(INSTRUCTION)
        .tool_server_handle(tools)
        .add_hook(StopOnTransportFailure)
        .build()
}

/// A fresh tasks server, its tools installed in a new tool server.
pub async fn installed_tasks_tools() -> (Arc<McpToolset>, ToolServerHandle) {
    let toolset = tasks_toolset().await;
    let tools = tool_server();
    RigToolset::new(toolset.clone())
        .install(&tools)
        .await
        .unwrap();
    (toolset, tools)
}

/// Asks the tasks agent over `tools` one question, answering with `model`.
pub async fn ask(
    model: &MockCompletionModel,
    tools: ToolServerHandle,
    question: &str,
) -> Result<PromptResponse, PromptError> {
    agent(model, tools)
        .prompt(question)
        .max_turns(5)
        .run()
        .await
}

/// Every request the model received, as JSON: the tools it was offered and the conversation it
/// was shown.
pub fn transcript(requests: &[CompletionRequest]) -> Value {
    Value::Array(
        requests
            .iter()
            .map(|request| {
                serde_json::json!({
                    "tools": serde_json::to_value(&request.tools).unwrap(),
                    "messages": serde_json::to_value(&request.chat_history).unwrap(),
                })
            })
            .collect(),
    )
}

/// The transcript recorded in `tests/recorded/{name}.json`.
pub fn recorded(name: &str) -> Value {
    let path = format!("{}/tests/recorded/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    serde_json::from_str(&text).unwrap()
}
