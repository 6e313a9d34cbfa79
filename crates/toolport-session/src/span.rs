//! The `tracing` span of each request, named and with fields after OpenTelemetry's semantic
//! conventions for MCP and for GenAI tool calls, so that `tracing-opentelemetry` exports it as
//! a client span: `otel.name` is `{mcp.method.name} {target}` (the tool, prompt or resource).

use rmcp::model::RequestId;
use tracing::Span;
use tracing::field::{Empty, display};

use crate::SessionError;
use crate::session::Method;

/// The span of one request of `method`, to `server` (a target shown without secrets), on a
/// connection that speaks `protocol` (`None` before the version is known).
pub(crate) fn request_span(server: &str, method: Method<'_>, protocol: Option<&str>) -> Span {
    let span = tracing::info_span!(
        "mcp.request",
        otel.name = %method,
        otel.kind = "client",
        otel.status_code = Empty,
        mcp.method.name = method.name(),
        mcp.protocol.version = protocol,
        jsonrpc.request.id = Empty,
        gen_ai.operation.name = Empty,
        gen_ai.tool.name = Empty,
        gen_ai.prompt.name = Empty,
        mcp.resource.uri = Empty,
        toolport.server = server,
        error.type = Empty,
        rpc.response.status_code = Empty,
    );
    if span.is_disabled() {
        return span;
    }
    match method {
        Method::ToolCall(tool) | Method::Task { tool, .. } => {
            span.record("gen_ai.operation.name", "execute_tool");
            span.record("gen_ai.tool.name", tool);
        }
        Method::Prompt(prompt) => {
            span.record("gen_ai.prompt.name", prompt);
        }
        Method::Resource(uri) => {
            span.record("mcp.resource.uri", uri);
        }
        Method::Named(_) => {}
    }
    span
}

/// Records the JSON-RPC id the request was sent with on the current span (the request's, when
/// it runs inside one).
pub(crate) fn record_request_id(id: &RequestId) {
    Span::current().record("jsonrpc.request.id", display(id));
}

/// Records a failed request's outcome on `span`: `error.type` (a [`SessionError::kind`]), and
/// the JSON-RPC error code when the server answered with one.
pub(crate) fn record_failure(span: &Span, error: &SessionError) {
    if span.is_disabled() {
        return;
    }
    span.record("otel.status_code", "ERROR");
    span.record("error.type", error.kind());
    if let SessionError::Rpc { error, .. } = error {
        span.record("rpc.response.status_code", error.code.0);
    }
}
