//! Posting one JSON-RPC message to the endpoint, with the headers of the caller it is sent for.

use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::{HeaderValue, Method, Request, StatusCode, Uri};
use http_body_util::Full;
use rmcp::model::ClientJsonRpcMessage;
use toolport_core::NotDelivered;
use toolport_http_client::HttpError;
use toolport_http_client::toolkit::{caller_context, read_limited, refusal};

use crate::SseError;
use crate::remote::Remote;

const JSON: HeaderValue = HeaderValue::from_static("application/json");
/// How much of a successful answer's body is read (and ignored), so that the connection goes
/// back to the pool. The answer itself comes on the event stream.
const DRAIN_BYTES: usize = 64 * 1024;

/// Posts `message` to `endpoint`; any 2xx (usually 202 Accepted) is success, and a 404 says
/// the session is gone ([`SseError::SessionGone`]).
pub(crate) async fn post(
    remote: &Remote,
    endpoint: &Uri,
    message: &ClientJsonRpcMessage,
) -> Result<(), SseError> {
    let body = serde_json::to_vec(message).map_err(HttpError::Encode)?;
    let mut request = Request::new(Full::new(Bytes::from(body)));
    *request.method_mut() = Method::POST;
    *request.uri_mut() = endpoint.clone();
    let headers = request.headers_mut();
    remote
        .headers
        .apply(caller_context(message), &Method::POST, endpoint, headers)
        .await?;
    headers.insert(CONTENT_TYPE, JSON);
    let response = remote.headers.send(&remote.http, request).await?;
    let status = response.status();
    if !status.is_success() {
        let refused = refusal(response).await;
        return Err(match refused {
            HttpError::Status { body, .. } if status == StatusCode::NOT_FOUND => {
                SseError::SessionGone {
                    body,
                    not_delivered: NotDelivered::new(),
                }
            }
            other => other.into(),
        });
    }
    let _ = read_limited(response.into_body(), DRAIN_BYTES).await;
    Ok(())
}
