//! The example's offline run: the replay model's turns through rig's loop and the task tracker.

use std::sync::Arc;

use rig_agent_example::{QUESTION, replay_model, show, tasks_agent};
use toolport::McpToolset;

#[tokio::test]
async fn the_offline_run_closes_the_docs_task() {
    let toolset = Arc::new(
        McpToolset::builder(toolport_testkit::task_tracker_connector())
            .build()
            .await
            .unwrap(),
    );
    let (agent, _live) = tasks_agent(replay_model(), toolset.clone()).await.unwrap();

    let response = agent.prompt(QUESTION).max_turns(6).run().await.unwrap();

    assert_eq!(
        show(response.messages()),
        [
            "call   list_tasks {}",
            r#"result ok {"tasks":[{"id":"T-1","title":"Write the release notes","priority":"normal","status":"open"},{"id":"T-2","title":"Fix the login redirect bug","priority":"high","status":"done"},{"id":"T-3","title":"Update the API docs","priority":"low","status":"open"}],"count":3}"#,
            r#"call   complete_task {"task_id":"T-3"}"#,
            r#"result ok {"id":"T-3","title":"Update the API docs","priority":"low","status":"done"}"#,
            r#"answer Task "Update the API docs" (T-3) has been closed."#,
        ]
    );
    toolset.close().await;
}
