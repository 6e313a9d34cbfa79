//! Runs the agent loop offline: a scripted model closes the docs task on the built-in task
//! tracker, and the conversation is printed.
//!
//! ```text
//! tasks_agent [--search]
//! ```
//!
//! With `--search`, the model is offered tool search instead of every tool: it searches first,
//! and calls the tools it found.

use std::sync::Arc;

use serde_json::json;
use tasks_agent::{Agent, Message, ModelTurn, ScriptedModel};
use toolport::search::SearchToolset;
use toolport::{McpToolset, Toolset};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let search = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--search") => true,
        Some(other) => {
            return Err(
                format!("unexpected argument {other:?}; usage: tasks_agent [--search]").into(),
            );
        }
    };
    let tracker = McpToolset::builder(toolport_testkit::task_tracker_connector())
        .build()
        .await?;
    let call = |name: &str, arguments| ModelTurn::CallTool {
        name: name.into(),
        arguments,
    };
    let mut turns = Vec::new();
    let toolset: Arc<dyn Toolset> = if search {
        turns.push(call(
            "search_tools",
            json!({"query": "finish close a task mark done", "limit": 2}),
        ));
        Arc::new(SearchToolset::builder(tracker).build())
    } else {
        Arc::new(tracker)
    };
    turns.extend([
        call("list_tasks", json!({})),
        call("complete_task", json!({"task_id": "T-3"})),
        ModelTurn::Reply("Done: \"Update the API docs\" (T-3) is closed.".into()),
    ]);
    let mut agent = Agent::new(ScriptedModel::new(turns), toolset.clone());
    agent.send("Close the docs task.").await?;
    for (turn, declared) in agent.model().declared().iter().enumerate() {
        println!("turn {}:    offered {}", turn + 1, declared.join(", "));
    }
    for message in agent.conversation() {
        match message {
            Message::User(text) => println!("user:      {text}"),
            Message::ToolCall { name, arguments } => println!("tool call: {name} {arguments}"),
            Message::ToolResult {
                value, is_error, ..
            } => {
                let label = if *is_error { "tool error" } else { "result" };
                println!("{label:>10}: {value}");
            }
            Message::Assistant(text) => println!("assistant: {text}"),
        }
    }
    toolset.close().await;
    Ok(())
}
