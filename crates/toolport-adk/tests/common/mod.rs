//! What the ADK adapter's tests share: the tasks server as a child process, the tasks agent
//! on ADK-Rust's `LlmAgent` run by its runner, and the recorded transcripts.

#![allow(
    dead_code,
    reason = "each test binary uses its own part of the helpers"
)]

use std::collections::HashMap;
use std::sync::Arc;

use adk_agent::LlmAgentBuilder;
use adk_core::{Agent, Content, Event};
use adk_runner::Runner;
use adk_session::{CreateRequest, InMemorySessionService, SessionService};
use futures_util::StreamExt;
use serde_json::Value;
use toolport::McpToolset;
use toolport::stdio::StdioServer;
use toolport_adk::ReplayLlm;

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

/// The tasks agent over `toolset`, answering with `model`.
pub fn tasks_agent(model: Arc<ReplayLlm>, toolset: Arc<dyn adk_core::Toolset>) -> Arc<dyn Agent> {
    Arc::new(
        LlmAgentBuilder::new("tasks_agent")
            .model(model)
            .instruction(INSTRUCTION)
            .toolset(toolset)
            .build()
            .unwrap(),
    )
}

/// Asks the tasks agent over `toolset` one question, in a new session of user `dev` with
/// `state`, and returns every event.
pub async fn ask(
    model: Arc<ReplayLlm>,
    toolset: Arc<dyn adk_core::Toolset>,
    state: HashMap<String, Value>,
    question: &str,
) -> Vec<Event> {
    ask_agent(tasks_agent(model, toolset), state, question).await
}

/// Asks `agent` one question, in a new session of user `dev` with `state`, and returns every
/// event.
pub async fn ask_agent(
    agent: Arc<dyn Agent>,
    state: HashMap<String, Value>,
    question: &str,
) -> Vec<Event> {
    let sessions = Arc::new(InMemorySessionService::new());
    let session = sessions
        .create(CreateRequest {
            app_name: "tasks".into(),
            user_id: "dev".into(),
            session_id: None,
            state,
        })
        .await
        .unwrap();
    let runner = Runner::builder()
        .app_name("tasks")
        .agent(agent)
        .session_service(sessions)
        .build()
        .unwrap();
    let message = Content::new("user").with_text(question);
    let events = runner.run_str("dev", session.id(), message).await.unwrap();
    events.map(|event| event.unwrap()).collect().await
}

/// The transcript recorded in `tests/recorded/{name}.json`.
pub fn recorded(name: &str) -> Value {
    let path = format!("{}/tests/recorded/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    serde_json::from_str(&text).unwrap()
}
