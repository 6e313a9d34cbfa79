//! MCP servers over Streamable HTTP (spec 2025-11-25) for Toolport, on the lean, pooled hyper
//! client of `toolport-http-client`.
//!
//! [`HttpServer`] holds a server's URL, headers and credentials, and implements
//! [`toolport_core::Connector`]: each connect hands rmcp's Streamable HTTP worker (session id,
//! `404` → re-initialize, SSE resumption with `Last-Event-ID`) a client built on hyper instead
//! of reqwest. One pooled client per `HttpServer` is reused across connects and calls, with
//! `TCP_NODELAY`, the session's connect timeout and rustls for `https`.
//!
//! Headers are assembled per request from `toolport-http-client`'s
//! [`HttpOptions`](toolport_http_client::HttpOptions): static headers, a rotating credential and
//! a header provider that sees the caller's context. HTTP 401 and 403 put
//! [`AuthorizationRequired`](toolport_core::AuthorizationRequired) in the error's source chain.
//! [`HttpDiagnostics`] says why a connection failed.
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]

mod connector;
mod diagnostics;
mod events;
mod server;
mod streamable;

pub use diagnostics::HttpDiagnostics;
pub use server::HttpServer;
