//! MCP servers over the legacy HTTP+SSE transport (MCP 2024-11-05) for Toolport, on the pooled
//! hyper client of `toolport-http-client`.
//!
//! [`SseServer`] holds the event stream's URL, headers and credentials, and implements
//! [`toolport_core::Connector`]: each connect opens the event stream (`GET`, `text/event-stream`),
//! waits for the `endpoint` event, refuses an endpoint on another origin, and returns a
//! transport (rmcp's `Transport<RoleClient>`) that posts each message to the endpoint and reads
//! the server's messages from the stream. A dropped stream is reopened a bounded number of
//! times, with `Last-Event-ID`; [`SseDiagnostics`] says why a connection ended, and
//! [`SseError`] is what fails in its source chain.
//!
//! Headers are assembled per request from `toolport-http-client`'s
//! [`HttpOptions`](toolport_http_client::HttpOptions): static headers, a rotating credential and
//! a header provider that sees the caller's context. HTTP 401 and 403 put
//! [`AuthorizationRequired`](toolport_core::AuthorizationRequired) in the error's source chain.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod connector;
mod diagnostics;
mod error;
mod open;
mod post;
mod reader;
mod remote;
mod server;
mod transport;
mod url;

pub use diagnostics::SseDiagnostics;
pub use error::SseError;
pub use server::SseServer;
/// The builder methods of a server's header, credential, limit and network settings.
pub use toolport_http_client::WithHttpOptions;
