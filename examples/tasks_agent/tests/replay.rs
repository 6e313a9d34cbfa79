//! Replays scripted model turns through the real task-tracker server, toolset and loop.

use std::sync::Arc;

use serde_json::json;
use tasks_agent::{Agent, Message, ModelTurn, ScriptedModel};
use toolport::search::SearchToolset;
use toolport::{McpToolset, Toolset as _};

fn call(name: &str, arguments: serde_json::Value) -> ModelTurn {
    ModelTurn::CallTool {
        name: name.into(),
        arguments,
    }
}

async fn task_tracker() -> Arc<McpToolset> {
    Arc::new(
        McpToolset::builder(toolport_testkit::task_tracker_connector())
            .build()
            .await
            .unwrap(),
    )
}

fn tool_results(conversation: &[Message]) -> Vec<(&str, &serde_json::Value, bool)> {
    conversation
        .iter()
        .filter_map(|message| match message {
            Message::ToolResult {
                name,
                value,
                is_error,
            } => Some((name.as_str(), value, *is_error)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn close_the_docs_task() {
    let toolset = task_tracker().await;
    let model = ScriptedModel::new([
        call("list_tasks", json!({})),
        call("complete_task", json!({"task_id": "T-3"})),
        ModelTurn::Reply("Closed T-3.".into()),
    ]);
    let mut agent = Agent::new(model, toolset.clone());

    let answer = agent.send("Close the docs task.").await.unwrap();

    assert_eq!(answer, "Closed T-3.");
    let results = tool_results(agent.conversation());
    assert_eq!(results.len(), 2);
    let (name, listing, is_error) = results[0];
    assert_eq!((name, is_error), ("list_tasks", false));
    assert_eq!(listing["count"], 3);
    let docs = listing["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|task| task["title"] == "Update the API docs")
        .unwrap();
    assert_eq!(docs["id"], "T-3");
    let (name, completed, is_error) = results[1];
    assert_eq!((name, is_error), ("complete_task", false));
    assert_eq!(completed["id"], "T-3");
    assert_eq!(completed["status"], "done");
    // The model saw both results before it answered.
    let last_view = agent.model().seen().last().unwrap();
    assert_eq!(tool_results(last_view).len(), 2);

    // The server kept the change.
    let tools = toolset.tools(None).await.unwrap();
    let list_tasks = tools
        .iter()
        .find(|tool| tool.name() == "list_tasks")
        .unwrap();
    let open = list_tasks
        .call(json!({"status": "open"}), None)
        .await
        .unwrap();
    assert_eq!(open.value["count"], 1);
    toolset.close().await;
}

#[tokio::test]
async fn an_unknown_task_reaches_the_model_as_a_tool_error() {
    let toolset = task_tracker().await;
    let model = ScriptedModel::new([
        call("complete_task", json!({"task_id": "T-9"})),
        ModelTurn::Reply("There is no task T-9.".into()),
    ]);
    let mut agent = Agent::new(model, toolset.clone());

    let answer = agent.send("Mark task T-9 as done.").await.unwrap();

    assert_eq!(answer, "There is no task T-9.");
    let last_view = agent.model().seen().last().unwrap();
    let results = tool_results(last_view);
    assert_eq!(results.len(), 1);
    let (name, value, is_error) = results[0];
    assert_eq!(name, "complete_task");
    assert!(is_error);
    assert_eq!(
        value,
        &json!({"error": "No task with ID T-9. Call list_tasks to see the valid IDs."})
    );
    toolset.close().await;
}

#[tokio::test]
async fn one_session_keeps_server_state_between_calls() {
    let toolset = task_tracker().await;
    let model = ScriptedModel::new([
        call("add_task", json!({"title": "Tag v1.2"})),
        call("list_tasks", json!({})),
        ModelTurn::Reply("Added T-4.".into()),
    ]);
    let mut agent = Agent::new(model, toolset.clone());

    agent.send("Add a task to tag v1.2.").await.unwrap();

    let results = tool_results(agent.conversation());
    let (_, added, _) = results[0];
    assert_eq!(added["title"], "Tag v1.2");
    let (_, listing, _) = results[1];
    assert_eq!(listing["count"], 4);
    assert!(
        listing["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|task| task["id"] == added["id"] && task["title"] == "Tag v1.2"),
        "{listing}"
    );
    toolset.close().await;
}

/// With tool search on, the first turn declares the search tool alone; the tools the search
/// found are declared from the next turn and called, and the one it did not find never is.
#[tokio::test]
async fn with_search_the_model_is_offered_what_it_found() {
    let toolset = Arc::new(SearchToolset::builder_shared(task_tracker().await).build());
    let model = ScriptedModel::new([
        call(
            "search_tools",
            json!({"query": "finish close a task mark done", "limit": 2}),
        ),
        call("complete_task", json!({"task_id": "T-3"})),
        ModelTurn::Reply("Closed T-3.".into()),
    ]);
    let mut agent = Agent::new(model, toolset.clone());

    let answer = agent.send("Close the docs task.").await.unwrap();

    assert_eq!(answer, "Closed T-3.");
    let declared = agent.model().declared();
    assert_eq!(declared[0], ["search_tools"]);
    assert_eq!(declared[1], ["search_tools", "complete_task", "list_tasks"]);
    let results = tool_results(agent.conversation());
    let (name, found, is_error) = results[0];
    assert_eq!((name, is_error), ("search_tools", false));
    assert_eq!(found["tools"][0]["name"], "complete_task");
    let (name, completed, is_error) = results[1];
    assert_eq!((name, is_error), ("complete_task", false));
    assert_eq!(completed["status"], "done");
    toolset.close().await;
}
