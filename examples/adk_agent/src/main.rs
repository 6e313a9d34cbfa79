//! Asks the tasks agent on ADK-Rust one question and prints the run: offline with the replay
//! model, or on `gemma4:e2b` when `OLLAMA_API_BASE` names an Ollama daemon.
//!
//! ```text
//! cargo run -p adk-agent-example [-- "Mark task T-9 as done."]
//! ```

use std::sync::Arc;

use adk_agent_example::{QUESTION, ask, ollama_model, replay_model, tasks_agent};
use toolport::McpToolset;
use toolport_adk::transcript;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let toolset = Arc::new(
        McpToolset::builder(toolport_testkit::task_tracker_connector())
            .build()
            .await?,
    );
    let (model, question) = match std::env::var("OLLAMA_API_BASE") {
        Ok(base) => (
            ollama_model(&base)?,
            std::env::args().nth(1).unwrap_or_else(|| QUESTION.into()),
        ),
        Err(_) => (replay_model(), QUESTION.into()),
    };
    let events = ask(tasks_agent(model, toolset.clone())?, &question).await?;
    for line in transcript(&events) {
        println!("{line}");
    }
    toolset.close().await;
    Ok(())
}
