//! Listing and calling over stdio against a task tracker written with the official Python SDK.

use serde_json::json;
use toolport::{McpToolset, Toolset};
use toolport_integration_tests::python_task_tracker_stdio;

#[tokio::test]
async fn lists_calls_and_keeps_state_across_calls() {
    let toolset = McpToolset::builder(python_task_tracker_stdio())
        .allow(["list_tasks", "add_task", "complete_task"])
        .strict(true)
        .build()
        .await
        .unwrap();
    let tools = toolset.tools(None).await.unwrap();
    let tool = |name: &str| {
        tools
            .iter()
            .find(|tool| tool.name() == name)
            .unwrap()
            .clone()
    };

    let listing = tool("list_tasks").call(json!({}), None).await.unwrap();
    assert_eq!(listing.value["count"], 3, "{}", listing.value);

    let added = tool("add_task")
        .call(json!({"title": "Tag v1.2"}), None)
        .await
        .unwrap();
    assert_eq!(added.value["title"], "Tag v1.2", "{}", added.value);
    let listing = tool("list_tasks").call(json!({}), None).await.unwrap();
    assert_eq!(listing.value["count"], 4);
    assert!(listing.value.to_string().contains("Tag v1.2"));

    let missing = tool("complete_task")
        .call(json!({"task_id": "T-9"}), None)
        .await
        .unwrap();
    assert!(missing.is_error);
    assert!(
        missing.value["error"]
            .as_str()
            .unwrap()
            .contains("No task with ID T-9. Call list_tasks to see the valid IDs."),
        "{}",
        missing.value
    );
    toolset.close().await;
}
