//! On 2026-07-28 each request carries its span's OpenTelemetry trace context in `_meta`
//! (`traceparent`), so that the server's span joins the client's trace; on 2025-11-25, which
//! reserves no such key, it carries none. The spans are exported by `tracing-opentelemetry`
//! to an in-memory exporter, with their semantic-convention attributes.

use opentelemetry::trace::{SpanKind, TracerProvider as _};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use rmcp::model::ProtocolVersion;
use serde_json::{Value, json};
use toolport_fixtures::LabServer;
use toolport_session::{CallOptions, McpSession, OpenTelemetryPropagator};
use toolport_testkit::{DuplexConnector, bounded, call_params};
use tracing_subscriber::layer::SubscriberExt as _;

/// Calls the lab's `trace_context` on a session pinned to `version`, with spans exported to
/// memory; returns what the server saw and the exported spans.
async fn call_traced(version: ProtocolVersion) -> (Value, Vec<SpanData>) {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("toolport-test"));
    let subscriber = tracing_subscriber::registry().with(layer);
    let _guard = tracing::subscriber::set_default(subscriber);

    let session = McpSession::builder(DuplexConnector::new(LabServer::new))
        .protocol_version(version)
        .trace_propagator(OpenTelemetryPropagator)
        .build();
    let call = call_params("trace_context", json!({}));
    let result = bounded(
        "trace_context",
        session.call_tool(call, CallOptions::default()),
    )
    .await
    .unwrap();
    session.close().await;
    provider.force_flush().unwrap();
    let seen = result.structured_content.expect("structured content");
    (seen, exporter.get_finished_spans().unwrap())
}

// One thread, so that the thread-local subscriber sees every task.
#[tokio::test(flavor = "current_thread")]
async fn a_2026_request_carries_its_spans_trace_context() {
    let (seen, spans) = call_traced(ProtocolVersion::V_2026_07_28).await;
    let call = spans
        .iter()
        .find(|span| span.name == "tools/call trace_context")
        .unwrap_or_else(|| panic!("no client span for the call in {spans:?}"));
    assert_eq!(call.span_kind, SpanKind::Client);
    let attribute = |key: &str| {
        call.attributes
            .iter()
            .find(|attribute| attribute.key.as_str() == key)
            .map(|attribute| attribute.value.to_string())
    };
    assert_eq!(attribute("mcp.method.name").as_deref(), Some("tools/call"));
    assert_eq!(
        attribute("gen_ai.tool.name").as_deref(),
        Some("trace_context")
    );
    assert_eq!(
        attribute("mcp.protocol.version").as_deref(),
        Some("2026-07-28")
    );

    let context = call.span_context.clone();
    let expected = format!("00-{}-{}-01", context.trace_id(), context.span_id());
    assert_eq!(seen["traceparent"], expected, "{seen}");
}

#[tokio::test(flavor = "current_thread")]
async fn a_2025_request_carries_no_trace_context() {
    let (seen, spans) = call_traced(ProtocolVersion::V_2025_11_25).await;
    assert!(
        spans
            .iter()
            .any(|span| span.name == "tools/call trace_context"),
        "the call is traced all the same: {spans:?}"
    );
    assert_eq!(seen["traceparent"], Value::Null, "{seen}");
}
