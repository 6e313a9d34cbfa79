//! The task book and its tools, called directly: the seed, the IDs, the filters, the error
//! texts.

use serde_json::{Map, Value, json};
use toolport_demo::{Priority, TaskBook, TaskStatus, UnknownTool};

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

#[test]
fn ids_continue_after_the_seed() {
    let mut book = TaskBook::seeded();
    assert_eq!(book.add("a".into(), Priority::Low).id, "T-4");
    assert_eq!(book.add("b".into(), Priority::Low).id, "T-5");
}

#[test]
fn filters_by_status() {
    let book = TaskBook::seeded();
    assert_eq!(book.list(Some(TaskStatus::Done)).count, 1);
    assert_eq!(book.list(Some(TaskStatus::Open)).count, 2);
    assert_eq!(book.list(None).count, 3);
}

#[test]
fn a_call_returns_structured_content_and_its_text() {
    let mut book = TaskBook::seeded();
    let result = book
        .call("list_tasks", arguments(json!({"status": "done"})))
        .unwrap();
    let expected = json!({"tasks": [{"id": "T-2", "title": "Fix the login redirect bug",
        "priority": "high", "status": "done"}], "count": 1});
    assert_eq!(result["structuredContent"], expected);
    assert_eq!(result["content"][0]["type"], "text");
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, expected);
    assert_eq!(result["isError"], false);
}

#[test]
fn added_tasks_default_to_normal_and_can_be_completed() {
    let mut book = TaskBook::seeded();
    let added = book
        .call("add_task", arguments(json!({"title": "Ship it"})))
        .unwrap();
    assert_eq!(
        added["structuredContent"],
        json!({"id": "T-4", "title": "Ship it", "priority": "normal", "status": "open"})
    );
    let done = book
        .call("complete_task", arguments(json!({"task_id": "T-4"})))
        .unwrap();
    assert_eq!(done["structuredContent"]["status"], "done");
    assert_eq!(book.list(Some(TaskStatus::Done)).count, 2);
}

#[test]
fn an_unknown_id_is_a_tool_error_with_a_hint() {
    let mut book = TaskBook::seeded();
    let result = book
        .call("complete_task", arguments(json!({"task_id": "T-9"})))
        .unwrap();
    assert_eq!(
        result,
        json!({"content": [{"type": "text",
            "text": "No task with ID T-9. Call list_tasks to see the valid IDs."}],
            "isError": true})
    );
}

#[test]
fn arguments_that_do_not_fit_are_a_tool_error_naming_the_problem() {
    let mut book = TaskBook::seeded();
    let result = book
        .call(
            "add_task",
            arguments(json!({"title": "x", "priority": "urgent"})),
        )
        .unwrap();
    assert_eq!(result["isError"], true);
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("unknown variant `urgent`"), "{text}");

    let missing = book.call("complete_task", Map::new()).unwrap();
    let text = missing["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("missing field `task_id`"), "{text}");
}

#[test]
fn an_unknown_tool_is_not_a_tool_result() {
    let mut book = TaskBook::seeded();
    let error = book.call("delete_task", Map::new()).unwrap_err();
    assert_eq!(
        error,
        UnknownTool {
            name: "delete_task".into()
        }
    );
    assert_eq!(error.to_string(), "tool not found: `delete_task`");
}
