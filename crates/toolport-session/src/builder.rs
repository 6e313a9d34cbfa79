//! [`SessionBuilder`]: the settings of an [`McpSession`](crate::McpSession).

use std::sync::Arc;

use rmcp::model::{Implementation, ProtocolVersion};
use toolport_core::{Connector, DEFAULT_PROTOCOL_VERSION, Timeouts};

use crate::{ElicitationHandler, McpSession, RetryPolicy};

/// Builds an [`McpSession`]. Nothing connects until the session is first used (or
/// [`connect`](McpSession::connect) is called).
#[derive(Debug)]
#[must_use]
pub struct SessionBuilder {
    pub(crate) connector: Arc<dyn Connector>,
    pub(crate) timeouts: Timeouts,
    pub(crate) retry: RetryPolicy,
    pub(crate) client: Implementation,
    pub(crate) protocol_version: ProtocolVersion,
    pub(crate) elicitation: Option<Arc<dyn ElicitationHandler>>,
}

impl SessionBuilder {
    pub(crate) fn new(connector: Arc<dyn Connector>) -> Self {
        Self {
            connector,
            timeouts: Timeouts::default(),
            retry: RetryPolicy::default(),
            client: Implementation::new("toolport", env!("CARGO_PKG_VERSION")),
            protocol_version: DEFAULT_PROTOCOL_VERSION,
            elicitation: None,
        }
    }

    /// Bounds for connecting, initializing and each request. See [`Timeouts`] for the defaults.
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
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

    /// The protocol version the session speaks. Default `2025-11-25`, asked for in
    /// `initialize`; `2026-07-28` starts the session with `server/discover` instead and names
    /// the version in every request's `_meta` (and, over Streamable HTTP, in the standard
    /// `Mcp-Method` and `Mcp-Name` headers). A server that does not speak it fails the connect.
    pub fn protocol_version(mut self, version: ProtocolVersion) -> Self {
        self.protocol_version = version;
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

    /// The session. It connects on first use.
    pub fn build(self) -> McpSession {
        McpSession::from_builder(self)
    }
}
