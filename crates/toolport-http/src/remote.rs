//! [`Remote`]: the server one transport talks to, and how each request to it is built.

use std::sync::Arc;

use bytes::Bytes;
use http::{HeaderName, HeaderValue, Method, Request, Response, Uri};
use http_body_util::Full;
use hyper::body::Incoming;
use toolport_core::ReadonlyContext;
use toolport_http_client::{HttpClient, HttpError, RequestHeaders};

use crate::HttpDiagnostics;
use crate::session_headers::SessionHeaders;

pub(crate) const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
pub(crate) const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");

/// One server's URL and the settings every request to it carries. Shared by the transport's
/// sends and its stream readers.
pub(crate) struct Remote {
    pub(crate) http: HttpClient,
    pub(crate) uri: Uri,
    pub(crate) headers: RequestHeaders,
    /// Whether closing the transport ends the session on the server with `DELETE`.
    pub(crate) terminate_on_close: bool,
    /// Whether the session opens the listening stream after the handshake.
    pub(crate) listening_stream: bool,
    /// The largest JSON answer, and the largest event, accepted.
    pub(crate) limit: usize,
    pub(crate) diagnostics: Arc<HttpDiagnostics>,
    /// The session id and protocol version the server gave us.
    pub(crate) session: SessionHeaders,
}

impl Remote {
    /// A request to the server with its headers: ours (static, credential, provider) first,
    /// then the session's, which cannot be overridden.
    pub(crate) async fn request(
        &self,
        method: Method,
        body: Bytes,
        context: Option<&ReadonlyContext>,
        version: Option<HeaderValue>,
    ) -> Result<Request<Full<Bytes>>, HttpError> {
        let mut request = Request::new(Full::new(body));
        *request.method_mut() = method.clone();
        *request.uri_mut() = self.uri.clone();
        let headers = request.headers_mut();
        headers.reserve(8);
        self.headers
            .apply(context, &method, &self.uri, headers)
            .await?;
        let (session_id, negotiated) = self.session.get();
        if let Some(id) = session_id {
            headers.insert(SESSION_ID, id);
        }
        if let Some(version) = version.or(negotiated) {
            headers.insert(PROTOCOL_VERSION, version);
        }
        Ok(request)
    }

    /// Sends `request`, once more if the authorizer renews refused credentials; a failure to
    /// connect or exchange is recorded for diagnostics.
    pub(crate) async fn send(
        &self,
        request: Request<Full<Bytes>>,
    ) -> Result<Response<Incoming>, HttpError> {
        self.headers
            .send(&self.http, request)
            .await
            .inspect_err(|error| {
                self.diagnostics.record(error.to_string());
            })
    }
}
