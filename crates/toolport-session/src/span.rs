//! The `tracing` span of each request, named and with fields after OpenTelemetry's semantic
//! conventions for MCP and for GenAI tool calls, so that `tracing-opentelemetry` exports it as
//! a client span: `otel.name` is `{mcp.method.name} {target}` (the tool, prompt or resource).
//!
//! What a caller asks of the session (a tool call, a listing, a read) runs inside one span
//! from [`in_operation`]: the connect or reconnect it waits for, a retry, a replay and a
//! cancellation are events in it, as is a restart of the server that a supervisor made since
//! the last operation; the requests it sends of its own method (each page of
//! a listing, a replayed call) record their JSON-RPC id on it. A request of another method
//! made along the way (`tasks/get` while a call runs as a task) gets a span of its own, inside
//! the operation's; so does a request made outside any operation (`subscriptions/listen`).

use std::future::Future;

use rmcp::model::RequestId;
use tracing::field::{Empty, display};
use tracing::{Instrument as _, Span};

use crate::SessionError;
use crate::method::Method;
use crate::restart_notice::RestartNotice;

tokio::task_local! {
    /// The operation the running task is in, if any.
    static OPERATION: Operation;
}

/// An operation's method and span, for its requests to find.
struct Operation {
    method: &'static str,
    span: Span,
}

/// Runs `operation`, one thing a caller asked of the session (a request of `method` to
/// `server`, with whatever connecting, retrying or following it takes), inside its span, and
/// records its failure there. The span begins with the `restarts` noted since the last
/// operation, if any.
///
/// Not an `async fn`: the operation (a listing with its retries, a call with its replay) is a
/// large future, boxed here before anything holds it, so that the future returned, and every
/// caller's future around it, holds a pointer to it instead of a copy, on the stack of a caller
/// that runs it in place.
pub(crate) fn in_operation<T>(
    server: &str,
    method: Method<'_>,
    restarts: Option<RestartNotice>,
    operation: impl Future<Output = Result<T, SessionError>>,
) -> impl Future<Output = Result<T, SessionError>> {
    let operation = Box::pin(operation);
    let span = new_span(server, method, None);
    if let Some(restarts) = restarts {
        span.in_scope(|| restarts.record());
    }
    let current = Operation {
        method: method.name(),
        span: span.clone(),
    };
    async move {
        let outcome = OPERATION
            .scope(current, operation)
            .instrument(span.clone())
            .await;
        if let Err(error) = &outcome {
            record_failure(&span, error);
        }
        outcome
    }
}

/// The span a request of `method` is sent in, and whether it is its own (`true`: the caller
/// records its failure) rather than its operation's. `protocol` and `session` are the
/// connection's version and session id, when it has them.
pub(crate) fn request_span(
    server: &str,
    method: Method<'_>,
    protocol: Option<&str>,
    session: Option<&str>,
) -> (Span, bool) {
    let operation = OPERATION
        .try_with(|operation| (operation.method == method.name()).then(|| operation.span.clone()))
        .ok()
        .flatten();
    let (span, own) = match operation {
        Some(span) => {
            if let Some(protocol) = protocol {
                span.record("mcp.protocol.version", protocol);
            }
            (span, false)
        }
        None => (new_span(server, method, protocol), true),
    };
    if let Some(session) = session {
        span.record("mcp.session.id", session);
    }
    (span, own)
}

/// A new `mcp.request` span of `method` to `server`, on a connection that speaks `protocol`
/// (`None` before the version is known).
fn new_span(server: &str, method: Method<'_>, protocol: Option<&str>) -> Span {
    let span = tracing::info_span!(
        "mcp.request",
        otel.name = %method,
        otel.kind = "client",
        otel.status_code = Empty,
        mcp.method.name = method.name(),
        mcp.protocol.version = protocol,
        mcp.session.id = Empty,
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
