//! Progress against a library written with the official Python SDK
//! (`tests/peers/python_library_server.py`, its `count_shelves` tool): each report reaches the
//! call's callback, in order, on both protocol versions over stdio and Streamable HTTP.

use std::sync::{Arc, Mutex};

use serde_json::json;
use toolport::http::HttpServer;
use toolport::model::ProtocolVersion;
use toolport::{CallOptions, Connector, McpSession, Progress};
use toolport_integration_tests::{RemotePeer, python_library_stdio};
use toolport_testkit::{bounded, call_params, first_text};

const VERSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28];

async fn count_shelves(connector: impl Connector, version: ProtocolVersion) {
    let session = McpSession::builder(connector)
        .protocol_version(version.clone())
        .build();
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let options = CallOptions::default().on_progress({
        let seen = seen.clone();
        move |report| seen.lock().unwrap().push(report)
    });
    let params = call_params("count_shelves", json!({"shelves": 3}));
    let result = bounded("count_shelves", session.call_tool(params, options))
        .await
        .unwrap();

    assert_eq!(first_text(&result), "3 shelves counted", "{version}");
    let reports: Vec<(f64, Option<f64>, Option<String>)> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|report| (report.progress, report.total, report.message.clone()))
        .collect();
    let expected: Vec<(f64, Option<f64>, Option<String>)> = (1..=3)
        .map(|shelf| (f64::from(shelf), Some(3.0), Some(format!("shelf {shelf}"))))
        .collect();
    assert_eq!(reports, expected, "{version}");
    session.close().await;
}

#[tokio::test]
async fn a_python_tools_progress_over_stdio_on_both_versions() {
    for version in VERSIONS {
        count_shelves(python_library_stdio(), version).await;
    }
}

#[tokio::test]
async fn a_python_tools_progress_over_streamable_http_on_both_versions() {
    let peer = RemotePeer::python_library("streamable-http").await;
    for version in VERSIONS {
        count_shelves(HttpServer::new(peer.url("/mcp")), version).await;
    }
}
