//! Posting one message and taking its answer, per the Streamable HTTP transport: `202` for a
//! notification or an answer, a JSON body or an event stream for a request.

use std::sync::Arc;

use bytes::Bytes;
use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderValue, Method, Response, StatusCode};
use hyper::body::Incoming;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ErrorData, GetMeta as _, JsonRpcMessage, RequestId,
    ServerJsonRpcMessage,
};
use toolport_http_client::HttpError;
use toolport_http_client::toolkit::{
    caller_context, challenge, content_type, is_media_type, read_limited, read_prefix,
};

use crate::addressing::{Addressed, address, lost_under};
use crate::error::StreamableError;
use crate::error_answer::error_answer;
use crate::link::Link;
use crate::remote::{PROTOCOL_VERSION, SESSION_ID};
use crate::{standard_headers, stream};

const ACCEPT_BOTH: HeaderValue = HeaderValue::from_static("application/json, text/event-stream");
const JSON: HeaderValue = HeaderValue::from_static("application/json");
/// How much of a refusing answer's body is quoted.
const ERROR_BODY_BYTES: usize = 4096;

/// Sends `message` and hands what answers it to `receive`. A request's exchange stops early
/// when the client cancels it or the transport closes.
pub(crate) async fn send(
    link: Arc<Link>,
    message: ClientJsonRpcMessage,
) -> Result<(), StreamableError> {
    if let Some(reason) = link.ended() {
        return Err(StreamableError::ended(reason));
    }
    let request_id = match &message {
        JsonRpcMessage::Request(request) => Some(request.id.clone()),
        JsonRpcMessage::Notification(notification) => {
            if let ClientNotification::CancelledNotification(cancelled) = &notification.notification
                && let Some(id) = &cancelled.params.request_id
            {
                link.in_flight.cancel(id);
            }
            None
        }
        JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_) => None,
    };
    let token = match &request_id {
        Some(id) => link.in_flight.start(id),
        None => link.in_flight.untracked(),
    };
    let exchanged = tokio::select! {
        biased;
        () = token.cancelled() => Ok(Exchanged::Done),
        exchanged = exchange(&link, &message, request_id.clone()) => exchanged,
    };
    let finished = match exchanged {
        Ok(Exchanged::Done) => Ok(()),
        Ok(Exchanged::Streaming(body)) => {
            stream::spawn_answer_stream(link.clone(), body, &message, request_id.clone(), token);
            // The reader forgets the request when its answer is in.
            return Ok(());
        }
        Err(error) => Err(error),
    };
    if let Some(id) = &request_id {
        link.in_flight.finish(id);
    }
    let remote = &link.remote;
    if finished.is_ok()
        && remote.listening_stream
        && is_initialized(&message)
        && remote.session.has_session()
    {
        stream::spawn_listening_stream(link.clone());
    }
    finished
}

/// What a post led to, once its answer's head is in.
enum Exchanged {
    /// Nothing more to read: accepted, or the answer is already delivered.
    Done,
    /// The answer streams; a reader takes it from here.
    Streaming(Incoming),
}

/// Posts `message` and reads a JSON answer, or hands back the stream of one.
///
/// - 401 and 403 are [`HttpError::Unauthorized`] (with the challenge);
/// - 202 and 204 are accepted; 404 on a session ends it (the session above starts a new one,
///   and sends the message again since it surely did not run);
/// - a JSON-RPC error in the body of another refusal is the answer; otherwise the refusal is
///   [`HttpError::Status`];
/// - a JSON answer larger than the limit becomes a JSON-RPC error naming the limit, so the
///   caller sees why and the session stays usable.
async fn exchange(
    link: &Link,
    message: &ClientJsonRpcMessage,
    request_id: Option<RequestId>,
) -> Result<Exchanged, StreamableError> {
    let remote = &link.remote;
    let body = Bytes::from(serde_json::to_vec(message).map_err(HttpError::Encode)?);
    let version = request_version(message);
    if let Some(version) = &version {
        remote.session.note_version(version);
    } else if is_request(message, "initialize") {
        remote.session.forget_version();
    }
    let mut request = remote
        .request(Method::POST, body.clone(), caller_context(message), version)
        .await?;
    let headers = request.headers_mut();
    headers.insert(ACCEPT, ACCEPT_BOTH);
    headers.insert(CONTENT_TYPE, JSON);
    if headers
        .get(PROTOCOL_VERSION)
        .is_some_and(standard_headers::apply_to)
    {
        standard_headers::add(&body, &link.tool_headers, headers);
    }
    let had_session = remote.session.has_session();
    let response = remote.send(request).await?;
    let status = response.status();
    match status {
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
            let error = HttpError::unauthorized(status.as_u16(), challenge(response.headers()));
            remote.diagnostics.record(error.to_string());
            return Err(error.into());
        }
        StatusCode::NOT_FOUND if had_session => {
            let reason = "the server forgot the session (HTTP 404)";
            link.stop_sending(reason);
            return Err(StreamableError::ended(reason));
        }
        _ => {}
    }
    if let Some(id) = response.headers().get(SESSION_ID) {
        remote.session.set_session_id(id);
        if let Ok(id) = id.to_str() {
            remote.diagnostics.note_session_id(id);
        }
    }
    if !status.is_success() {
        if let Some(id) = &request_id
            && is_request(message, "server/discover")
        {
            return refused_probe(link, id.clone(), response).await;
        }
        return refused(link, request_id, response, had_session).await;
    }
    if status == StatusCode::ACCEPTED || status == StatusCode::NO_CONTENT {
        remote.diagnostics.clear();
        return Ok(Exchanged::Done);
    }
    if is_media_type(response.headers(), "text/event-stream") {
        remote.diagnostics.clear();
        return Ok(Exchanged::Streaming(response.into_body()));
    }
    let Some(id) = request_id else {
        // A notification or an answer awaits nothing: any 2xx will do.
        remote.diagnostics.clear();
        return Ok(Exchanged::Done);
    };
    if !is_media_type(response.headers(), "application/json") {
        let found = content_type(response.headers());
        remote
            .diagnostics
            .record(format!("unexpected content type {found:?}"));
        return Err(StreamableError::UnexpectedContentType { found });
    }
    let bytes = match read_limited(response.into_body(), remote.limit).await {
        Ok(bytes) => bytes,
        Err(error @ HttpError::TooLarge { .. }) => {
            remote.diagnostics.record(error.to_string());
            link.deliver(error_answer(id, &error.to_string())).await;
            return Ok(Exchanged::Done);
        }
        Err(error) => {
            remote.diagnostics.record(error.to_string());
            return Err(error.into());
        }
    };
    let mut decoder = link.decoder();
    decoder.note_sent(message);
    let answer = match decoder.decode(&bytes) {
        Ok(Some(answer)) => answer,
        Ok(None) => {
            return Err(not_json_rpc(
                link,
                "it holds no message for the client",
                &bytes,
            ));
        }
        Err(error) => return Err(not_json_rpc(link, &error.to_string(), &bytes)),
    };
    let answer = match address(answer, &id) {
        Addressed::Ours(answer) | Addressed::NotAnAnswer(answer) => {
            remote.diagnostics.clear();
            answer
        }
        // The body holds one message, so this request's answer is lost.
        Addressed::Other(other) => lost_under(link, &id, &other),
    };
    link.deliver(answer).await;
    Ok(Exchanged::Done)
}

/// A refusing status: a JSON-RPC error in the body answers the request; otherwise the
/// status is the error, quoting the start of the body.
async fn refused(
    link: &Link,
    request_id: Option<RequestId>,
    response: Response<Incoming>,
    had_session: bool,
) -> Result<Exchanged, StreamableError> {
    let status = response.status();
    let remote = &link.remote;
    let body = if is_media_type(response.headers(), "application/json")
        && status != StatusCode::TOO_MANY_REQUESTS
    {
        let bytes = read_limited(response.into_body(), remote.limit.min(64 * 1024))
            .await
            .unwrap_or_default();
        if request_id.is_some()
            && let Ok(message @ JsonRpcMessage::Error(_)) =
                serde_json::from_slice::<ServerJsonRpcMessage>(&bytes)
        {
            link.deliver(message).await;
            return Ok(Exchanged::Done);
        }
        String::from_utf8_lossy(&bytes[..bytes.len().min(ERROR_BODY_BYTES)]).into_owned()
    } else {
        read_prefix(response.into_body(), ERROR_BODY_BYTES).await
    };
    let error = HttpError::Status {
        status: status.as_u16(),
        body: body.trim().to_owned(),
    };
    let mut said = error.to_string();
    if !had_session && let Some(hint) = first_contact_hint(status, remote.uri.path()) {
        said.push_str("; ");
        said.push_str(hint);
    }
    remote.diagnostics.record(said);
    Err(error.into())
}

/// What a refusal of the first request to `path` likely means: a URL that is not a Streamable
/// HTTP endpoint.
fn first_contact_hint(status: StatusCode, path: &str) -> Option<&'static str> {
    let legacy = "is this a legacy SSE endpoint? try `--transport sse` (`SseServer` in code)";
    match status {
        StatusCode::METHOD_NOT_ALLOWED => Some(legacy),
        StatusCode::NOT_FOUND if path.trim_end_matches('/').ends_with("/sse") => Some(legacy),
        StatusCode::NOT_FOUND if path != "/mcp" => {
            Some("nothing is served at this path: Streamable HTTP servers usually serve `/mcp`")
        }
        _ => None,
    }
}

/// A refusal of a `server/discover` probe (401 and 403 aside), as its answer: the JSON-RPC
/// error in the body, under the probe's id (a server that refuses before reading the request
/// answers under `null` or an id of its own), or else an error quoting the status and the body.
/// The negotiation above reads a modern error (an unsupported version, unless the server
/// serves only handshake versions) as a server of 2026-07-28, and anything else as an older
/// server to send `initialize` to, as the specification's Streamable HTTP backward
/// compatibility has it.
async fn refused_probe(
    link: &Link,
    id: RequestId,
    response: Response<Incoming>,
) -> Result<Exchanged, StreamableError> {
    let status = response.status();
    let bytes = read_prefix(response.into_body(), ERROR_BODY_BYTES).await;
    let error = serde_json::from_str::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|mut body| {
            serde_json::from_value::<ErrorData>(body.get_mut("error")?.take()).ok()
        })
        .unwrap_or_else(|| {
            let quoted = bytes.trim();
            let message = format!("HTTP {} to server/discover: {quoted}", status.as_u16());
            ErrorData::invalid_request(message, None)
        });
    tracing::debug!(
        status = status.as_u16(),
        code = error.code.0,
        "server/discover refused"
    );
    link.deliver(ServerJsonRpcMessage::error(error, Some(id)))
        .await;
    Ok(Exchanged::Done)
}

/// Whether `message` is a request for `method`.
fn is_request(message: &ClientJsonRpcMessage, method: &str) -> bool {
    matches!(message, JsonRpcMessage::Request(request) if request.request.method() == method)
}

/// The version a request names in its `_meta` (2026-07-28 requests carry one each); `None`
/// sends the one the handshake settled on.
fn request_version(message: &ClientJsonRpcMessage) -> Option<HeaderValue> {
    let JsonRpcMessage::Request(request) = message else {
        return None;
    };
    let version = request.request.get_meta().protocol_version()?;
    HeaderValue::from_str(version.as_str()).ok()
}

fn is_initialized(message: &ClientJsonRpcMessage) -> bool {
    matches!(
        message,
        JsonRpcMessage::Notification(notification)
            if matches!(notification.notification, ClientNotification::InitializedNotification(_))
    )
}

/// A JSON answer that is no JSON-RPC message, described with the start of the body.
fn not_json_rpc(link: &Link, error: &str, bytes: &[u8]) -> StreamableError {
    let preview = String::from_utf8_lossy(&bytes[..bytes.len().min(256)]);
    let reason = format!("{error}: {preview}");
    link.remote.diagnostics.record(format!(
        "the server's JSON is not a JSON-RPC message: {reason}"
    ));
    StreamableError::NotJsonRpc { reason }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_first_request_says_what_the_url_likely_is() {
        let legacy =
            Some("is this a legacy SSE endpoint? try `--transport sse` (`SseServer` in code)");
        assert_eq!(
            first_contact_hint(StatusCode::METHOD_NOT_ALLOWED, "/mcp"),
            legacy
        );
        assert_eq!(first_contact_hint(StatusCode::NOT_FOUND, "/sse/"), legacy);
        assert!(
            first_contact_hint(StatusCode::NOT_FOUND, "/api")
                .is_some_and(|hint| hint.contains("usually serve `/mcp`"))
        );
        assert_eq!(first_contact_hint(StatusCode::NOT_FOUND, "/mcp"), None);
        assert_eq!(first_contact_hint(StatusCode::BAD_REQUEST, "/api"), None);
    }
}
