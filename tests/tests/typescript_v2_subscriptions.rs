//! Resource subscriptions and elicitation against the library on the official TypeScript SDK v2
//! (`@modelcontextprotocol/server` 2.4.0, `tests/peers/ts_v2_library_server.mjs`): its `shelve`
//! tool announces that `library://catalog` changed, its `reserve` tool asks who is reading.
//!
//! On 2026-07-28 the session listens (`subscriptions/listen`) and answers `reserve`'s
//! `input_required` result by sending the call again (multi round-trip); over stdio and over
//! Streamable HTTP from `createMcpHandler`. On 2025-11-25 the session sends
//! `resources/subscribe` and hears `notifications/resources/updated`, and the SDK's shim turns
//! `reserve`'s `input_required` result into an `elicitation/create` request; over stdio and over
//! Streamable HTTP sessions of the SDK's `WebStandardStreamableHTTPServerTransport`.
//!
//! What the SDK does not support: the stateless fallback `createMcpHandler` serves 2025-11-25
//! with by default (a fresh server per request) has no GET stream, so it cannot deliver
//! resource updates (not tested: only the absence of an update would show it), and cannot send
//! an elicitation request, which the last test checks: `reserve` fails without asking.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::mpsc;
use toolport::http::HttpServer;
use toolport::model::{CallToolResult, ProtocolVersion, ResourceContents};
use toolport::{
    BoxError, CallOptions, Connector, ElicitationHandler, ElicitationRequest, ElicitationResponse,
    McpSession,
};
use toolport_integration_tests::{RemotePeer, typescript_v2_library_stdio};
use toolport_testkit::{bounded, call_params, first_text};

const CATALOG: &str = "library://catalog";
/// How many times `shelve` is called before the update counts as lost. Over Streamable HTTP
/// the stream that carries updates opens in the background after the handshake, so an update
/// sent before it is open is not heard.
const SHELVE_ATTEMPTS: u32 = 10;
/// How long each call of `shelve` waits for its update.
const UPDATE_PATIENCE: Duration = Duration::from_millis(500);

/// Both protocol versions.
const VERSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28];

/// Subscribes to the catalog on `version`, shelves a title until the update is heard, and
/// finds the title in the catalog.
async fn hears_the_catalog_change(connector: impl Connector, version: ProtocolVersion) {
    let (updates, mut heard) = mpsc::unbounded_channel();
    let session = McpSession::builder(connector)
        .protocol_version(version.clone())
        .on_resource_updated(move |uri| {
            let _ = updates.send(uri.to_owned());
        })
        .build();
    bounded("subscribe", session.subscribe_resource(CATALOG))
        .await
        .unwrap();
    assert_eq!(session.protocol_version(), Some(version.clone()));

    let title = format!("Middlemarch ({version})");
    let uri = shelve_until_heard(&session, &title, &mut heard).await;
    assert_eq!(uri, CATALOG, "{version}");
    let catalog = bounded("read", session.read_resource(CATALOG))
        .await
        .unwrap();
    assert!(
        matches!(&catalog.contents[0], ResourceContents::TextResourceContents { text, .. } if text.contains(&title)),
        "{version}: {catalog:?}"
    );

    bounded("unsubscribe", session.unsubscribe_resource(CATALOG))
        .await
        .unwrap();
    session.close().await;
}

/// Calls `shelve(title)` until an update is heard, at most [`SHELVE_ATTEMPTS`] times, and
/// returns the URI of the update.
async fn shelve_until_heard(
    session: &McpSession,
    title: &str,
    heard: &mut mpsc::UnboundedReceiver<String>,
) -> String {
    for _ in 0..SHELVE_ATTEMPTS {
        let call = session.call_tool(
            call_params("shelve", json!({"title": title})),
            CallOptions::default(),
        );
        let result = bounded("shelve", call).await.unwrap();
        assert_eq!(
            first_text(&result),
            format!("{title} shelved"),
            "{result:?}"
        );
        if let Ok(uri) = tokio::time::timeout(UPDATE_PATIENCE, heard.recv()).await {
            return uri.expect("the session keeps the update callback");
        }
    }
    panic!("no update heard after {SHELVE_ATTEMPTS} calls of shelve");
}

#[tokio::test]
async fn updates_reach_subscribers_over_stdio_on_both_versions() {
    for version in VERSIONS {
        hears_the_catalog_change(typescript_v2_library_stdio(), version).await;
    }
}

#[tokio::test]
async fn updates_reach_listeners_over_streamable_http_on_2026() {
    let peer = RemotePeer::typescript_v2_library("streamable-http").await;
    hears_the_catalog_change(
        HttpServer::new(peer.url("/mcp")),
        ProtocolVersion::V_2026_07_28,
    )
    .await;
}

#[tokio::test]
async fn updates_reach_subscribers_over_streamable_http_sessions_on_2025() {
    let peer = RemotePeer::typescript_v2_library("streamable-http-sessions").await;
    hears_the_catalog_change(
        HttpServer::new(peer.url("/mcp")),
        ProtocolVersion::V_2025_11_25,
    )
    .await;
}

/// Says the reader is Ada when asked a form (declines anything else), and keeps every
/// question.
#[derive(Debug, Clone, Default)]
struct Ada {
    questions: Arc<Mutex<Vec<ElicitationRequest>>>,
}

impl Ada {
    fn questions(&self) -> Vec<ElicitationRequest> {
        self.questions.lock().unwrap().clone()
    }
}

#[toolport::async_trait]
impl ElicitationHandler for Ada {
    async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationResponse, BoxError> {
        self.questions.lock().unwrap().push(request.clone());
        if !matches!(request, ElicitationRequest::Form { .. }) {
            return Ok(ElicitationResponse::Decline);
        }
        let mut answer = Map::new();
        answer.insert("name".into(), Value::from("Ada"));
        Ok(ElicitationResponse::Accept(Some(answer)))
    }
}

/// Calls `reserve` on `version` with Ada answering, and returns the result and what she was
/// asked.
async fn reserve(
    connector: impl Connector,
    version: ProtocolVersion,
) -> (CallToolResult, Vec<ElicitationRequest>) {
    let ada = Ada::default();
    let session = McpSession::builder(connector)
        .protocol_version(version.clone())
        .elicitation_handler(ada.clone())
        .build();
    let call = session.call_tool(
        call_params("reserve", json!({"title": "Dune"})),
        CallOptions::default(),
    );
    let result = bounded("reserve", call).await.unwrap();
    assert_eq!(session.protocol_version(), Some(version));
    session.close().await;
    (result, ada.questions())
}

/// `reserve` on `version` asks Ada once for her name and reserves the book for her.
async fn reserves_for_ada(connector: impl Connector, version: ProtocolVersion) {
    let (result, questions) = reserve(connector, version.clone()).await;
    assert_eq!(
        first_text(&result),
        "Dune reserved for Ada",
        "{version}: {result:?}"
    );
    let [ElicitationRequest::Form { message, schema }] = questions.as_slice() else {
        panic!("{version}: one form, not {questions:?}");
    };
    assert_eq!(message, "Who is reading?", "{version}");
    assert_eq!(schema["properties"]["name"]["type"], "string", "{version}");
}

#[tokio::test]
async fn a_typescript_tool_elicits_over_stdio_on_both_versions() {
    for version in VERSIONS {
        reserves_for_ada(typescript_v2_library_stdio(), version).await;
    }
}

#[tokio::test]
async fn a_typescript_tool_elicits_over_streamable_http_on_2026() {
    let peer = RemotePeer::typescript_v2_library("streamable-http").await;
    reserves_for_ada(
        HttpServer::new(peer.url("/mcp")),
        ProtocolVersion::V_2026_07_28,
    )
    .await;
}

#[tokio::test]
async fn a_typescript_tool_elicits_over_streamable_http_sessions_on_2025() {
    let peer = RemotePeer::typescript_v2_library("streamable-http-sessions").await;
    reserves_for_ada(
        HttpServer::new(peer.url("/mcp")),
        ProtocolVersion::V_2025_11_25,
    )
    .await;
}

#[tokio::test]
async fn the_stateless_2025_fallback_cannot_elicit() {
    let peer = RemotePeer::typescript_v2_library("streamable-http").await;
    let (result, questions) = reserve(
        HttpServer::new(peer.url("/mcp")),
        ProtocolVersion::V_2025_11_25,
    )
    .await;
    assert_eq!(result.is_error, Some(true), "{result:?}");
    assert!(
        first_text(&result).contains("per-request legacy serving cannot receive"),
        "{result:?}"
    );
    assert!(questions.is_empty(), "{questions:?}");
}
