//! Elicitation against a library written with the official Python SDK 2.3.0
//! (`tests/peers/python_library_server.py`, its `reserve` tool), on both protocol versions over
//! stdio and Streamable HTTP: a standalone `elicitation/create` request on 2025-11-25, an
//! `input_required` result answered by sending the call again on 2026-07-28.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Map, Value, json};
use toolport::http::HttpServer;
use toolport::model::ProtocolVersion;
use toolport::{
    BoxError, CallOptions, Connector, ElicitationHandler, ElicitationRequest, ElicitationResponse,
    McpSession,
};
use toolport_integration_tests::{RemotePeer, python_library_stdio};
use toolport_testkit::{bounded, call_params, first_text};

/// Says the reader is Ada, and counts the questions.
#[derive(Debug, Clone, Default)]
struct Ada {
    asked: Arc<AtomicUsize>,
}

#[toolport::async_trait]
impl ElicitationHandler for Ada {
    async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationResponse, BoxError> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let ElicitationRequest::Form { message, .. } = request else {
            return Ok(ElicitationResponse::Decline);
        };
        assert_eq!(message, "Who is reading?");
        let mut answer = Map::new();
        answer.insert("name".into(), Value::from("Ada"));
        Ok(ElicitationResponse::Accept(Some(answer)))
    }
}

async fn reserve(connector: impl Connector, version: ProtocolVersion) {
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
    assert_eq!(
        first_text(&result),
        "Dune reserved for Ada",
        "{version}: {result:?}"
    );
    assert_eq!(ada.asked.load(Ordering::SeqCst), 1, "{version}");
    assert_eq!(session.protocol_version(), Some(version));
    session.close().await;
}

#[tokio::test]
async fn a_python_tool_elicits_over_stdio_on_both_versions() {
    for version in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        reserve(python_library_stdio(), version).await;
    }
}

#[tokio::test]
async fn a_python_tool_elicits_over_streamable_http_on_both_versions() {
    let peer = RemotePeer::python_library("streamable-http").await;
    for version in [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28] {
        reserve(HttpServer::new(peer.url("/mcp")), version).await;
    }
}
