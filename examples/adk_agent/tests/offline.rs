//! The example's offline run: the replay model's turns through ADK-Rust's `LlmAgent` and the
//! task tracker.

use std::sync::Arc;

use adk_agent_example::{QUESTION, ask, replay_model, tasks_agent};
use toolport::McpToolset;
use toolport_adk::transcript;

#[tokio::test]
async fn the_offline_run_closes_the_docs_task() {
    let toolset = Arc::new(
        McpToolset::builder(toolport_testkit::task_tracker_connector())
            .build()
            .await
            .unwrap(),
    );

    let events = ask(
        tasks_agent(replay_model(), toolset.clone()).unwrap(),
        QUESTION,
    )
    .await
    .unwrap();

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
    toolset.close().await;
}
