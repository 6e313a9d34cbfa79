//! [`TracePropagator`]: how a request carries its trace to the server. The 2026-07-28 protocol
//! reserves the `_meta` keys `traceparent`, `tracestate` and `baggage` for OpenTelemetry's
//! trace context (W3C Trace Context and Baggage); a session with a propagator asks it, for each
//! request on such a connection, for the context of the request's span.

use std::fmt;

use tracing::Span;

/// Writes the trace context of a request's span into the request's `_meta`.
///
/// The session calls [`inject`](Self::inject) once per request sent on a 2026-07-28
/// connection, with the request's `mcp.request` span, so that the server's span becomes a
/// child of the client's. Earlier versions reserve no such keys, and get none.
/// `OpenTelemetryPropagator` (feature `otel`) is the one for
/// spans exported with `tracing-opentelemetry`.
///
/// # Examples
///
/// ```
/// use toolport_session::TracePropagator;
///
/// /// Sends one fixed context, as a test might.
/// #[derive(Debug)]
/// struct Fixed;
///
/// impl TracePropagator for Fixed {
///     fn inject(&self, _span: &tracing::Span, set: &mut dyn FnMut(&str, String)) {
///         set(
///             "traceparent",
///             "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01".to_owned(),
///         );
///     }
/// }
/// ```
pub trait TracePropagator: Send + Sync + fmt::Debug {
    /// Calls `set` with each field of `span`'s trace context (`traceparent`, and `tracestate`
    /// or `baggage` when there are any), in their W3C formats. Sets nothing for a span that
    /// belongs to no trace.
    fn inject(&self, span: &Span, set: &mut dyn FnMut(&str, String));
}
