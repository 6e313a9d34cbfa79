//! The reference's tasks agent on ADK-Rust: its `LlmAgent`, run by its runner in an in-memory
//! session, over the task tracker's tools through Toolport. Offline, a replay model answers
//! with recorded turns; with `OLLAMA_API_BASE` set, `gemma4:e2b` answers through adk-model's
//! Ollama client.

use std::collections::HashMap;
use std::sync::Arc;

use adk_agent::{LlmAgent, LlmAgentBuilder};
use adk_core::{Content, Event, Llm};
use adk_model::{OllamaConfig, OllamaModel};
use adk_runner::Runner;
use adk_session::{CreateRequest, InMemorySessionService, SessionService};
use futures_util::StreamExt;
use serde_json::json;
use toolport::McpToolset;
use toolport_adk::{AdkToolset, ReplayLlm};

/// What the agent is told.
pub const INSTRUCTION: &str =
    "You manage a software project's task tracker. Use the tools to read and change it.";

/// The question of the offline run.
pub const QUESTION: &str = "Close the docs task.";

/// The model the reference's runs used.
pub const OLLAMA_MODEL: &str = "gemma4:e2b";

/// The turns `gemma4:e2b` took for [`QUESTION`] in the reference's ADK run, replayed in order.
pub fn replay_model() -> Arc<dyn Llm> {
    Arc::new(ReplayLlm::new([
        ReplayLlm::call("call-0", "list_tasks", json!({})),
        ReplayLlm::call("call-1", "complete_task", json!({"task_id": "T-3"})),
        ReplayLlm::answer("Task 'Update the API docs' (T-3) has been successfully closed."),
    ]))
}

/// `gemma4:e2b` on the Ollama daemon at `base` (such as `http://localhost:11434`).
///
/// # Errors
///
/// When adk-model cannot build its Ollama client for `base`.
pub fn ollama_model(base: &str) -> adk_core::Result<Arc<dyn Llm>> {
    Ok(Arc::new(OllamaModel::new(OllamaConfig::with_host(
        base,
        OLLAMA_MODEL,
    ))?))
}

/// The agent over `toolset`'s tools, answering with `model`.
///
/// # Errors
///
/// When ADK refuses the agent's settings.
pub fn tasks_agent(model: Arc<dyn Llm>, toolset: Arc<McpToolset>) -> adk_core::Result<LlmAgent> {
    LlmAgentBuilder::new("tasks_agent")
        .model(model)
        .instruction(INSTRUCTION)
        .toolset(Arc::new(AdkToolset::new(toolset).named("tasks")))
        .build()
}

/// Runs one question through `agent` in a new in-memory session of user `dev`, and returns
/// every event.
///
/// # Errors
///
/// When the runner cannot start or the run fails.
pub async fn ask(agent: LlmAgent, question: &str) -> adk_core::Result<Vec<Event>> {
    let sessions = Arc::new(InMemorySessionService::new());
    let session = sessions
        .create(CreateRequest {
            app_name: "tasks".into(),
            user_id: "dev".into(),
            session_id: None,
            state: HashMap::new(),
        })
        .await?;
    let runner = Runner::builder()
        .app_name("tasks")
        .agent(Arc::new(agent))
        .session_service(sessions)
        .build()?;
    let message = Content::new("user").with_text(question);
    let events = runner.run_str("dev", session.id(), message).await?;
    events.collect::<Vec<_>>().await.into_iter().collect()
}
