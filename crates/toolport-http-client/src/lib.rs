//! The HTTP glue Toolport's HTTP transports share (as hyper-util is for hyper): a pooled hyper
//! client, the header, credential and limit settings, per-request headers, the HTTP error, body
//! and URL helpers, and one server-sent-events parser.
//!
//! `toolport-http` (Streamable HTTP) and `toolport-sse` (legacy HTTP+SSE) are built on it, and so
//! can a transport of your own:
//!
//! - [`HttpOptions`] holds the settings, set through [`WithHttpOptions`] (whose builder methods
//!   a server type of your own gets by implementing one method), and [`RequestHeaders`] turns them into a `HeaderMap` per request: static
//!   headers, a rotating credential from a [`TokenSource`], and a [`HeaderProvider`] that sees
//!   the caller's [`ReadonlyContext`](toolport_core::ReadonlyContext). An [`Authorizer`] (such
//!   as `toolport-auth`'s OAuth client) authorizes each request and renews refused
//!   credentials; [`RequestHeaders::send`] gives a refused request its one more try.
//! - [`HttpClient`] (made once per server by [`LazyHttpClient`]) pools keep-alive connections
//!   with `TCP_NODELAY`, bounds each connect, follows the [`NetworkOptions`] (a proxy from
//!   `HTTPS_PROXY`/`HTTP_PROXY`/`ALL_PROXY` and `NO_PROXY` or set explicitly, roots added to the
//!   system's, a client certificate), and speaks `https` with rustls when the `tls` feature (on
//!   by default) is; `webpki-roots` adds Mozilla's roots for images with no system bundle.
//! - [`toolkit`] holds the functions the transports share: bodies read within a limit, what a
//!   refusal says, URLs shown without their secrets.
//! - [`HttpError`] keeps its cause as its source, and puts
//!   [`AuthorizationRequired`](toolport_core::AuthorizationRequired) (401, 403) and
//!   [`NotDelivered`](toolport_core::NotDelivered) (a connect that never happened) in the chain.
//! - [`sse`] parses event streams with every event bounded in size.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod authorizer;
mod body;
mod caller;
mod client;
mod connect;
mod credential;
mod error;
mod header_provider;
mod lazy_client;
mod network;
mod options;
mod proxy;
mod request_headers;
mod response;
mod route;
pub mod sse;
#[cfg(feature = "tls")]
mod tls;
#[cfg(feature = "tls")]
mod tls_refused;
mod token;
mod url;
mod with_http_options;

pub use authorizer::{Authorizer, Refusal, RequestTarget};
pub use client::HttpClient;
pub use credential::Credential;
pub use error::HttpError;
pub use header_provider::{Header, HeaderProvider};
pub use lazy_client::LazyHttpClient;
pub use network::{ClientIdentity, NetworkOptions};
pub use options::HttpOptions;
pub use proxy::Proxy;
pub use request_headers::RequestHeaders;
pub use token::{RotatingToken, TokenSource};
/// The proxy URLs and credentials the settings keep out of logs, errors and `Debug` output.
pub use toolport_core::Secret;
pub use with_http_options::WithHttpOptions;

/// The functions Toolport's HTTP transports (and its OAuth client) share, for a transport of
/// your own: reading a body within a limit, reading what a refusal says, and showing a URL
/// without its secrets.
pub mod toolkit {
    pub use crate::body::{read_limited, read_prefix};
    pub use crate::caller::caller_context;
    pub use crate::response::{challenge, content_type, is_media_type, refusal};
    pub use crate::url::{describe_raw_url, parse_server_url, redacted_url, redacted_url_text};
}
