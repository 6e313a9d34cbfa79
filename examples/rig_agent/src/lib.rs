//! The reference's tasks agent on rig: rig's own agent loop, over the task tracker's tools
//! through Toolport. Offline, a replay model answers with recorded turns; with
//! `OLLAMA_API_BASE` set, `gemma4:e2b` answers through rig's Ollama client.

use std::sync::Arc;

use rig_agent::tool::server::ToolServer;
use rig_agent::{Agent, AgentBuilder};
use rig_core::DynModel;
use rig_core::operation::Completion;
use rig_core::providers::ollama::OllamaConfig;
use rig_core::test_utils::{MockCompletionModel, MockTurn};
use serde_json::{Value, json};
use toolport::McpToolset;
use toolport_rig::{LiveTools, RigToolset, StopOnTransportFailure, tool_list_changes};

/// What the agent is told.
pub const INSTRUCTION: &str =
    "You manage a software project's task tracker. Use the tools to read and change it.";

/// The question of the offline run.
pub const QUESTION: &str = "Close the docs task.";

/// The model the reference's runs used.
pub const OLLAMA_MODEL: &str = "gemma4:e2b";

/// The turns `gemma4:e2b` took for [`QUESTION`], replayed in order.
pub fn replay_model() -> MockCompletionModel {
    MockCompletionModel::from_turns([
        MockTurn::tool_call("call-0", "list_tasks", json!({})),
        MockTurn::tool_call("call-1", "complete_task", json!({"task_id": "T-3"})),
        MockTurn::text("Task \"Update the API docs\" (T-3) has been closed."),
    ])
}

/// `gemma4:e2b` on the Ollama daemon at `base` (such as `http://localhost:11434`).
pub fn ollama_model(base: &str) -> DynModel<Completion> {
    OllamaConfig::new()
        .with_base_url(base)
        .client()
        .completion(OLLAMA_MODEL)
        .erase()
}

/// The agent over `toolset`'s tools, which follow the server's list, answering with `model`.
///
/// # Errors
///
/// When the toolset cannot list its tools.
pub async fn tasks_agent(
    model: impl Into<DynModel<Completion>>,
    toolset: Arc<McpToolset>,
) -> Result<(Agent, LiveTools), toolport::ToolsetError> {
    let tools = ToolServer::new().owner("tasks").run();
    let changes = tool_list_changes(toolset.session().events());
    let live = LiveTools::start(RigToolset::new(toolset), tools.clone(), changes).await?;
    let agent = AgentBuilder::new(model)
        .name("tasks_agent")
        .preamble(INSTRUCTION)
        .tool_server_handle(tools)
        .add_hook(StopOnTransportFailure)
        .build();
    Ok((agent, live))
}

/// A run's messages as the reference prints them: `call`, `result` and `answer` lines.
pub fn show(messages: &[rig_core::message::Message]) -> Vec<String> {
    let mut lines = Vec::new();
    for message in messages {
        let message = serde_json::to_value(message).unwrap_or_default();
        for part in message["content"].as_array().into_iter().flatten() {
            match part["type"].as_str() {
                Some("toolcall") => lines.push(format!(
                    "call   {} {}",
                    text(&part["function"]["name"]),
                    part["function"]["arguments"]
                )),
                Some("toolresult") => {
                    let status = if part["is_error"] == true {
                        "error"
                    } else {
                        "ok"
                    };
                    let content = &part["content"][0];
                    let shown = content.get("value").unwrap_or(&content["text"]);
                    lines.push(format!("result {status} {}", text(shown)));
                }
                Some("text") if message["role"] == "assistant" => {
                    lines.push(format!("answer {}", text(&part["text"]).trim()));
                }
                _ => {}
            }
        }
    }
    lines
}

fn text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
