//! [`OpenTelemetryPropagator`] (feature `otel`): the trace context of spans exported with
//! `tracing-opentelemetry`, for the `_meta` of 2026-07-28 requests.

use opentelemetry::trace::TraceContextExt as _;
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

use crate::TracePropagator;

/// Sends each request's OpenTelemetry span context as W3C Trace Context: `traceparent`
/// (version `00`, the trace id, the request span's id, the sampled flag) and, when the trace
/// has one, `tracestate`. It reads the context `tracing-opentelemetry`'s layer keeps for the
/// span, so it sends nothing unless that layer is installed.
///
/// # Examples
///
/// ```
/// use toolport_session::{McpSession, OpenTelemetryPropagator};
/// use toolport_testkit::task_tracker_connector;
///
/// let session = McpSession::builder(task_tracker_connector())
///     .trace_propagator(OpenTelemetryPropagator)
///     .build();
/// # drop(session);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenTelemetryPropagator;

impl TracePropagator for OpenTelemetryPropagator {
    fn inject(&self, span: &Span, set: &mut dyn FnMut(&str, String)) {
        let context = span.context();
        let span = context.span();
        let span_context = span.span_context();
        if !span_context.is_valid() {
            return;
        }
        set(
            "traceparent",
            format!(
                "00-{}-{}-{:02x}",
                span_context.trace_id(),
                span_context.span_id(),
                span_context.trace_flags().to_u8()
            ),
        );
        let state = span_context.trace_state().header();
        if !state.is_empty() {
            set("tracestate", state);
        }
    }
}
