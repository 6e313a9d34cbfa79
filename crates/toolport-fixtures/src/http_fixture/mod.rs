//! Fixture MCP servers over HTTP on `127.0.0.1`, for tests of HTTP transports:
//! [`HttpFixtureServer`] (Streamable HTTP) and [`LegacySseFixtureServer`] (HTTP+SSE), both with
//! a request log, an optional bearer token, and stop and restart on the same port.

mod body;
mod gate;
mod host;
mod legacy_sse;
mod request_log;
mod streamable;

pub use gate::BEARER_CHALLENGE;
pub use legacy_sse::LegacySseFixtureServer;
pub use request_log::RecordedRequest;
pub use streamable::HttpFixtureServer;
