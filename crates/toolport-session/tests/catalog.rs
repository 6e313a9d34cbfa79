//! Resources, resource templates, prompts and completion through the session, against the
//! fixtures' library server: pages followed, the server's errors passed on with what they were
//! about, and a kind the server does not publish listed as empty.

use std::sync::Arc;

use rmcp::model::{ArgumentInfo, ErrorCode, ProtocolVersion, Reference, ResourceContents};
use serde_json::{Map, json};
use toolport_fixtures::{LabServer, LibraryServer};
use toolport_session::{McpSession, SessionError};
use toolport_testkit::{DuplexConnector, bounded};

fn library() -> McpSession {
    McpSession::new(DuplexConnector::new(LibraryServer::new))
}

#[tokio::test]
async fn resources_are_listed_over_every_page_and_read_as_text_or_blob() {
    let session = library();
    let resources = bounded("resources/list", session.list_resources())
        .await
        .unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(uris, ["notes://a", "notes://b"]);
    let templates = bounded("templates", session.list_resource_templates())
        .await
        .unwrap();
    assert_eq!(templates[0].uri_template, "notes://{name}");

    let note = bounded("read", session.read_resource("notes://a"))
        .await
        .unwrap();
    let ResourceContents::TextResourceContents { text, .. } = &note.contents[0] else {
        panic!("not text: {note:?}");
    };
    assert_eq!(text, "Alpha");
    let logo = bounded("read", session.read_resource("notes://logo"))
        .await
        .unwrap();
    assert!(matches!(
        &logo.contents[0],
        ResourceContents::BlobResourceContents { blob, .. } if blob == "iVBORw0KGgo="
    ));
    session.close().await;
}

#[tokio::test]
async fn a_failed_read_says_what_failed_and_is_not_made_a_not_found() {
    // A missing resource is -32002 on 2025-11-25 and -32602 (invalid params) on 2026-07-28.
    for (version, not_found) in [
        (ProtocolVersion::V_2025_11_25, ErrorCode::RESOURCE_NOT_FOUND),
        (ProtocolVersion::V_2026_07_28, ErrorCode::INVALID_PARAMS),
    ] {
        reads_fail_as_the_server_says(version, not_found).await;
    }
}

async fn reads_fail_as_the_server_says(version: ProtocolVersion, not_found: ErrorCode) {
    let connector = Arc::new(DuplexConnector::new(LibraryServer::new));
    let session = McpSession::builder_shared(connector.clone())
        .protocol_version(version.clone())
        .build();
    let missing = bounded("read", session.read_resource("notes://zzz"))
        .await
        .unwrap_err();
    let SessionError::Rpc { error, .. } = &missing else {
        panic!("not the server's error: {missing:?}");
    };
    assert_eq!(error.code, not_found, "{version}");
    assert!(
        missing.to_string().contains("resources/read notes://zzz"),
        "{missing}"
    );

    let broken = bounded("read", session.read_resource("notes://broken"))
        .await
        .unwrap_err();
    let SessionError::Rpc { error, .. } = &broken else {
        panic!("not the server's error: {broken:?}");
    };
    assert_eq!(
        error.code,
        ErrorCode::INTERNAL_ERROR,
        "a failure, not a missing note"
    );
    let message = broken.to_string();
    assert!(
        message.contains("resources/read notes://broken"),
        "{message}"
    );
    assert!(message.contains("the disk is on fire"), "{message}");
    assert!(!message.contains("not found"), "{message}");

    // The connection survives a server's error.
    bounded("read", session.read_resource("notes://a"))
        .await
        .unwrap();
    session.close().await;
}

#[tokio::test]
async fn prompts_are_fetched_with_arguments_and_their_arguments_completed() {
    let session = library();
    let listed = bounded("prompts/list", session.list_prompts())
        .await
        .unwrap();
    assert!(
        listed.is_empty(),
        "prompts/list is `Method not found`: none"
    );

    let mut arguments = Map::new();
    arguments.insert("name".into(), json!("Ada"));
    let prompt = bounded("prompts/get", session.get_prompt("greet", arguments))
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&prompt.messages[0].content).unwrap()["text"],
        "Say hello to Ada."
    );
    let refused = bounded("prompts/get", session.get_prompt("greet", Map::new()))
        .await
        .unwrap_err();
    let message = refused.to_string();
    assert!(message.contains("prompts/get greet"), "{message}");
    assert!(message.contains("`name` is required"), "{message}");

    let completion = bounded(
        "complete",
        session.complete(
            Reference::for_prompt("greet"),
            ArgumentInfo::new("name", "A"),
            None,
        ),
    )
    .await
    .unwrap();
    assert_eq!(completion.values, ["Ada", "Alan"]);
    session.close().await;
}

#[tokio::test]
async fn a_server_that_publishes_only_tools_lists_no_resources_or_prompts() {
    let session = McpSession::new(DuplexConnector::new(LabServer::new));
    assert!(session.list_resources().await.unwrap().is_empty());
    assert!(session.list_resource_templates().await.unwrap().is_empty());
    assert!(session.list_prompts().await.unwrap().is_empty());
    let completion = session
        .complete(
            Reference::for_prompt("any"),
            ArgumentInfo::new("x", ""),
            None,
        )
        .await
        .unwrap();
    assert!(completion.values.is_empty());
    session.close().await;
}

#[tokio::test]
async fn a_server_without_tools_lists_none() {
    let session = McpSession::new(DuplexConnector::new(LibraryServer::new));
    assert!(session.list_tools().await.unwrap().is_empty());
    assert!(!session.list_resources().await.unwrap().is_empty());
    session.close().await;
}
