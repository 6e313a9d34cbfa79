//! The task tracker over the in-process duplex connector, driven by a raw rmcp client.

mod common;

use rmcp::model::ProtocolVersion;
use serde_json::{Value, json};
use toolport_testkit::{Task, TaskList, task_tracker_connector};

use common::{call, connect, only_text};
use toolport_testkit::bounded;

#[tokio::test]
async fn initialize_names_the_server_and_accepts_2025_11_25() {
    let client = connect(&task_tracker_connector()).await;
    let info = client.peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().unwrap().name,
        "toolport-task-tracker"
    );
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    assert!(info.capabilities.tools.is_some());
}

#[tokio::test]
async fn lists_three_tools_with_output_schemas_and_the_id_pattern() {
    let client = connect(&task_tracker_connector()).await;
    let mut tools = bounded("tools/list", client.list_all_tools())
        .await
        .unwrap();
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["add_task", "complete_task", "list_tasks"]);

    for tool in &tools {
        assert!(
            tool.output_schema.is_some(),
            "{} has no output schema",
            tool.name
        );
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(description.ends_with('.'), "{description:?}");
    }
    let [add, complete, list] = &tools[..] else {
        unreachable!()
    };

    let task_id = &complete.input_schema["properties"]["task_id"];
    assert_eq!(task_id["pattern"], json!(r"^T-\d+$"));
    assert_eq!(complete.input_schema["required"], json!(["task_id"]));
    let annotations = complete.annotations.as_ref().expect("annotations");
    assert_eq!(annotations.idempotent_hint, Some(true));

    let status = &list.input_schema["properties"]["status"];
    assert_eq!(status["enum"], json!(["open", "done"]));
    assert!(list.input_schema.get("required").is_none());
    let annotations = list.annotations.as_ref().expect("annotations");
    assert_eq!(annotations.read_only_hint, Some(true));
    let description = list.description.as_deref().unwrap();
    assert!(
        description.contains("optionally filtered by status"),
        "{description}"
    );

    let priority = &add.input_schema["properties"]["priority"];
    assert_eq!(priority["enum"], json!(["low", "normal", "high"]));
    assert_eq!(priority["default"], json!("normal"));
    assert_eq!(add.input_schema["required"], json!(["title"]));

    let output = add.output_schema.as_ref().unwrap();
    assert_eq!(
        output["required"],
        json!(["id", "title", "priority", "status"])
    );
}

#[tokio::test]
async fn list_tasks_returns_the_seed_tasks() {
    let client = connect(&task_tracker_connector()).await;
    let result = call(&client, "list_tasks", json!({})).await;
    assert_eq!(result.is_error, Some(false));
    let list: TaskList = serde_json::from_value(result.structured_content.unwrap()).unwrap();
    assert_eq!(list.count, 3);
    let seed: Vec<Value> = list
        .tasks
        .iter()
        .map(|task| serde_json::to_value(task).unwrap())
        .collect();
    assert_eq!(
        seed,
        [
            json!({"id": "T-1", "title": "Write the release notes", "priority": "normal", "status": "open"}),
            json!({"id": "T-2", "title": "Fix the login redirect bug", "priority": "high", "status": "done"}),
            json!({"id": "T-3", "title": "Update the API docs", "priority": "low", "status": "open"}),
        ]
    );

    let open = call(&client, "list_tasks", json!({"status": "open"})).await;
    assert_eq!(open.structured_content.unwrap()["count"], json!(2));
    let done = call(&client, "list_tasks", json!({"status": "done"})).await;
    assert_eq!(
        done.structured_content.unwrap()["tasks"][0]["id"],
        json!("T-2")
    );
}

#[tokio::test]
async fn an_unknown_id_is_a_tool_error_with_a_hint() {
    let client = connect(&task_tracker_connector()).await;
    let result = call(&client, "complete_task", json!({"task_id": "T-9"})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        only_text(&result),
        "No task with ID T-9. Call list_tasks to see the valid IDs."
    );
}

#[tokio::test]
async fn added_and_completed_tasks_stay_for_the_session() {
    let client = connect(&task_tracker_connector()).await;
    let added = call(
        &client,
        "add_task",
        json!({"title": "Ship it", "priority": "high"}),
    )
    .await;
    let task: Task = serde_json::from_value(added.structured_content.unwrap()).unwrap();
    assert_eq!(task.id, "T-4");
    let second = call(&client, "add_task", json!({"title": "Celebrate"})).await;
    assert_eq!(
        second.structured_content.unwrap(),
        json!({"id": "T-5", "title": "Celebrate", "priority": "normal", "status": "open"})
    );

    let completed = call(&client, "complete_task", json!({"task_id": "T-4"})).await;
    assert_eq!(
        completed.structured_content.unwrap()["status"],
        json!("done")
    );

    let list = call(&client, "list_tasks", json!({})).await;
    let list: TaskList = serde_json::from_value(list.structured_content.unwrap()).unwrap();
    assert_eq!(list.count, 5);
    assert_eq!(list.tasks[3].title, "Ship it");
}

#[tokio::test]
async fn every_connect_starts_from_the_seed() {
    let connector = task_tracker_connector();
    let first = connect(&connector).await;
    call(&first, "add_task", json!({"title": "Only here"})).await;

    let second = connect(&connector).await;
    let list = call(&second, "list_tasks", json!({})).await;
    assert_eq!(list.structured_content.unwrap()["count"], json!(3));
    assert_eq!(connector.connect_count(), 2);
}
