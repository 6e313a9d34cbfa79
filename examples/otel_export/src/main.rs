//! Exports Toolport's request spans over OTLP/HTTP with `tracing-opentelemetry`: one agent turn
//! (a span of the application's own) lists the built-in task tracker's tools and calls one;
//! each request is a client span inside the turn, and carries its trace context to the server.
//!
//! The collector is the one `OTEL_EXPORTER_OTLP_ENDPOINT` names (default
//! `http://localhost:4318`, an OpenTelemetry Collector or Jaeger on this machine). With no
//! collector listening, the spans are dropped and the run goes on.
//!
//! ```text
//! OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 cargo run -p otel-export
//! ```

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::SpanExporter;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::SdkTracerProvider;
use toolport::model::{CallToolRequestParams, ProtocolVersion};
use toolport::{CallOptions, McpSession, OpenTelemetryPropagator};
use tracing::Instrument as _;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let exporter = SpanExporter::builder().with_http().build()?;
    let endpoint = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
        .unwrap_or_else(|_| "http://localhost:4318".to_owned());
    let provider = SdkTracerProvider::builder()
        .with_resource(Resource::builder().with_service_name("otel-export").build())
        .with_batch_exporter(exporter)
        .build();
    tracing_subscriber::registry()
        .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("otel-export")))
        .init();

    // The trace context travels in `_meta` on 2026-07-28; pinned here so that it always does.
    let session = McpSession::builder(toolport_testkit::task_tracker_connector())
        .protocol_version(ProtocolVersion::V_2026_07_28)
        .trace_propagator(OpenTelemetryPropagator)
        .build();
    let turn = tracing::info_span!("agent.turn", otel.name = "agent turn");
    let (tools, result) = async {
        let tools = session.list_tools().await?;
        let call = CallToolRequestParams::new("list_tasks");
        let result = session.call_tool(call, CallOptions::default()).await?;
        Ok::<_, toolport::SessionError>((tools, result))
    }
    .instrument(turn)
    .await?;
    session.close().await;

    println!(
        "listed {} tools; list_tasks answered with {} content block(s)",
        tools.len(),
        result.content.len()
    );
    // Sends the spans still batched, and waits for the export.
    provider.shutdown()?;
    println!("sent the spans to the OTLP collector at {endpoint}");
    Ok(())
}
