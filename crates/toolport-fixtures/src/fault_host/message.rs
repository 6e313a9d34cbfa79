//! [`read_message`]: the JSON-RPC message a `POST` carries, read the same way by both
//! transports.

use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use serde_json::Value;

use super::body::{HostBody, text};

/// The largest `POST` body read.
const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// The JSON-RPC message a `POST` carries, or the `400` that refuses it.
pub(super) async fn read_message(request: Request<Incoming>) -> Result<Value, Response<HostBody>> {
    let Ok(body) = Limited::new(request.into_body(), MAX_MESSAGE_BYTES)
        .collect()
        .await
    else {
        return Err(text(StatusCode::BAD_REQUEST, "could not read the body"));
    };
    serde_json::from_slice(&body.to_bytes())
        .map_err(|_| text(StatusCode::BAD_REQUEST, "the body is not JSON"))
}
