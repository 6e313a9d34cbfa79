//! [`SessionBuilder`]: the settings of an [`McpSession`](crate::McpSession).

use std::num::NonZeroUsize;
use std::sync::Arc;

use rmcp::model::{Implementation, ProtocolVersion};
use toolport_core::{Connector, ProtocolChoice, Timeouts};

use crate::session::DEFAULT_MAX_INPUT_ROUNDS;
use crate::{
    ElicitationHandler, McpSession, ResourceUpdateCallback, RetryPolicy, TaskPolicy,
    TracePropagator,
};

/// Builds an [`McpSession`]. Nothing connects until the session is first used (or
/// [`connect`](McpSession::connect) is called).
#[derive(Debug)]
#[must_use]
pub struct SessionBuilder {
    pub(crate) connector: Arc<dyn Connector>,
    pub(crate) timeouts: Timeouts,
    pub(crate) max_concurrent_calls: Option<NonZeroUsize>,
    pub(crate) retry: RetryPolicy,
    pub(crate) client: Implementation,
    pub(crate) protocol: ProtocolChoice,
    pub(crate) elicitation: Option<Arc<dyn ElicitationHandler>>,
    pub(crate) on_resource_updated: Option<ResourceUpdateCallback>,
    pub(crate) max_input_rounds: usize,
    pub(crate) tasks: TaskPolicy,
    pub(crate) trace_propagator: Option<Arc<dyn TracePropagator>>,
}

impl SessionBuilder {
    pub(crate) fn new(connector: Arc<dyn Connector>) -> Self {
        Self {
            connector,
            timeouts: Timeouts::default(),
            max_concurrent_calls: None,
            retry: RetryPolicy::default(),
            client: Implementation::new("toolport", env!("CARGO_PKG_VERSION")),
            protocol: ProtocolChoice::default(),
            elicitation: None,
            on_resource_updated: None,
            max_input_rounds: DEFAULT_MAX_INPUT_ROUNDS,
            tasks: TaskPolicy::default(),
            trace_propagator: None,
        }
    }

    /// Bounds for connecting, initializing and each request. See [`Timeouts`] for the defaults.
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    /// At most `limit` tool calls in flight at once; a call past it waits for one of them to
    /// end, in the order the calls came, and never reaches the server while it waits. The wait
    /// counts against the call's bound (the request timeout, or the call's own
    /// [`CallOptions::timeout`](crate::CallOptions::timeout)): a call whose bound runs out
    /// while it waits fails with [`SessionError::QueueTimeout`](crate::SessionError::QueueTimeout),
    /// and one that gets a slot has what is left of its bound for its answer. Other requests
    /// (listings, pings) do not count. Default: no limit.
    pub fn max_concurrent_calls(mut self, limit: NonZeroUsize) -> Self {
        self.max_concurrent_calls = Some(limit);
        self
    }

    /// How discovery requests are retried. Default: 3 retries, 100 ms apart.
    pub fn retry_policy(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// The name and version this client announces in `initialize`. Default `toolport` and the
    /// crate's version.
    pub fn client_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.client = Implementation::new(name, version);
        self
    }

    /// Pins the protocol version the session speaks, instead of negotiating (the default):
    /// `2025-11-25`, asked for in `initialize`; or `2026-07-28`, which starts the session with
    /// `server/discover` instead
    /// and names the version in every request's `_meta` (and, over Streamable HTTP, in the
    /// standard `Mcp-Method` and `Mcp-Name` headers). A server that does not speak it fails the
    /// connect. The same as [`protocol`](Self::protocol) with [`ProtocolChoice::Pinned`].
    pub fn protocol_version(self, version: ProtocolVersion) -> Self {
        self.protocol(ProtocolChoice::Pinned(version))
    }

    /// How the session settles on a protocol version: [`ProtocolChoice::Negotiate`] (the
    /// default), which prefers 2026-07-28 and falls back to 2025-11-25 on the same connection,
    /// or pinned. [`McpSession::protocol_version`] says which one a connection got.
    pub fn protocol(mut self, choice: impl Into<ProtocolChoice>) -> Self {
        self.protocol = choice.into();
        self
    }

    /// Sends each request's trace context in its `_meta` on 2026-07-28 connections, as
    /// `propagator` writes it: [`OpenTelemetryPropagator`](crate::OpenTelemetryPropagator)
    /// (feature `otel`) for spans exported with `tracing-opentelemetry`. Default: none.
    pub fn trace_propagator(mut self, propagator: impl TracePropagator + 'static) -> Self {
        self.trace_propagator = Some(Arc::new(propagator));
        self
    }

    /// Answers the server's elicitations with `handler`, and advertises the `elicitation`
    /// capability (form and URL modes). Without a handler the capability is not advertised.
    ///
    /// With the `jsonschema` feature (on by default), a form answer that breaks the requested
    /// schema is declined rather than sent; without it, answers are sent as the handler gave
    /// them.
    pub fn elicitation_handler(mut self, handler: impl ElicitationHandler + 'static) -> Self {
        self.elicitation = Some(Arc::new(handler));
        self
    }

    /// How many times a request is sent in all when the server keeps answering it with
    /// `input_required` (2026-07-28's multi round-trip requests), each time with the answers to
    /// its questions; after that the request fails with [`SessionError::UnexpectedResponse`].
    /// The same bound holds for the rounds of questions a tool call run as a task asks (on
    /// either version); past it the task is cancelled. Default 10. A bound below 1 counts as 1.
    ///
    /// [`SessionError::UnexpectedResponse`]: crate::SessionError::UnexpectedResponse
    pub fn max_input_rounds(mut self, rounds: usize) -> Self {
        self.max_input_rounds = rounds.max(1);
        self
    }

    /// Whether the session lets servers run its tool calls as tasks (2026-07-28's tasks
    /// extension), and how long it follows one. See [`TaskPolicy`] for the defaults.
    pub fn tasks(mut self, policy: TaskPolicy) -> Self {
        self.tasks = policy;
        self
    }

    /// Runs `callback` with the URI of each resource the server says changed, for the
    /// resources subscribed to with [`McpSession::subscribe_resource`]. It runs on the
    /// session's notification task, so it should return quickly. The session's
    /// [`events`](McpSession::events) carry the same updates, but may drop some for a slow
    /// reader; the callback sees each one.
    pub fn on_resource_updated(mut self, callback: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.on_resource_updated = Some(ResourceUpdateCallback::new(callback));
        self
    }

    /// The session. It connects on first use.
    pub fn build(self) -> McpSession {
        McpSession::from_builder(self)
    }
}
