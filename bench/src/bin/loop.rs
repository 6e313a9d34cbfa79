//! `toolport-bench-loop`: the toolset called directly by a hand-written agent loop on the Gemini
//! API, through [`provider_messages`](toolport::provider_messages), the baseline of the `turn`
//! row. Each turn offers the toolset's tools ([`OfferedTools`], whose declarations become the
//! request's `tools`), runs the model's one `echo` call ([`OfferedTools::call_all`]) and writes
//! its answer as the next request's `functionResponse` ([`ApiShape::answer_messages`]). The
//! model's response is read once, before the turns. Only the `turn` workload is compared.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use anyhow::{Context as _, Result};
use serde_json::{Value, json};
use toolport::McpToolset;
use toolport::provider_messages::{ApiShape, FunctionCall, OfferedTools};
use toolport::schema::Provider;
use toolport_bench::ECHO_TEXT;
use toolport_bench::args::Args;
use toolport_bench::drive::Client;

/// A toolset, the model's call of `echo`, and the tools offered this turn.
struct Loop {
    toolset: Arc<McpToolset>,
    calls: Vec<FunctionCall>,
    offered: Mutex<Option<Arc<OfferedTools>>>,
}

impl Client for Loop {
    const NAME: &'static str = "toolport-loop";

    async fn connect(args: Arc<Args>) -> Result<Self> {
        let toolset =
            Arc::new(toolport_bench::adapted::toolset(&args, Some(Provider::Gemini)).await?);
        let response = json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": "echo", "args": { args.arg.as_str(): ECHO_TEXT }}}
        ]}}]});
        let calls = ApiShape::Gemini.read_response(&response)?.calls;
        Ok(Self {
            toolset,
            calls,
            offered: Mutex::new(None),
        })
    }

    async fn tools(&self) -> Result<usize> {
        let offered = OfferedTools::new(ApiShape::Gemini, self.toolset.tools(None).await?)?;
        let declarations = offered.declarations();
        let count = declarations[0]["functionDeclarations"]
            .as_array()
            .map_or(0, Vec::len);
        *self.offered.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(offered));
        Ok(count)
    }

    async fn echo(&self) -> Result<()> {
        let offered = self
            .offered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let offered = offered.context("`tools` runs before `echo`")?;
        let answers = offered.call_all(&self.calls, None).await?;
        anyhow::ensure!(
            answers.iter().all(|answer| !answer.output.is_error),
            "echo failed: {:?}",
            answers
        );
        let messages: Vec<Value> = ApiShape::Gemini.answer_messages(&answers);
        anyhow::ensure!(!messages.is_empty(), "echo's answer wrote no message");
        Ok(())
    }

    async fn close(self) -> Result<()> {
        self.toolset.close().await;
        Ok(())
    }
}

fn main() -> ExitCode {
    toolport_bench::entry::main::<Loop>()
}
