//! [`DemoConnector`] under a real MCP client (rmcp's): the handshake, the tools and their
//! annotations, structured results, and a fresh session on every connect.

use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use serde_json::json;
use toolport_core::{ConnectContext, Connector};
use toolport_demo::DemoConnector;

async fn client() -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    let connection = DemoConnector
        .connect(&ConnectContext::default())
        .await
        .unwrap();
    ().serve(connection.transport).await.unwrap()
}

fn call(name: &str, arguments: serde_json::Value) -> CallToolRequestParams {
    CallToolRequestParams::new(name.to_owned())
        .with_arguments(arguments.as_object().unwrap().clone())
}

#[tokio::test]
async fn an_rmcp_client_lists_the_tools_with_their_annotations() {
    let client = client().await;
    let info = client.peer_info().unwrap();
    assert_eq!(
        info.server_info.as_ref().unwrap().name,
        "toolport-task-tracker"
    );
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["add_task", "complete_task", "list_tasks"]);
    let annotations = |index: usize| tools[index].annotations.clone().unwrap();
    assert_eq!(annotations(1).idempotent_hint, Some(true));
    assert_eq!(annotations(2).read_only_hint, Some(true));
    assert!(tools.iter().all(|tool| tool.output_schema.is_some()));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_rmcp_client_calls_the_tools() {
    let client = client().await;
    let added = client
        .call_tool(call(
            "add_task",
            json!({"title": "Tag v1.2", "priority": "high"}),
        ))
        .await
        .unwrap();
    assert_eq!(added.is_error, Some(false));
    assert_eq!(added.structured_content.unwrap()["id"], "T-4");
    let missing = client
        .call_tool(call("complete_task", json!({"task_id": "T-9"})))
        .await
        .unwrap();
    assert_eq!(missing.is_error, Some(true));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn every_connect_is_a_fresh_session() {
    let first = client().await;
    first
        .call_tool(call("add_task", json!({"title": "Only here"})))
        .await
        .unwrap();
    let second = client().await;
    let listed = second
        .call_tool(call("list_tasks", json!({})))
        .await
        .unwrap();
    assert_eq!(listed.structured_content.unwrap()["count"], 3);
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
}
