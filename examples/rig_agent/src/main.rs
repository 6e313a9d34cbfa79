//! Asks the tasks agent on rig one question and prints the run: offline with the replay model,
//! or on `gemma4:e2b` when `OLLAMA_API_BASE` names an Ollama daemon.
//!
//! ```text
//! cargo run -p rig-agent-example [-- "Mark task T-9 as done."]
//! ```

use std::sync::Arc;

use rig_agent_example::{QUESTION, ollama_model, replay_model, show, tasks_agent};
use toolport::McpToolset;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let toolset = Arc::new(
        McpToolset::builder(toolport_testkit::task_tracker_connector())
            .build()
            .await?,
    );
    let (agent, question) = match std::env::var("OLLAMA_API_BASE") {
        Ok(base) => {
            let question = std::env::args().nth(1).unwrap_or_else(|| QUESTION.into());
            (
                tasks_agent(ollama_model(&base), toolset.clone()).await?.0,
                question,
            )
        }
        Err(_) => (
            tasks_agent(replay_model(), toolset.clone()).await?.0,
            QUESTION.into(),
        ),
    };
    let response = agent.prompt(question.as_str()).max_turns(6).run().await?;
    for line in show(response.messages()) {
        println!("{line}");
    }
    toolset.close().await;
    Ok(())
}
