//! What the ADK adapter's tests share: the tasks server as a child process, the replay model,
//! the tasks agent on ADK-Rust's `LlmAgent` run by its runner, and what the model received.

#![allow(
    dead_code,
    reason = "each test binary uses its own part of the helpers"
)]

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use adk_agent::LlmAgentBuilder;
use adk_core::{Content, Event, Llm, LlmRequest, LlmResponse, LlmResponseStream, Part};
use adk_runner::Runner;
use adk_session::{CreateRequest, InMemorySessionService, SessionService};
use futures_util::StreamExt;
use serde_json::{Value, json};
use toolport::McpToolset;
use toolport::stdio::StdioServer;

/// The instruction the reference's agents have.
pub const INSTRUCTION: &str =
    "You manage a software project's task tracker. Use the tools to read and change it.";

/// The testkit's task tracker, served by the `toolport-fixture` binary as a child process.
pub fn tasks_server() -> StdioServer {
    StdioServer::new(toolport_testkit::fixture_binary()).arg("tasks")
}

/// A toolset over a fresh tasks server.
pub async fn tasks_toolset() -> Arc<McpToolset> {
    Arc::new(McpToolset::builder(tasks_server()).build().await.unwrap())
}

/// An ADK model that answers with recorded turns, in order, and keeps every request.
#[derive(Debug, Default)]
pub struct ReplayLlm {
    turns: Mutex<Vec<Content>>,
    requests: Mutex<Vec<LlmRequest>>,
}

impl ReplayLlm {
    /// A model that answers with `turns`.
    pub fn new(turns: impl IntoIterator<Item = Content>) -> Arc<Self> {
        let mut turns: Vec<Content> = turns.into_iter().collect();
        turns.reverse();
        Arc::new(Self {
            turns: Mutex::new(turns),
            requests: Mutex::default(),
        })
    }

    /// Every request received, as JSON: the tool declarations by name, and the contents.
    pub fn transcript(&self) -> Value {
        let requests = self.requests.lock().unwrap();
        Value::Array(
            requests
                .iter()
                .map(|request| {
                    let tools: BTreeMap<&String, &Value> = request.tools.iter().collect();
                    json!({
                        "tools": tools,
                        "contents": serde_json::to_value(&request.contents).unwrap(),
                    })
                })
                .collect(),
        )
    }

    /// How many requests it received.
    pub fn request_count(&self) -> usize {
        self.requests.lock().unwrap().len()
    }
}

#[async_trait::async_trait]
impl Llm for ReplayLlm {
    fn name(&self) -> &str {
        "replay"
    }

    async fn generate_content(
        &self,
        request: LlmRequest,
        _stream: bool,
    ) -> adk_core::Result<LlmResponseStream> {
        self.requests.lock().unwrap().push(request);
        let turn = self.turns.lock().unwrap().pop().ok_or_else(|| {
            adk_core::AdkError::model("the replay model has no recorded turn left")
        })?;
        Ok(Box::pin(futures_util::stream::iter([Ok(
            LlmResponse::new(turn),
        )])))
    }
}

/// A recorded turn that calls `name` with `args`.
pub fn call(id: &str, name: &str, args: Value) -> Content {
    Content {
        role: "model".into(),
        parts: vec![Part::FunctionCall {
            name: name.into(),
            args,
            id: Some(id.into()),
            thought_signature: None,
        }],
    }
}

/// A recorded turn that answers `text`.
pub fn answer(text: &str) -> Content {
    Content::new("model").with_text(text)
}

/// Asks the tasks agent over `toolset` one question, in a new session of user `dev` with
/// `state`, and returns every event.
pub async fn ask(
    model: Arc<ReplayLlm>,
    toolset: Arc<dyn adk_core::Toolset>,
    state: HashMap<String, Value>,
    question: &str,
) -> Vec<Event> {
    let agent = LlmAgentBuilder::new("tasks_agent")
        .model(model)
        .instruction(INSTRUCTION)
        .toolset(toolset)
        .build()
        .unwrap();
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
        .agent(Arc::new(agent))
        .session_service(sessions)
        .build()
        .unwrap();
    let message = Content::new("user").with_text(question);
    let events = runner.run_str("dev", session.id(), message).await.unwrap();
    events.map(|event| event.unwrap()).collect().await
}

/// The events as the reference's `show` prints them: `call`, `result` and `answer` lines.
pub fn show(events: &[Event]) -> Vec<String> {
    let mut lines = Vec::new();
    for event in events.iter().filter(|event| !event.llm_response.partial) {
        let Some(content) = &event.llm_response.content else {
            continue;
        };
        for part in &content.parts {
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

/// The transcript recorded in `tests/recorded/{name}.json`.
pub fn recorded(name: &str) -> Value {
    let path = format!("{}/tests/recorded/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    serde_json::from_str(&text).unwrap()
}
