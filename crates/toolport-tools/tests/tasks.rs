//! A tool whose calls the server runs as tasks is an ordinary tool to the agent: the toolset's
//! tool waits for the task and hands the model its result.

use serde_json::json;
use toolport_fixtures::ResearchDesk;
use toolport_session::TaskPolicy;
use toolport_testkit::{DuplexConnector, bounded};
use toolport_tools::{McpToolset, Tool};

#[tokio::test]
async fn a_tool_run_as_a_task_gives_the_model_the_tasks_result() {
    let desk = ResearchDesk::new();
    let served = desk.clone();
    let toolset = McpToolset::builder(DuplexConnector::new(move || served.clone()))
        .session(|session| session.tasks(TaskPolicy::default()))
        .build()
        .await
        .unwrap();
    let tool = toolset.tool(ResearchDesk::TOOL, None).await.unwrap();

    let output = bounded("research", tool.call(json!({"topic": "tides"}), None))
        .await
        .unwrap();

    assert!(!output.is_error);
    assert_eq!(output.value, json!("A report on tides, in the usual one"));
    assert_eq!(desk.tasks_started(), 1);
    toolset.close().await;
}
