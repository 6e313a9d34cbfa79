//! A library on the official TypeScript SDK v2 (`@modelcontextprotocol/server` 2.4.0,
//! `tests/peers/ts_v2_library_server.mjs`), which serves both protocol versions: listing, a
//! call, a resource and a prompt over stdio and Streamable HTTP, on 2025-11-25, on 2026-07-28,
//! and negotiated. Its subscriptions and elicitation are in `typescript_v2_subscriptions.rs`.

use serde_json::{Map, json};
use toolport::http::HttpServer;
use toolport::model::{ProtocolVersion, ResourceContents};
use toolport::{Connector, McpToolset, ProtocolChoice};
use toolport_integration_tests::{RemotePeer, call, typescript_v2_library_stdio};
use toolport_testkit::bounded;

/// The three ways to pick the version, and the version each one must end up on.
fn choices() -> [(ProtocolChoice, ProtocolVersion); 3] {
    [
        (
            ProtocolChoice::Pinned(ProtocolVersion::V_2025_11_25),
            ProtocolVersion::V_2025_11_25,
        ),
        (
            ProtocolChoice::Pinned(ProtocolVersion::V_2026_07_28),
            ProtocolVersion::V_2026_07_28,
        ),
        (ProtocolChoice::Negotiate, ProtocolVersion::V_2026_07_28),
    ]
}

/// Everything the library serves, on the version `choice` settles on.
async fn exercise(connector: impl Connector, choice: ProtocolChoice, spoken: ProtocolVersion) {
    let toolset = McpToolset::builder(connector)
        .session(|session| session.protocol(choice.clone()))
        .build()
        .await
        .unwrap();
    toolset.connect().await.unwrap();
    let session = toolset.session();
    assert_eq!(session.protocol_version(), Some(spoken), "{choice}");

    let tools = toolset.tools(None).await.unwrap();
    let mut names: Vec<_> = tools.iter().map(|tool| tool.name()).collect();
    names.sort_unstable();
    assert_eq!(names, ["lookup", "reserve", "shelve"], "{choice}");
    let found = call(&toolset, "lookup", json!({"id": "B-7"})).await;
    assert_eq!(found.value, json!("book B-7: on shelf 3"), "{choice}");

    let resources = bounded("resources/list", session.list_resources())
        .await
        .unwrap();
    assert_eq!(resources[0].uri, "library://catalog", "{choice}");
    let catalog = bounded("read", session.read_resource("library://catalog"))
        .await
        .unwrap();
    assert!(
        matches!(&catalog.contents[0], ResourceContents::TextResourceContents { text, .. } if text == "Dune; Emma; Ulysses"),
        "{choice}: {catalog:?}"
    );

    let prompts = bounded("prompts/list", session.list_prompts())
        .await
        .unwrap();
    assert_eq!(prompts[0].name, "recommend", "{choice}");
    let mut arguments = Map::new();
    arguments.insert("genre".into(), json!("mystery"));
    let prompt = bounded("prompts/get", session.get_prompt("recommend", arguments))
        .await
        .unwrap();
    let message = serde_json::to_value(&prompt.messages[0].content).unwrap();
    assert_eq!(message["text"], "Recommend a mystery book.", "{choice}");
    toolset.close().await;
}

#[tokio::test]
async fn over_stdio_on_both_versions_and_negotiated() {
    for (choice, spoken) in choices() {
        exercise(typescript_v2_library_stdio(), choice, spoken).await;
    }
}

#[tokio::test]
async fn over_streamable_http_on_both_versions_and_negotiated() {
    let peer = RemotePeer::typescript_v2_library("streamable-http").await;
    for (choice, spoken) in choices() {
        exercise(HttpServer::new(peer.url("/mcp")), choice, spoken).await;
    }
}
