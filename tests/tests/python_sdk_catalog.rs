//! Resources, a resource template, prompts and completion against a library written with the
//! official Python SDK (`tests/peers/python_library_server.py`), over stdio and Streamable HTTP.

use serde_json::{Map, json};
use toolport::http::HttpServer;
use toolport::model::{ArgumentInfo, Reference, ResourceContents};
use toolport::{Connector, McpSession, SessionError};
use toolport_integration_tests::{RemotePeer, python_library_stdio};
use toolport_testkit::bounded;

/// The text of a read's first contents.
fn text_of(contents: &[ResourceContents]) -> &str {
    match &contents[0] {
        ResourceContents::TextResourceContents { text, .. } => text,
        other => panic!("not text: {other:?}"),
    }
}

async fn exercise_library(connector: impl Connector) {
    let session = McpSession::new(connector);

    let resources = bounded("resources/list", session.list_resources())
        .await
        .unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["notes://welcome", "notes://logo", "notes://broken"]);
    let welcome = bounded("read", session.read_resource("notes://welcome"))
        .await
        .unwrap();
    assert_eq!(text_of(&welcome.contents), "Welcome to the library.");
    let logo = bounded("read", session.read_resource("notes://logo"))
        .await
        .unwrap();
    assert!(
        matches!(&logo.contents[0], ResourceContents::BlobResourceContents { blob, .. } if blob.starts_with("iVBORw0KGgo")),
        "{logo:?}"
    );

    let templates = bounded("templates", session.list_resource_templates())
        .await
        .unwrap();
    assert_eq!(templates[0].uri_template, "notes://books/{title}");
    let book = bounded("read", session.read_resource("notes://books/Dune"))
        .await
        .unwrap();
    assert_eq!(text_of(&book.contents), "Dune, in stock");

    let error = bounded("read", session.read_resource("notes://broken"))
        .await
        .unwrap_err();
    assert!(matches!(error, SessionError::Rpc { .. }), "{error:?}");
    let message = error.to_string();
    assert!(
        message.contains("resources/read notes://broken"),
        "{message}"
    );
    assert!(
        !message.contains("not found"),
        "a failed read is no missing one: {message}"
    );

    let prompts = bounded("prompts/list", session.list_prompts())
        .await
        .unwrap();
    assert_eq!(prompts[0].name, "recommend");
    let mut arguments = Map::new();
    arguments.insert("genre".into(), json!("history"));
    let prompt = bounded("prompts/get", session.get_prompt("recommend", arguments))
        .await
        .unwrap();
    let message = serde_json::to_value(&prompt.messages[0].content).unwrap();
    assert_eq!(message["text"], "Recommend a history book for adults.");

    let completion = bounded(
        "complete",
        session.complete(
            Reference::for_prompt("recommend"),
            ArgumentInfo::new("genre", "h"),
            None,
        ),
    )
    .await
    .unwrap();
    assert_eq!(completion.values, ["history", "horror"]);
    session.close().await;
}

#[tokio::test]
async fn resources_prompts_and_completion_over_stdio() {
    exercise_library(python_library_stdio()).await;
}

#[tokio::test]
async fn resources_prompts_and_completion_over_streamable_http() {
    let peer = RemotePeer::python_library("streamable-http").await;
    exercise_library(HttpServer::new(peer.url("/mcp"))).await;
}
