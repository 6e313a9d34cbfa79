//! The session a scenario runs on: Streamable HTTP at the suite's URL, with short bounds.

use std::time::Duration;

use toolport::http::HttpServer;
use toolport::{McpSession, RetryPolicy, SessionBuilder, Timeouts};

/// Bounds short enough that connect, `initialize` and two requests fit in the client's
/// deadline, with room to spare.
fn timeouts() -> Timeouts {
    Timeouts::default()
        .with_connect(Duration::from_secs(3))
        .with_initialize(Duration::from_secs(5))
        .with_request(Duration::from_secs(5))
}

/// A session builder for the server at `url`, as this client announces itself.
///
/// Discovery is not retried: a scenario server answers the first time or the scenario has
/// failed, and a retry would only blur what the suite recorded.
pub(crate) fn builder(url: &str) -> SessionBuilder {
    McpSession::builder(HttpServer::new(url))
        .timeouts(timeouts())
        .retry_policy(RetryPolicy::NONE)
        .client_info("toolport-conformance-client", env!("CARGO_PKG_VERSION"))
}
