//! Resources, resource templates, prompts and completion against
//! `@modelcontextprotocol/server-everything`, over stdio, Streamable HTTP and legacy SSE.

use serde_json::{Map, json};
use toolport::http::HttpServer;
use toolport::model::{ArgumentInfo, Reference, ResourceContents};
use toolport::sse::SseServer;
use toolport::{Connector, McpSession, SessionError};
use toolport_integration_tests::{RemotePeer, server_everything_stdio};
use toolport_testkit::bounded;

/// Everything the session reads from server-everything besides its tools.
async fn exercise_catalog(connector: impl Connector) {
    let session = McpSession::new(connector);

    let resources = bounded("resources/list", session.list_resources())
        .await
        .unwrap();
    let architecture = "demo://resource/static/document/architecture.md";
    assert!(
        resources
            .iter()
            .any(|resource| resource.uri == architecture),
        "{resources:?}"
    );
    let document = bounded("read", session.read_resource(architecture))
        .await
        .unwrap();
    let ResourceContents::TextResourceContents { text, .. } = &document.contents[0] else {
        panic!("not text: {document:?}");
    };
    assert!(text.starts_with("# Everything Server"), "{text:.80}");

    let templates = bounded("templates", session.list_resource_templates())
        .await
        .unwrap();
    let blob_template = "demo://resource/dynamic/blob/{resourceId}";
    assert!(
        templates
            .iter()
            .any(|template| template.uri_template == blob_template),
        "{templates:?}"
    );
    let blob = bounded(
        "read",
        session.read_resource("demo://resource/dynamic/blob/1"),
    )
    .await
    .unwrap();
    assert!(
        matches!(&blob.contents[0], ResourceContents::BlobResourceContents { blob, .. } if !blob.is_empty()),
        "{blob:?}"
    );

    let missing = "demo://resource/static/document/nope.md";
    let error = bounded("read", session.read_resource(missing))
        .await
        .unwrap_err();
    assert!(matches!(error, SessionError::Rpc { .. }), "{error:?}");
    assert!(error.to_string().contains(missing), "{error}");

    let prompts = bounded("prompts/list", session.list_prompts())
        .await
        .unwrap();
    let names: Vec<&str> = prompts.iter().map(|prompt| prompt.name.as_str()).collect();
    for expected in ["simple-prompt", "args-prompt", "completable-prompt"] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    let mut arguments = Map::new();
    arguments.insert("city".into(), json!("Lisbon"));
    let prompt = bounded("prompts/get", session.get_prompt("args-prompt", arguments))
        .await
        .unwrap();
    let message = serde_json::to_value(&prompt.messages[0].content).unwrap();
    assert!(
        message["text"]
            .as_str()
            .unwrap_or_default()
            .contains("Lisbon"),
        "{message}"
    );

    let completion = bounded(
        "complete",
        session.complete(
            Reference::for_prompt("completable-prompt"),
            ArgumentInfo::new("department", "E"),
            None,
        ),
    )
    .await
    .unwrap();
    assert_eq!(completion.values, ["Engineering"]);
    session.close().await;
}

#[tokio::test]
async fn resources_prompts_and_completion_over_stdio() {
    exercise_catalog(server_everything_stdio()).await;
}

#[tokio::test]
async fn resources_prompts_and_completion_over_streamable_http() {
    let peer = RemotePeer::server_everything("streamableHttp").await;
    exercise_catalog(HttpServer::new(peer.url("/mcp"))).await;
}

#[tokio::test]
async fn resources_prompts_and_completion_over_legacy_sse() {
    let peer = RemotePeer::server_everything("sse").await;
    exercise_catalog(SseServer::new(peer.url("/sse"))).await;
}
