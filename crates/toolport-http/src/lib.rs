//! MCP servers over Streamable HTTP (specs 2025-11-25 and 2026-07-28) for Toolport, on the lean,
//! pooled hyper client of `toolport-http-client`.
//!
//! [`HttpServer`] holds a server's URL, headers and credentials, and implements
//! [`toolport_core::Connector`]: each connect makes a transport of this crate's own, an rmcp
//! `Transport` that posts each message and reads its answer, a JSON body or an event stream
//! (resumed with `Last-Event-ID` when it breaks). It keeps the session id, opens the listening
//! `GET` stream, and ends the session on a `404` so that the session above initializes a new
//! one. Idle, a session costs a small queue and the listening stream's task, no worker. One
//! pooled client per `HttpServer` is reused across connects and calls, with `TCP_NODELAY`, the
//! session's connect timeout and rustls for `https`.
//!
//! Headers are assembled per request from `toolport-http-client`'s
//! [`HttpOptions`](toolport_http_client::HttpOptions): static headers, a rotating credential and
//! a header provider that sees the caller's context. HTTP 401 and 403 put
//! [`AuthorizationRequired`](toolport_core::AuthorizationRequired) in the error's source chain.
//! [`HttpDiagnostics`] says why a connection failed.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod addressing;
mod connector;
mod diagnostics;
mod error;
mod error_answer;
mod header_value;
mod in_flight;
mod link;
mod post;
mod remote;
mod server;
mod session_headers;
mod standard_headers;
mod stream;
mod tool_headers;
mod transport;

pub use diagnostics::HttpDiagnostics;
pub use server::HttpServer;
/// The builder methods of a server's header, credential, limit and network settings.
pub use toolport_http_client::WithHttpOptions;
