//! [`Remote`]: what every exchange with one server shares (the pooled client, the headers, the
//! event stream's URL, the limits), and how a refusal is read.

use std::sync::Arc;
use std::time::Duration;

use http::header::WWW_AUTHENTICATE;
use http::{Response, StatusCode, Uri};
use http_body_util::BodyExt as _;
use hyper::body::Incoming;
use toolport_http::{HttpClient, HttpError, RequestHeaders};
use url::Url;

use crate::SseDiagnostics;

/// How much of an error response's body is quoted.
const ERROR_BODY_BYTES: usize = 1024;

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
    pub(crate) connect_timeout: Duration,
    /// The server as `target()` names it, for logs.
    pub(crate) target: Arc<str>,
    pub(crate) diagnostics: Arc<SseDiagnostics>,
}

/// The error for a non-2xx answer: 401 and 403 are [`HttpError::Unauthorized`] with the
/// server's challenge; others quote the start of the body.
pub(crate) async fn refusal(response: Response<Incoming>) -> HttpError {
    let status = response.status();
    if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
        let challenge = response
            .headers()
            .get(WWW_AUTHENTICATE)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        return HttpError::unauthorized(status.as_u16(), challenge);
    }
    HttpError::Status {
        status: status.as_u16(),
        body: body_prefix(response.into_body()).await,
    }
}

/// At most [`ERROR_BODY_BYTES`] of a body, lossily as text.
async fn body_prefix(mut body: Incoming) -> String {
    let mut text = Vec::new();
    while text.len() < ERROR_BODY_BYTES {
        let Some(Ok(frame)) = body.frame().await else {
            break;
        };
        if let Ok(data) = frame.into_data() {
            let take = data.len().min(ERROR_BODY_BYTES - text.len());
            text.extend_from_slice(&data[..take]);
        }
    }
    String::from_utf8_lossy(&text).trim().to_owned()
}
