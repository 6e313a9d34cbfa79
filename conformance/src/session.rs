//! The session a scenario runs on: Streamable HTTP at the suite's URL, on the protocol version
//! the suite names, with short bounds, and authorized when the scenario is an `auth/*` one.

use std::sync::Arc;
use std::time::Duration;

use toolport::http::{HttpServer, WithHttpOptions};
use toolport::model::ProtocolVersion;
use toolport::{Authorizer, McpSession, RetryPolicy, SessionBuilder, Timeouts};

/// The env var in which the suite (0.2 on) names the protocol version its server speaks.
const VERSION_VAR: &str = "MCP_CONFORMANCE_PROTOCOL_VERSION";

/// Bounds short enough that connect, `initialize` and two requests fit in the client's
/// deadline, with room to spare.
fn timeouts() -> Timeouts {
    Timeouts::default()
        .with_connect(Duration::from_secs(3))
        .with_initialize(Duration::from_secs(5))
        .with_request(Duration::from_secs(5))
}

/// The version the suite names, or the session's default (2025-11-25) when it names none or
/// one this client does not know.
fn protocol_version() -> ProtocolVersion {
    match std::env::var(VERSION_VAR).as_deref() {
        Ok("2026-07-28") => ProtocolVersion::V_2026_07_28,
        _ => ProtocolVersion::V_2025_11_25,
    }
}

/// A session builder for the server at `url`, as this client announces itself, authorized by
/// `authorizer` when there is one.
///
/// Discovery is not retried: a scenario server answers the first time or the scenario has
/// failed, and a retry would only blur what the suite recorded.
pub(crate) fn builder(url: &str, authorizer: Option<Arc<dyn Authorizer>>) -> SessionBuilder {
    let server = HttpServer::new(url);
    let server = match authorizer {
        Some(authorizer) => server.authorizer(authorizer),
        None => server,
    };
    McpSession::builder(server)
        .timeouts(timeouts())
        .retry_policy(RetryPolicy::NONE)
        .protocol_version(protocol_version())
        .client_info("toolport-conformance-client", env!("CARGO_PKG_VERSION"))
}
