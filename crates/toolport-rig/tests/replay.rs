//! The reference's agents on rig, replayed: recorded model turns, the real tasks server as a
//! child process, Toolport and rig's own agent loop. A change in how rig calls tools or shows
//! their results to the model changes the transcript, and fails these tests.

mod common;

use common::{
    ask, call, installed_tasks_tools, recorded, replay, tasks_toolset, tool_server, transcript,
};
use rig_core::test_utils::MockTurn;
use serde_json::json;
use toolport_rig::{LiveTools, RigToolset, tool_list_changes};

#[tokio::test]
async fn the_agent_resolves_the_docs_task_to_its_id_and_completes_it() {
    let toolset = tasks_toolset().await;
    let tools = tool_server();
    let _live = LiveTools::start(
        RigToolset::new(toolset.clone()),
        tools.clone(),
        tool_list_changes(toolset.session().events()),
    )
    .await
    .unwrap();
    let model = replay([
        call("call-0", "list_tasks", json!({})),
        call("call-1", "complete_task", json!({"task_id": "T-3"})),
        MockTurn::text("Task \"Update the API docs\" (T-3) has been closed."),
    ]);

    let answer = ask(&model, tools, "Close the docs task.").await.unwrap();

    assert_eq!(
        answer.output(),
        "Task \"Update the API docs\" (T-3) has been closed."
    );
    let seen = transcript(&model.requests());
    assert_eq!(seen, recorded("close_the_docs_task"));
    toolset.close().await;
}

#[tokio::test]
async fn a_tool_error_reaches_the_model_which_reports_it() {
    let (toolset, tools) = installed_tasks_tools().await;
    let model = replay([
        call("call-0", "complete_task", json!({"task_id": "T-9"})),
        MockTurn::text(
            "I was unable to mark task T-9 as done because no task with that ID was found. \
             Please list the tasks to see the valid IDs.",
        ),
    ]);

    let answer = ask(&model, tools, "Mark task T-9 as done.").await.unwrap();

    assert!(answer.output().starts_with("I was unable to mark task T-9"));
    let seen = transcript(&model.requests());
    assert_eq!(seen, recorded("mark_t9_as_done"));
    toolset.close().await;
}

#[tokio::test]
async fn one_session_keeps_the_servers_state_between_the_calls_of_a_question() {
    let (toolset, tools) = installed_tasks_tools().await;
    let model = replay([
        call("call-0", "add_task", json!({"title": "Tag v1.2"})),
        call("call-1", "list_tasks", json!({})),
        MockTurn::text("Added T-4, \"Tag v1.2\"."),
    ]);

    ask(
        &model,
        tools,
        "Add a task to tag v1.2, then show me the list.",
    )
    .await
    .unwrap();

    let requests = model.requests();
    let listing = serde_json::to_string(&requests[2].chat_history.last()).unwrap();
    assert!(listing.contains("Tag v1.2"), "{listing}");
    assert!(listing.contains(r#""count":4"#), "{listing}");
    toolset.close().await;
}
