//! [`StreamableClient`]: rmcp's `StreamableHttpClient` on [`HttpClient`]: builds each request
//! (protocol headers, session id, the caller's headers) and maps the answer.

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::stream::BoxStream;
use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderName, HeaderValue, Method, Request, Response, StatusCode, Uri};
use http_body_util::Full;
use hyper::body::Incoming;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, InsufficientScopeError, StreamableHttpClient, StreamableHttpError,
    StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use sse_stream::{Error as SseError, Sse};
use toolport_core::ReadonlyContext;
use toolport_http_client::{
    HttpClient, HttpError, RequestHeaders, caller_context, challenge, content_type, is_media_type,
    refusal,
};

use crate::{HttpDiagnostics, events};

pub(crate) type Error = StreamableHttpError<HttpError>;

const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");
const ACCEPT_BOTH: HeaderValue = HeaderValue::from_static("application/json, text/event-stream");
const ACCEPT_SSE: HeaderValue = HeaderValue::from_static("text/event-stream");
const JSON: HeaderValue = HeaderValue::from_static("application/json");

/// rmcp's HTTP backend, on our pooled hyper client. Clones share everything.
#[derive(Clone)]
pub(crate) struct StreamableClient {
    shared: Arc<Shared>,
}

pub(crate) struct Shared {
    pub(crate) http: HttpClient,
    /// The server's URL, as handed to rmcp's config; rmcp passes this same `Arc` back.
    pub(crate) uri_text: Arc<str>,
    pub(crate) uri: Uri,
    pub(crate) headers: RequestHeaders,
    pub(crate) terminate_on_close: bool,
    pub(crate) diagnostics: Arc<HttpDiagnostics>,
}

impl StreamableClient {
    pub(crate) fn new(shared: Shared) -> Self {
        Self {
            shared: Arc::new(shared),
        }
    }

    pub(crate) fn diagnostics(&self) -> &Arc<HttpDiagnostics> {
        &self.shared.diagnostics
    }

    /// A request to the server with its headers assembled: ours first, then rmcp's protocol
    /// headers, then the ones this transport owns (they cannot be overridden).
    pub(crate) async fn request(
        &self,
        method: Method,
        uri: &Arc<str>,
        body: Bytes,
        context: Option<&ReadonlyContext>,
        custom: HashMap<HeaderName, HeaderValue>,
        session_id: Option<&str>,
    ) -> Result<Request<Full<Bytes>>, Error> {
        let mut request = Request::new(Full::new(body));
        *request.method_mut() = method;
        *request.uri_mut() = if Arc::ptr_eq(uri, &self.shared.uri_text) {
            self.shared.uri.clone()
        } else {
            uri.parse::<Uri>().map_err(|_| {
                StreamableHttpError::UnexpectedServerResponse("invalid request URI".into())
            })?
        };
        let headers = request.headers_mut();
        headers.reserve(8 + custom.len());
        self.shared
            .headers
            .apply(context, headers)
            .await
            .map_err(|error| self.fail(error))?;
        headers.extend(custom);
        if let Some(id) = session_id {
            let value = HeaderValue::from_str(id).map_err(|_| {
                StreamableHttpError::UnexpectedServerResponse("invalid session id".into())
            })?;
            headers.insert(SESSION_ID, value);
        }
        Ok(request)
    }

    /// Sends `request`; a failure to connect or exchange is recorded for diagnostics.
    pub(crate) async fn send(
        &self,
        request: Request<Full<Bytes>>,
    ) -> Result<Response<Incoming>, Error> {
        self.shared
            .http
            .send(request)
            .await
            .map_err(|error| self.fail(error))
    }

    /// Records `error` for diagnostics and wraps it for rmcp. A refusal and an undelivered
    /// request go through `std::io::Error`, the one variant of rmcp's error whose source chain
    /// reaches our error's source, so that `AuthorizationRequired::find` and
    /// `NotDelivered::find` see them above rmcp.
    pub(crate) fn fail(&self, error: HttpError) -> Error {
        self.shared.diagnostics.record(error.to_string());
        if matches!(error, HttpError::Unauthorized { .. }) || error.is_not_delivered() {
            return StreamableHttpError::Io(std::io::Error::other(error));
        }
        StreamableHttpError::Client(error)
    }

    pub(crate) fn succeeded(&self) {
        self.shared.diagnostics.clear();
    }
}

impl StreamableHttpClient for StreamableClient {
    type Error = HttpError;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Error> {
        let limits = StreamableHttpResponseLimits::default();
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, Error> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    /// `auth_header` is ignored: credentials come from this crate's settings, per request.
    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, Error> {
        let body = serde_json::to_vec(&message).map_err(|e| self.fail(HttpError::Encode(e)))?;
        let mut request = self
            .request(
                Method::POST,
                &uri,
                Bytes::from(body),
                caller_context(&message),
                custom_headers,
                session_id.as_deref(),
            )
            .await?;
        let headers = request.headers_mut();
        headers.insert(ACCEPT, ACCEPT_BOTH);
        headers.insert(CONTENT_TYPE, JSON);
        let response = self.send(request).await?;
        post::map_response(self, &message, session_id.is_some(), response, limits).await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Error> {
        if !self.shared.terminate_on_close {
            return Ok(());
        }
        let request = self
            .request(
                Method::DELETE,
                &uri,
                Bytes::new(),
                None,
                custom_headers,
                Some(&session_id),
            )
            .await?;
        let response = self.send(request).await?;
        let status = response.status();
        if status.is_success()
            || status == StatusCode::METHOD_NOT_ALLOWED
            || status == StatusCode::NOT_FOUND
        {
            return Ok(());
        }
        Err(self.fail(refusal(response).await))
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Error> {
        let limit = StreamableHttpResponseLimits::default().max_sse_event_size;
        self.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            limit,
        )
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        _auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Error> {
        let mut request = self
            .request(
                Method::GET,
                &uri,
                Bytes::new(),
                None,
                custom_headers,
                session_id.as_deref(),
            )
            .await?;
        let headers = request.headers_mut();
        headers.insert(ACCEPT, ACCEPT_SSE);
        if let Some(id) = last_event_id.and_then(|id| HeaderValue::try_from(id).ok()) {
            headers.insert(LAST_EVENT_ID, id);
        }
        let response = self.send(request).await?;
        let status = response.status();
        let challenge = || challenge(response.headers()).unwrap_or_default();
        match status {
            StatusCode::METHOD_NOT_ALLOWED => {
                return Err(StreamableHttpError::ServerDoesNotSupportSse);
            }
            // rmcp stops reconnecting on these two, which a wrapped refusal would not achieve.
            StatusCode::UNAUTHORIZED => {
                return Err(StreamableHttpError::AuthRequired(AuthRequiredError::new(
                    challenge(),
                )));
            }
            StatusCode::FORBIDDEN => {
                let error = InsufficientScopeError::new(challenge(), None);
                return Err(StreamableHttpError::InsufficientScope(error));
            }
            StatusCode::NOT_FOUND if session_id.is_some() => {
                return Err(StreamableHttpError::SessionExpired);
            }
            status if !status.is_success() => {
                return Err(self.fail(refusal(response).await));
            }
            _ => {}
        }
        if !is_media_type(response.headers(), "text/event-stream") {
            let found = content_type(response.headers());
            return Err(StreamableHttpError::UnexpectedContentType(found));
        }
        let body = response.into_body();
        Ok(events::events(
            body,
            max_sse_event_size,
            None,
            self.shared.diagnostics.clone(),
        ))
    }
}

mod answer;
mod post;
