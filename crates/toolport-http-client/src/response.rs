//! Reading a response's head: the `WWW-Authenticate` challenge, the media type, and the error
//! a refusal becomes.

use http::header::{CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{HeaderMap, Response, StatusCode};
use hyper::body::Incoming;

use crate::HttpError;
use crate::body::read_prefix;

/// How much of an error response's body is quoted.
const ERROR_BODY_BYTES: usize = 1024;

/// The `WWW-Authenticate` challenge of a response, if readable.
pub fn challenge(headers: &HeaderMap) -> Option<String> {
    headers
        .get(WWW_AUTHENTICATE)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
}

/// Whether the `Content-Type` essence is `expected` (case-insensitive, parameters ignored).
pub fn is_media_type(headers: &HeaderMap, expected: &str) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case(expected))
}

/// The `Content-Type` as sent, for an error message.
pub fn content_type(headers: &HeaderMap) -> Option<String> {
    headers
        .get(CONTENT_TYPE)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
}

/// The error a non-2xx answer becomes: 401 and 403 are [`HttpError::Unauthorized`] with the
/// server's challenge; any other status quotes the start of the body.
pub async fn refusal(response: Response<Incoming>) -> HttpError {
    let status = response.status();
    if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
        return HttpError::unauthorized(status.as_u16(), challenge(response.headers()));
    }
    let body = read_prefix(response.into_body(), ERROR_BODY_BYTES).await;
    HttpError::Status {
        status: status.as_u16(),
        body: body.trim().to_owned(),
    }
}
