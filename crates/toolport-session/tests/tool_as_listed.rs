//! `McpSession::tool_as_listed` gives a tool back with every member the server listed,
//! those rmcp's `Tool` drops included, against a scripted server.

use rmcp::model::ProtocolVersion;
use serde_json::json;
use toolport_session::McpSession;
use toolport_testkit::bounded;
use toolport_testkit::scripted;

#[tokio::test]
async fn a_listed_tool_keeps_the_members_rmcp_drops() {
    let (connector, server) = scripted::pair();
    let session = McpSession::builder(connector)
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .build();
    let listing = tokio::spawn({
        let session = session.clone();
        async move { session.list_tools().await }
    });

    let mut connection = server.accept().await;
    let initialize = connection.expect_request("initialize").await;
    connection.respond(&initialize, scripted::initialize_result());
    connection
        .expect_notification("notifications/initialized")
        .await;
    let list = connection.expect_request("tools/list").await;
    let research = json!({
        "name": "research",
        "description": "Researches a question.",
        "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": true, "costHint": "high"},
        "execution": {"taskSupport": "required"},
        "x-vendor": {"tier": 2},
    });
    let plain = json!({"name": "plain", "inputSchema": {"type": "object"}});
    connection.respond(&list, json!({"tools": [research, plain]}));

    let tools = bounded("the listing", listing).await.unwrap().unwrap();
    let as_listed = |name: &str| {
        let tool = tools.iter().find(|tool| tool.name == name).unwrap();
        session.tool_as_listed(tool).unwrap()
    };
    assert_eq!(as_listed("research"), research);
    assert_eq!(as_listed("plain"), plain);
    // rmcp's model alone drops them.
    let modeled = serde_json::to_value(&tools[0]).unwrap();
    assert!(modeled.get("execution").is_none() && modeled.get("x-vendor").is_none());

    session.close().await;
}
