//! [`Remote`]: what every exchange with one server shares (the pooled client, the headers, the
//! event stream's URL, the limits and the connect bound).

use std::sync::Arc;
use std::time::Duration;

use http::Uri;
use toolport_http_client::{HttpClient, RequestHeaders};
use url::Url;

use crate::SseDiagnostics;

/// The pieces of one connection to a server, shared by its reader task and its posts.
#[derive(Debug)]
pub(crate) struct Remote {
    pub(crate) http: HttpClient,
    pub(crate) headers: RequestHeaders,
    /// The event stream's URL, for resolving endpoints.
    pub(crate) url: Url,
    /// The same URL, for requests.
    pub(crate) uri: Uri,
    /// The largest event accepted, in bytes.
    pub(crate) limit: usize,
    /// The session's connect bound: opening the stream, each reconnect, a post waiting for one.
    pub(crate) connect_timeout: Duration,
    /// The server as `target()` names it, for logs.
    pub(crate) target: Arc<str>,
    pub(crate) diagnostics: Arc<SseDiagnostics>,
}
