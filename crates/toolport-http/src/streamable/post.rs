//! How the answer to a POST maps onto rmcp's [`StreamableHttpPostResponse`], following the
//! Streamable HTTP transport of MCP 2025-11-25.

use std::borrow::Cow;

use http::header::RETRY_AFTER;
use http::{Response, StatusCode};
use hyper::body::Incoming;
use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    HttpStatusError, StreamableHttpError, StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use toolport_core::ServerMessageDecoder;
use toolport_http_client::{
    HttpError, challenge, content_type, is_media_type, read_limited, read_prefix,
};

use super::{Error, SESSION_ID, StreamableClient, answer};
use crate::events;

/// Maps the answer to a POST of `message`.
///
/// - 401 and 403 are [`HttpError::Unauthorized`] (with the challenge);
/// - 202 and 204 are `Accepted`; 404 on a session is `SessionExpired` (rmcp re-initializes);
/// - `text/event-stream` streams, each event within the limit (a stream that opens with the
///   answer to a `tools/call` or `tools/list` becomes that answer, see [`answer`]);
///   `application/json` is read within the limit and parsed;
/// - a request whose answer is over the limit gets a JSON-RPC error naming the limit, so the
///   caller sees why and the session stays usable;
/// - other failures keep a prefix of the body for the message.
pub(crate) async fn map_response(
    client: &StreamableClient,
    message: &ClientJsonRpcMessage,
    had_session: bool,
    response: Response<Incoming>,
    limits: StreamableHttpResponseLimits,
) -> Result<StreamableHttpPostResponse, Error> {
    let status = response.status();
    let request_id = match message {
        JsonRpcMessage::Request(request) => Some(request.id.clone()),
        _ => None,
    };
    match status {
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
            let challenge = challenge(response.headers());
            return Err(client.fail(HttpError::unauthorized(status.as_u16(), challenge)));
        }
        StatusCode::ACCEPTED | StatusCode::NO_CONTENT => {
            client.succeeded();
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        StatusCode::NOT_FOUND if had_session => {
            client
                .shared
                .diagnostics
                .record("the server forgot the session (HTTP 404)");
            return Err(StreamableHttpError::SessionExpired);
        }
        _ => {}
    }
    let session_id = response
        .headers()
        .get(SESSION_ID)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let is_json = is_media_type(response.headers(), "application/json");
    if !status.is_success() {
        return failure(client, status, is_json, response, limits, session_id).await;
    }
    if is_media_type(response.headers(), "text/event-stream") {
        client.succeeded();
        let diagnostics = client.diagnostics().clone();
        let events = events::events(
            response.into_body(),
            limits.max_sse_event_size,
            request_id,
            diagnostics,
        );
        return Ok(answer::answer_or_stream(message, events, session_id).await);
    }
    if request_id.is_none() {
        // A notification or an answer awaits nothing: any 2xx will do.
        client.succeeded();
        return Ok(StreamableHttpPostResponse::Accepted);
    }
    if !is_json {
        let found = content_type(response.headers());
        client
            .shared
            .diagnostics
            .record(format!("unexpected content type {found:?}"));
        return Err(StreamableHttpError::UnexpectedContentType(found));
    }
    let limit = limits.max_json_response_size;
    let bytes = match read_limited(response.into_body(), limit).await {
        Ok(bytes) => bytes,
        Err(error @ HttpError::TooLarge { .. }) => {
            client.shared.diagnostics.record(error.to_string());
            return Ok(match request_id {
                Some(id) => {
                    let answer = events::error_answer(id, &error.to_string());
                    StreamableHttpPostResponse::Json(answer, session_id)
                }
                None => StreamableHttpPostResponse::Accepted,
            });
        }
        Err(error) => return Err(client.fail(error)),
    };
    let mut decoder = ServerMessageDecoder::new();
    decoder.note_sent(message);
    let answer = match decoder.decode(&bytes) {
        Ok(Some(answer)) => Ok(answer),
        Ok(None) => Err("it holds no message for the client".to_owned()),
        Err(error) => Err(error.to_string()),
    };
    match answer {
        Ok(answer) => {
            client.succeeded();
            Ok(StreamableHttpPostResponse::Json(answer, session_id))
        }
        Err(error) => {
            let preview = String::from_utf8_lossy(&bytes[..bytes.len().min(256)]).into_owned();
            let reason = format!("the server's JSON is not a JSON-RPC message: {error}: {preview}");
            client.shared.diagnostics.record(reason.clone());
            Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                reason,
            )))
        }
    }
}

/// A non-2xx answer: a JSON-RPC error in the body is passed on as the answer; otherwise the
/// status (429 and 5xx as rmcp's `HttpStatus`, others with a prefix of the body).
async fn failure(
    client: &StreamableClient,
    status: StatusCode,
    is_json: bool,
    response: Response<Incoming>,
    limits: StreamableHttpResponseLimits,
    session_id: Option<String>,
) -> Result<StreamableHttpPostResponse, Error> {
    let retry_after = response
        .headers()
        .get(RETRY_AFTER)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    if is_json && status != StatusCode::TOO_MANY_REQUESTS {
        let limit = limits
            .max_json_response_size
            .min(limits.max_error_response_size.max(64 * 1024));
        if let Ok(bytes) = read_limited(response.into_body(), limit).await {
            if let Ok(message @ JsonRpcMessage::Error(_)) =
                serde_json::from_slice::<ServerJsonRpcMessage>(&bytes)
            {
                return Ok(StreamableHttpPostResponse::Json(message, session_id));
            }
            let text =
                String::from_utf8_lossy(&bytes[..bytes.len().min(limits.max_error_response_size)]);
            return Err(status_error(client, status, text.into_owned(), retry_after));
        }
        return Err(status_error(client, status, String::new(), retry_after));
    }
    let text = read_prefix(
        response.into_body(),
        limits.max_error_response_size.min(4096),
    )
    .await;
    Err(status_error(client, status, text, retry_after))
}

fn status_error(
    client: &StreamableClient,
    status: StatusCode,
    body: String,
    retry_after: Option<String>,
) -> Error {
    if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
        client
            .shared
            .diagnostics
            .record(format!("the server answered HTTP {status}: {body}"));
        return StreamableHttpError::HttpStatus(HttpStatusError::new(status.as_u16(), retry_after));
    }
    client.fail(HttpError::Status {
        status: status.as_u16(),
        body,
    })
}
