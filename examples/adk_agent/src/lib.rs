//! The reference's tasks agent on ADK-Rust: its `LlmAgent`, run by its runner in an in-memory
//! session, over the task tracker's tools through Toolport. Offline, a replay model answers
//! with recorded turns; with `OLLAMA_API_BASE` set, `gemma4:e2b` answers through adk-model's
//! Ollama client.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use adk_agent::{LlmAgent, LlmAgentBuilder};
use adk_core::{AdkError, Content, Event, Llm, LlmRequest, LlmResponse, LlmResponseStream, Part};
use adk_model::{OllamaConfig, OllamaModel};
use adk_runner::Runner;
use adk_session::{CreateRequest, InMemorySessionService, SessionService};
use futures_util::StreamExt;
use serde_json::json;
use toolport::McpToolset;
use toolport_adk::AdkToolset;

/// What the agent is told.
pub const INSTRUCTION: &str =
    "You manage a software project's task tracker. Use the tools to read and change it.";

/// The question of the offline run.
pub const QUESTION: &str = "Close the docs task.";

/// The model the reference's runs used.
pub const OLLAMA_MODEL: &str = "gemma4:e2b";

/// An ADK model that answers with recorded turns, in order.
#[derive(Debug)]
pub struct ReplayLlm {
    turns: Mutex<Vec<Content>>,
}

/// The turns `gemma4:e2b` took for [`QUESTION`] in the reference's ADK run, replayed in order.
pub fn replay_model() -> Arc<dyn Llm> {
    let call = |id: &str, name: &str, args| Content {
        role: "model".into(),
        parts: vec![Part::FunctionCall {
            name: name.into(),
            args,
            id: Some(id.into()),
            thought_signature: None,
        }],
    };
    let mut turns = vec![
        call("call-0", "list_tasks", json!({})),
        call("call-1", "complete_task", json!({"task_id": "T-3"})),
        Content::new("model")
            .with_text("Task 'Update the API docs' (T-3) has been successfully closed."),
    ];
    turns.reverse();
    Arc::new(ReplayLlm {
        turns: Mutex::new(turns),
    })
}

#[async_trait::async_trait]
impl Llm for ReplayLlm {
    fn name(&self) -> &str {
        "replay"
    }

    async fn generate_content(
        &self,
        _request: LlmRequest,
        _stream: bool,
    ) -> adk_core::Result<LlmResponseStream> {
        let turn = self
            .turns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop()
            .ok_or_else(|| AdkError::model("the replay model has no recorded turn left"))?;
        Ok(Box::pin(futures_util::stream::iter([Ok(
            LlmResponse::new(turn),
        )])))
    }
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

/// The events as the reference's `show` prints them: `call`, `result` and `answer` lines.
pub fn show(events: &[Event]) -> Vec<String> {
    let mut lines = Vec::new();
    for event in events.iter().filter(|event| !event.llm_response.partial) {
        let parts = event.llm_response.content.iter().flat_map(|c| &c.parts);
        for part in parts {
            match part {
                Part::FunctionCall { name, args, .. } => {
                    lines.push(format!("call   {name} {args}"))
                }
                Part::FunctionResponse {
                    function_response, ..
                } => {
                    let response = &function_response.response;
                    let status = if response["isError"] == true {
                        "error"
                    } else {
                        "ok"
                    };
                    let shown = match response.get("structuredContent") {
                        Some(structured) => structured.to_string(),
                        None => response["content"][0]["text"]
                            .as_str()
                            .map_or_else(|| response.to_string(), str::to_owned),
                    };
                    lines.push(format!("result {status} {shown}"));
                }
                Part::Text { text } => lines.push(format!("answer {}", text.trim())),
                _ => {}
            }
        }
    }
    lines
}
