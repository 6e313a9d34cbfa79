//! A POST's event stream that opens with the request's answer is handed to rmcp as that answer
//! alone, as if the server had answered with JSON, decoded straight into the result kind the
//! request asked for.
//!
//! A server answering a POST may stream notifications and requests before the answer, or close
//! the stream early for the client to resume. Only the common case takes the short path: the
//! first event with data is the answer. Anything else goes to rmcp as the stream it was,
//! including the events already read, so resumption and server requests work as before.

use std::time::Duration;

use futures_util::FutureExt as _;
use futures_util::stream::{self, BoxStream, StreamExt as _};
use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage, RequestId, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::StreamableHttpPostResponse;
use sse_stream::{Error as SseError, Sse};
use toolport_core::ServerMessageDecoder;

/// How long the rest of an answered stream is read (in the background) so that its connection
/// goes back to the pool; a server should close it right after the answer.
const DRAIN: Duration = Duration::from_secs(1);
/// How many events without a message (priming events, keep-alives) are held back while waiting
/// for the answer; past this the stream goes to rmcp as it is.
const MAX_HELD: usize = 16;

/// The answer to `message` if `events` opens with it, otherwise `events` as they came.
///
/// Only requests whose answer [`ServerMessageDecoder`] decodes directly wait here (`tools/call`,
/// `tools/list`); the rest are handed over at once.
pub(crate) async fn answer_or_stream(
    message: &ClientJsonRpcMessage,
    mut events: BoxStream<'static, Result<Sse, SseError>>,
    session_id: Option<String>,
) -> StreamableHttpPostResponse {
    let JsonRpcMessage::Request(request) = message else {
        return StreamableHttpPostResponse::Sse(events, session_id);
    };
    let mut decoder = ServerMessageDecoder::new();
    decoder.note_sent(message);
    if !decoder.is_awaiting() {
        return StreamableHttpPostResponse::Sse(events, session_id);
    }
    let mut seen = Vec::new();
    while let Some(item) = events.next().await {
        let Ok(event) = item else {
            seen.push(item);
            break;
        };
        let Some(data) = event.data.as_deref().filter(|data| !data.trim().is_empty()) else {
            // A priming event (an id to resume from, a retry delay) before any message.
            seen.push(Ok(event));
            if seen.len() == MAX_HELD {
                break;
            }
            continue;
        };
        if is_message(&event)
            && let Ok(Some(answer)) = decoder.decode(data.as_bytes())
            && answers(&answer, &request.id)
        {
            release(events);
            return StreamableHttpPostResponse::Json(answer, session_id);
        }
        seen.push(Ok(event));
        break;
    }
    let replayed = stream::iter(seen).chain(events).boxed();
    StreamableHttpPostResponse::Sse(replayed, session_id)
}

/// Whether `event` is a `message` event (the default type).
fn is_message(event: &Sse) -> bool {
    event.event.as_deref().is_none_or(|kind| kind == "message")
}

/// Whether `message` is the response or error answering the request `id`.
fn answers(message: &ServerJsonRpcMessage, id: &RequestId) -> bool {
    match message {
        JsonRpcMessage::Response(response) => response.id == *id,
        JsonRpcMessage::Error(error) => error.id.as_ref() == Some(id),
        JsonRpcMessage::Request(_) | JsonRpcMessage::Notification(_) => false,
    }
}

/// Reads what is left of an answered stream, so that its connection can be reused: at once if
/// the end is already here, otherwise in the background for up to [`DRAIN`].
fn release(mut events: BoxStream<'static, Result<Sse, SseError>>) {
    if let Some(None) = events.next().now_or_never() {
        return;
    }
    tokio::spawn(async move {
        let drained =
            tokio::time::timeout(DRAIN, async { while events.next().await.is_some() {} }).await;
        if drained.is_err() {
            tracing::debug!("the server kept a POST's event stream open after answering");
        }
    });
}

#[cfg(test)]
mod tests {
    use rmcp::model::{
        CallToolRequestParams, ClientRequest, NumberOrString, PingRequest, Request, ServerResult,
    };

    use super::*;

    fn call(id: i64) -> ClientJsonRpcMessage {
        let request = ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("x")));
        ClientJsonRpcMessage::request(request, NumberOrString::Number(id))
    }

    fn event(data: Option<&str>, id: Option<&str>) -> Result<Sse, SseError> {
        Ok(Sse {
            event: None,
            data: data.map(str::to_owned),
            id: id.map(str::to_owned),
            retry: None,
        })
    }

    fn answer(id: i64) -> String {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[]}}}}"#)
    }

    const PROGRESS: &str = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}"#;

    /// What `answer_or_stream` made of `events` for `message`: the answer's result kind, or
    /// the ids and data of the events handed on.
    async fn outcome(message: ClientJsonRpcMessage, events: Vec<Result<Sse, SseError>>) -> String {
        let events = stream::iter(events).boxed();
        match answer_or_stream(&message, events, None).await {
            StreamableHttpPostResponse::Json(JsonRpcMessage::Response(response), _) => {
                match response.result {
                    ServerResult::CallToolResult(_) => "answer: call".to_owned(),
                    _ => "answer: other".to_owned(),
                }
            }
            StreamableHttpPostResponse::Json(_, _) => "answer: not a result".to_owned(),
            StreamableHttpPostResponse::Sse(events, _) => {
                let handed: Vec<String> = events
                    .map(|item| match item {
                        Ok(event) => format!(
                            "{}/{}",
                            event.id.unwrap_or_default(),
                            event.data.map_or(0, |data| data.len())
                        ),
                        Err(_) => "error".to_owned(),
                    })
                    .collect()
                    .await;
                format!("stream: {}", handed.join(" "))
            }
            _ => "accepted".to_owned(),
        }
    }

    #[tokio::test]
    async fn a_stream_that_opens_with_the_answer_becomes_the_answer() {
        let direct = vec![event(Some(&answer(3)), None)];
        assert_eq!(outcome(call(3), direct).await, "answer: call");
        let primed = vec![
            event(Some(""), Some("e1")),
            event(Some(&answer(3)), Some("e2")),
        ];
        assert_eq!(outcome(call(3), primed).await, "answer: call");
    }

    #[tokio::test]
    async fn anything_else_is_handed_on_whole() {
        let notified_first = vec![
            event(None, Some("e1")),
            event(Some(PROGRESS), Some("e2")),
            event(Some(&answer(3)), Some("e3")),
        ];
        let expected = format!("stream: e1/0 e2/{} e3/{}", PROGRESS.len(), answer(3).len());
        assert_eq!(outcome(call(3), notified_first).await, expected);

        let idle: Vec<_> = (0..MAX_HELD + 1)
            .map(|_| event(None, None))
            .chain([event(Some(&answer(3)), None)])
            .collect();
        let held = outcome(call(3), idle).await;
        assert_eq!(held.matches("/0").count(), MAX_HELD + 1, "{held}");

        let someone_elses = vec![event(Some(&answer(4)), None)];
        let expected = format!("stream: /{}", answer(4).len());
        assert_eq!(outcome(call(3), someone_elses).await, expected);

        // A stream cut before the answer goes to rmcp, which resumes it.
        let cut = vec![event(None, Some("e1")), Err(SseError::InvalidLine)];
        assert_eq!(outcome(call(3), cut).await, "stream: e1/0 error");

        let ping = ClientRequest::PingRequest(PingRequest::default());
        let ping = ClientJsonRpcMessage::request(ping, NumberOrString::Number(5));
        let answered = vec![event(Some(r#"{"jsonrpc":"2.0","id":5,"result":{}}"#), None)];
        assert_eq!(outcome(ping, answered).await, "stream: /36");
    }
}
