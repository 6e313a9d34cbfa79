//! Runs the agent loop offline: a scripted model closes the docs task on the built-in task
//! tracker, and the conversation is printed.

use std::sync::Arc;

use serde_json::json;
use tasks_agent::{Agent, Message, ModelTurn, ScriptedModel};
use toolport::McpToolset;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let toolset = Arc::new(
        McpToolset::builder(toolport_testkit::task_tracker_connector())
            .build()
            .await?,
    );
    let model = ScriptedModel::new([
        ModelTurn::CallTool {
            name: "list_tasks".into(),
            arguments: json!({}),
        },
        ModelTurn::CallTool {
            name: "complete_task".into(),
            arguments: json!({"task_id": "T-3"}),
        },
        ModelTurn::Reply("Done: \"Update the API docs\" (T-3) is closed.".into()),
    ]);
    let mut agent = Agent::new(model, toolset.clone());
    agent.send("Close the docs task.").await?;
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
    toolport::Toolset::close(toolset.as_ref()).await;
    Ok(())
}
