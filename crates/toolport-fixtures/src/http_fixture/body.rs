//! The response body every fixture route answers with, and a helper for short text answers.

use std::convert::Infallible;

use http::{Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;

/// Any response body a fixture sends: a short text, an SSE stream or rmcp's own bodies.
pub(crate) type FixtureBody = BoxBody<Bytes, Infallible>;

/// A `text/plain` response with the given status.
pub(crate) fn text_response(status: StatusCode, text: impl Into<Bytes>) -> Response<FixtureBody> {
    let mut response = Response::new(Full::new(text.into()).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}
