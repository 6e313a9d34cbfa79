//! `toolport-bench-adk`: Toolport through its ADK-Rust adapter, as an ADK agent's turn meets
//! it. Each turn asks the [`AdkToolset`] for its tools, as ADK does before every model call,
//! and reads each one's declaration (adapted for Gemini by the adapter, each distinct schema
//! once); then `echo` runs through [`adk_core::Tool::execute`] with a tool context of ADK's
//! shape. Only the `turn` workload is compared.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use adk_core::{
    Artifacts, CallbackContext, Content, EventActions, MemoryEntry, ReadonlyContext, Toolset as _,
};
use anyhow::{Context as _, Result};
use serde_json::Value;
use toolport::McpToolset;
use toolport_adk::AdkToolset;
use toolport_bench::ECHO_TEXT;
use toolport_bench::args::Args;
use toolport_bench::drive::Client;

/// A toolset as ADK sees it, the `echo` tool it listed, and the context of every turn.
struct Adk {
    toolset: Arc<McpToolset>,
    tools: AdkToolset,
    echo: Arc<dyn adk_core::Tool>,
    context: Arc<Turn>,
    /// `echo`'s arguments, as the model's function call carries them.
    arguments: Value,
}

impl Client for Adk {
    const NAME: &'static str = "toolport-adk";

    async fn connect(args: Arc<Args>) -> Result<Self> {
        let toolset = Arc::new(toolport_bench::adapted::toolset(&args, None).await?);
        let tools = AdkToolset::new(toolset.clone());
        let context = Arc::new(Turn::new());
        let listed = tools.tools(context.clone()).await?;
        let echo = listed.into_iter().find(|tool| tool.name() == "echo");
        let echo = echo.context("the server has no `echo` tool")?;
        let arguments = serde_json::json!({ args.arg.as_str(): ECHO_TEXT });
        Ok(Self {
            toolset,
            tools,
            echo,
            context,
            arguments,
        })
    }

    async fn tools(&self) -> Result<usize> {
        let tools = self.tools.tools(self.context.clone()).await?;
        let declarations: Vec<Value> = tools.iter().map(|tool| tool.declaration()).collect();
        Ok(declarations.len())
    }

    async fn echo(&self) -> Result<()> {
        let response = self
            .echo
            .execute(self.context.clone(), self.arguments.clone())
            .await?;
        anyhow::ensure!(
            response.get("isError") != Some(&Value::Bool(true)),
            "echo failed: {response}"
        );
        Ok(())
    }

    async fn close(self) -> Result<()> {
        self.toolset.close().await;
        Ok(())
    }
}

/// One agent turn's context, as ADK's runner hands it to a toolset and a tool.
struct Turn {
    user_content: Content,
    actions: Mutex<EventActions>,
}

impl Turn {
    fn new() -> Self {
        Self {
            user_content: Content::new("user"),
            actions: Mutex::new(EventActions::default()),
        }
    }
}

impl ReadonlyContext for Turn {
    fn invocation_id(&self) -> &str {
        "invocation"
    }
    fn agent_name(&self) -> &str {
        "bench_agent"
    }
    fn user_id(&self) -> &str {
        "bench"
    }
    fn app_name(&self) -> &str {
        "bench"
    }
    fn session_id(&self) -> &str {
        "session"
    }
    fn branch(&self) -> &str {
        ""
    }
    fn user_content(&self) -> &Content {
        &self.user_content
    }
}

#[adk_core::async_trait]
impl CallbackContext for Turn {
    fn artifacts(&self) -> Option<Arc<dyn Artifacts>> {
        None
    }
}

#[adk_core::async_trait]
impl adk_core::ToolContext for Turn {
    fn function_call_id(&self) -> &str {
        "call-0"
    }
    fn actions(&self) -> EventActions {
        self.actions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
    fn set_actions(&self, actions: EventActions) {
        *self.actions.lock().unwrap_or_else(|e| e.into_inner()) = actions;
    }
    async fn search_memory(&self, _query: &str) -> adk_core::Result<Vec<MemoryEntry>> {
        Ok(Vec::new())
    }
}

fn main() -> ExitCode {
    toolport_bench::entry::main::<Adk>()
}
