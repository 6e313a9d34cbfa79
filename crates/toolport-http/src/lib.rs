//! MCP servers over Streamable HTTP (spec 2025-11-25) for Toolport, on a lean, pooled hyper client.
//!
//! [`HttpServer`] holds a server's URL, headers and credentials, and implements
//! [`toolport_core::Connector`]: each connect hands rmcp's Streamable HTTP worker (session id,
//! `404` → re-initialize, SSE resumption with `Last-Event-ID`) a client built on hyper instead
//! of reqwest. One pooled client per `HttpServer` is reused across connects and calls, with
//! `TCP_NODELAY`, a connect timeout and rustls for `https`.
//!
//! Headers are assembled per request: static headers, a rotating credential ([`TokenSource`])
//! and a [`HeaderProvider`] that sees the caller's [`ReadonlyContext`]. HTTP 401 and 403 put
//! [`AuthorizationRequired`] in the error's source chain.
//!
//! For transport authors (the legacy SSE transport, say), the pieces are public: [`HttpOptions`]
//! (the shared builder settings), [`RequestHeaders`] (settings → a `HeaderMap` per request) and
//! [`HttpClient`] (the pooled client with a byte-limited body reader).
//!
//! [`TokenSource`]: toolport_core::TokenSource
//! [`HeaderProvider`]: toolport_core::HeaderProvider
//! [`ReadonlyContext`]: toolport_core::ReadonlyContext
//! [`AuthorizationRequired`]: toolport_core::AuthorizationRequired
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]

mod body;
mod client;
mod connect;
mod connector;
mod credential;
mod diagnostics;
mod error;
mod headers;
mod lazy_client;
mod options;
mod server;
mod sse;
mod streamable;
mod target;

pub use body::read_limited;
pub use client::HttpClient;
pub use diagnostics::HttpDiagnostics;
pub use error::{HttpError, error_chain};
pub use headers::RequestHeaders;
pub use lazy_client::LazyHttpClient;
pub use options::HttpOptions;
pub use server::HttpServer;
pub use target::{parse_server_url, redacted_raw_url, redacted_url};
