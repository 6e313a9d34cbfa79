//! The reference's agents on ADK-Rust, replayed: recorded model turns, the real tasks server as
//! a child process, Toolport and ADK-Rust's own `LlmAgent` run by its runner. A change in how
//! ADK calls tools or shows their results to the model changes the transcript, and fails these
//! tests.

mod common;

use std::collections::HashMap;
use std::sync::Arc;

use common::{ask, recorded, tasks_toolset};
use serde_json::json;
use toolport_adk::{AdkToolset, ReplayLlm, transcript};

#[tokio::test]
async fn the_agent_resolves_the_docs_task_to_its_id_and_completes_it() {
    let toolset = tasks_toolset().await;
    let model = Arc::new(ReplayLlm::new([
        ReplayLlm::call("call-0", "list_tasks", json!({})),
        ReplayLlm::call("call-1", "complete_task", json!({"task_id": "T-3"})),
        ReplayLlm::answer("Task 'Update the API docs' (T-3) has been successfully closed."),
    ]));

    let events = ask(
        model.clone(),
        Arc::new(AdkToolset::new(toolset.clone())),
        HashMap::new(),
        "Close the docs task.",
    )
    .await;

    assert_eq!(
        transcript(&events),
        [
            "call   list_tasks {}",
            r#"result ok {"tasks":[{"id":"T-1","title":"Write the release notes","priority":"normal","status":"open"},{"id":"T-2","title":"Fix the login redirect bug","priority":"high","status":"done"},{"id":"T-3","title":"Update the API docs","priority":"low","status":"open"}],"count":3}"#,
            r#"call   complete_task {"task_id":"T-3"}"#,
            r#"result ok {"id":"T-3","title":"Update the API docs","priority":"low","status":"done"}"#,
            "answer Task 'Update the API docs' (T-3) has been successfully closed.",
        ]
    );
    assert_eq!(model.transcript(), recorded("close_the_docs_task"));
    toolset.close().await;
}

#[tokio::test]
async fn a_tool_error_reaches_the_model_which_reports_it() {
    let toolset = tasks_toolset().await;
    let model = Arc::new(ReplayLlm::new([
        ReplayLlm::call("call-0", "complete_task", json!({"task_id": "T-9"})),
        ReplayLlm::answer(
            "I could not find a task with the ID T-9. Please use the `list_tasks` tool to see \
             the current list of available task IDs.",
        ),
    ]));

    let events = ask(
        model.clone(),
        Arc::new(AdkToolset::new(toolset.clone())),
        HashMap::new(),
        "Mark task T-9 as done.",
    )
    .await;

    assert_eq!(
        transcript(&events),
        [
            r#"call   complete_task {"task_id":"T-9"}"#,
            "result error No task with ID T-9. Call list_tasks to see the valid IDs.",
            "answer I could not find a task with the ID T-9. Please use the `list_tasks` tool \
             to see the current list of available task IDs.",
        ]
    );
    assert_eq!(model.transcript(), recorded("mark_t9_as_done"));
    toolset.close().await;
}

#[tokio::test]
async fn one_session_keeps_the_servers_state_between_the_calls_of_a_question() {
    let toolset = tasks_toolset().await;
    let model = Arc::new(ReplayLlm::new([
        ReplayLlm::call("call-0", "add_task", json!({"title": "Tag v1.2"})),
        ReplayLlm::call("call-1", "list_tasks", json!({})),
        ReplayLlm::answer("Added T-4, \"Tag v1.2\"."),
    ]));

    let events = ask(
        model,
        Arc::new(AdkToolset::new(toolset.clone())),
        HashMap::new(),
        "Add a task to tag v1.2, then show me the list.",
    )
    .await;

    let listing = &transcript(&events)[3];
    assert!(listing.contains(r#""title":"Tag v1.2""#), "{listing}");
    assert!(listing.contains(r#""count":4"#), "{listing}");
    toolset.close().await;
}
