//! Decoding what a server sends: [`ServerMessageDecoder`] decodes a response straight into the
//! result type its request asked for; [`decode_server_message`] tells messages from noise and
//! garbage without knowing what was asked.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::{
    CallToolResult, ClientNotification, ClientRequest, DiscoverResult, JsonRpcMessage,
    JsonRpcResponse, JsonRpcVersion2_0, ListToolsResult, RequestId, ServerResult,
};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;

use toolport_core::UnmodeledFields;

use crate::unmodeled_fields::{learn_initialize, learn_tools};

/// How many requests a [`ServerMessageDecoder`] remembers at once. A request sent while it
/// remembers this many still works; its response just takes the generic path.
const MAX_AWAITED: usize = 4096;

/// Decodes one message a server sent (a stdout line, an SSE event's data), for transport
/// authors.
///
/// `Ok(Some(_))` is a message for the client. `Ok(None)` is nothing to deliver and nothing
/// wrong: blank input, or a notification the client cannot represent. `Err(_)` is garbage: not
/// a JSON-RPC message at all, such as a log line printed to stdout by mistake.
///
/// A response is decoded as rmcp's untagged `ServerResult`, which tries each kind of result in
/// turn; a transport that sees the requests it sends should use a [`ServerMessageDecoder`],
/// which skips that search for the results a client waits on most.
pub fn decode_server_message(
    bytes: &[u8],
) -> Result<Option<RxJsonRpcMessage<RoleClient>>, serde_json::Error> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    match serde_json::from_slice(bytes) {
        Ok(message) => Ok(Some(message)),
        Err(error) if is_notification(bytes) => {
            tracing::debug!(%error, "skipping a notification the client does not know");
            Ok(None)
        }
        Err(error) => Err(error),
    }
}

/// Whether `bytes` is a JSON object with a `method` and no `id`. Only called on input that
/// already failed to decode, so the second parse costs nothing on the hot path.
fn is_notification(bytes: &[u8]) -> bool {
    match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(serde_json::Value::Object(object)) => {
            object
                .get("method")
                .is_some_and(serde_json::Value::is_string)
                && !object.contains_key("id")
        }
        _ => false,
    }
}

/// A transport's decoder that remembers what each request in flight asked for, so that its
/// response is decoded straight into that result type.
///
/// rmcp decodes a response as `ServerResult`, an untagged union of every kind of result: serde
/// tries each kind in turn and builds an error for each miss. A `tools/call` result is the
/// sixteenth kind tried, which makes decoding about half of a client's work per call. A
/// transport that passes every message it sends to [`note_sent`](Self::note_sent) gets
/// `tools/call` and `tools/list` responses decoded directly; anything else, or a result that
/// does not decode as the kind asked for, takes the generic path of [`decode_server_message`],
/// so the outcome only differs for a response that fits both the kind asked for and an
/// unrelated kind.
///
/// # Examples
///
/// ```
/// use rmcp::model::{CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, JsonRpcMessage,
///     NumberOrString, ServerResult};
/// use toolport_codec::ServerMessageDecoder;
///
/// let mut decoder = ServerMessageDecoder::new();
/// let call = ClientRequest::CallToolRequest(rmcp::model::Request::new(
///     CallToolRequestParams::new("echo"),
/// ));
/// decoder.note_sent(&ClientJsonRpcMessage::request(call, NumberOrString::Number(7)));
///
/// let line = br#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}}"#;
/// let message = decoder.decode(line)?.expect("a response");
/// assert!(matches!(
///     message,
///     JsonRpcMessage::Response(response) if matches!(response.result, ServerResult::CallToolResult(_))
/// ));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct ServerMessageDecoder {
    awaited: HashMap<RequestId, ExpectedResult>,
    /// Where the fields rmcp's model drops are kept, if the transport asked for them.
    unmodeled_fields: Option<Arc<UnmodeledFields>>,
}

/// The result kinds a [`ServerMessageDecoder`] decodes directly, or reads before decoding.
#[derive(Debug, Clone, Copy)]
enum ExpectedResult {
    CallTool,
    ListTools,
    /// Read for its 2025-11-25 task capability, then decoded the generic way.
    Initialize,
    /// `server/discover`, which starts every 2026-07-28 connection.
    Discover,
}

impl ExpectedResult {
    /// What `request` will be answered with, if it is a kind decoded directly.
    fn of(request: &ClientRequest) -> Option<Self> {
        match request {
            ClientRequest::CallToolRequest(_) => Some(Self::CallTool),
            ClientRequest::ListToolsRequest(_) => Some(Self::ListTools),
            ClientRequest::InitializeRequest(_) => Some(Self::Initialize),
            ClientRequest::DiscoverRequest(_) => Some(Self::Discover),
            _ => None,
        }
    }

    /// Decodes `result` as this kind, or `None` if it is not one (or is decoded the generic
    /// way), after `unmodeled_fields` has read what it keeps.
    fn decode(
        self,
        result: &RawValue,
        unmodeled_fields: Option<&UnmodeledFields>,
    ) -> Option<ServerResult> {
        let json = result.get();
        match self {
            Self::CallTool => serde_json::from_str::<CallToolResult>(json)
                .ok()
                .map(ServerResult::CallToolResult),
            Self::ListTools => {
                if let Some(unmodeled_fields) = unmodeled_fields {
                    learn_tools(unmodeled_fields, json);
                }
                serde_json::from_str::<ListToolsResult>(json)
                    .ok()
                    .map(ServerResult::ListToolsResult)
            }
            Self::Initialize => {
                if let Some(unmodeled_fields) = unmodeled_fields {
                    learn_initialize(unmodeled_fields, json);
                }
                None
            }
            Self::Discover => serde_json::from_str::<DiscoverResult>(json)
                .ok()
                .map(ServerResult::DiscoverResult),
        }
    }
}

/// The top level of a message, read without decoding its `result`.
#[derive(Deserialize)]
struct Envelope<'a> {
    jsonrpc: JsonRpcVersion2_0,
    #[serde(default)]
    id: Option<RequestId>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
    #[serde(default)]
    method: Option<IgnoredAny>,
    #[serde(default)]
    error: Option<IgnoredAny>,
}

impl ServerMessageDecoder {
    /// A decoder that remembers nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps in `unmodeled_fields` what rmcp's model drops: a 2025-11-25 server's task
    /// capability from the `initialize` result, and each tool's `execution.taskSupport` and
    /// other unmodeled fields from `tools/list`.
    #[must_use]
    pub fn with_unmodeled_fields(mut self, unmodeled_fields: Arc<UnmodeledFields>) -> Self {
        self.unmodeled_fields = Some(unmodeled_fields);
        self
    }

    /// Notes a message the transport is about to send: a request whose answer is decoded
    /// directly is remembered until its response arrives or the client cancels it.
    pub fn note_sent(&mut self, message: &TxJsonRpcMessage<RoleClient>) {
        match message {
            JsonRpcMessage::Request(request) => {
                if let Some(expected) = ExpectedResult::of(&request.request)
                    && self.awaited.len() < MAX_AWAITED
                {
                    self.awaited.insert(request.id.clone(), expected);
                }
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    self.awaited.remove(id);
                }
            }
            JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_) => {}
        }
    }

    /// Whether a request noted by [`note_sent`](Self::note_sent) still waits for its response
    /// here, so that it will be decoded directly.
    pub fn is_awaiting(&self) -> bool {
        !self.awaited.is_empty()
    }

    /// Decodes one message, as [`decode_server_message`] does, but a response to a request
    /// noted by [`note_sent`](Self::note_sent) straight into the result kind it asked for.
    pub fn decode(
        &mut self,
        bytes: &[u8],
    ) -> Result<Option<RxJsonRpcMessage<RoleClient>>, serde_json::Error> {
        if self.is_awaiting()
            && let Some(message) = self.decode_awaited(bytes)
        {
            return Ok(Some(message));
        }
        decode_server_message(bytes)
    }

    /// The response to a remembered request, decoded directly, or `None` for the generic path.
    /// Any response or error to a remembered request ends the wait for it.
    fn decode_awaited(&mut self, bytes: &[u8]) -> Option<RxJsonRpcMessage<RoleClient>> {
        let envelope: Envelope<'_> = serde_json::from_slice(bytes).ok()?;
        if envelope.method.is_some() {
            return None;
        }
        let id = envelope.id?;
        let expected = self.awaited.remove(&id)?;
        if envelope.error.is_some() {
            return None;
        }
        let result = expected.decode(envelope.result?, self.unmodeled_fields.as_deref())?;
        Some(JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: envelope.jsonrpc,
            id,
            result,
        }))
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{
        CallToolRequestParams, CancelledNotificationParam, ClientJsonRpcMessage,
        DiscoverRequestParams, NumberOrString, Request, RequestOptionalParam,
    };

    use super::*;

    fn call(id: i64) -> ClientJsonRpcMessage {
        let request = ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("x")));
        ClientJsonRpcMessage::request(request, NumberOrString::Number(id))
    }

    fn list(id: i64) -> ClientJsonRpcMessage {
        let request = ClientRequest::ListToolsRequest(RequestOptionalParam::default());
        ClientJsonRpcMessage::request(request, NumberOrString::Number(id))
    }

    /// The result kind of a decoded response, or what else the message is.
    fn kind(message: &RxJsonRpcMessage<RoleClient>) -> &'static str {
        match message {
            JsonRpcMessage::Response(response) => match &response.result {
                ServerResult::CallToolResult(_) => "call",
                ServerResult::ListToolsResult(_) => "list",
                ServerResult::DiscoverResult(_) => "discover",
                ServerResult::EmptyResult(_) => "empty",
                ServerResult::CustomResult(_) => "custom",
                _ => "other result",
            },
            JsonRpcMessage::Request(_) => "request",
            JsonRpcMessage::Notification(_) => "notification",
            JsonRpcMessage::Error(_) => "error",
        }
    }

    fn decoded(decoder: &mut ServerMessageDecoder, line: &str) -> &'static str {
        let message = decoder.decode(line.as_bytes()).unwrap().expect("a message");
        kind(&message)
    }

    #[test]
    fn tells_messages_noise_and_garbage_apart() {
        assert!(matches!(
            decode_server_message(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Ok(Some(_))
        ));
        assert!(matches!(decode_server_message(b" \n"), Ok(None)));
        let foreign = br#"{"jsonrpc":"2.0","method":"$/progress","params":{}}"#;
        assert!(decode_server_message(foreign).is_ok());
        let odd = br#"{"jsonrpc":"2.0","method":"notifications/x","params":7}"#;
        assert!(decode_server_message(odd).is_ok());
        assert!(decode_server_message(b"hello").is_err());
        assert!(decode_server_message(br#"{"id":1}"#).is_err());
    }

    #[test]
    fn decodes_the_kind_each_request_asked_for_and_then_forgets_it() {
        let mut decoder = ServerMessageDecoder::new();
        decoder.note_sent(&call(1));
        decoder.note_sent(&list(2));
        let tools = r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#;
        assert_eq!(decoded(&mut decoder, tools), "list");
        let answer = r#"{"result":{"content":[],"isError":true},"id":1,"jsonrpc":"2.0"}"#;
        assert_eq!(decoded(&mut decoder, answer), "call");
        assert!(decoder.awaited.is_empty());
        // The same bytes again, unasked for, take the generic path and still decode.
        assert_eq!(decoded(&mut decoder, answer), "call");
    }

    #[test]
    fn a_discover_answer_is_decoded_directly() {
        let mut decoder = ServerMessageDecoder::new();
        let request = ClientRequest::DiscoverRequest(Request::new(DiscoverRequestParams {}));
        decoder.note_sent(&ClientJsonRpcMessage::request(
            request,
            NumberOrString::Number(1),
        ));
        assert!(decoder.is_awaiting());
        let answer = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",
            "supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},
            "ttlMs":0,"cacheScope":"private"}}"#;
        assert_eq!(decoded(&mut decoder, &answer.replace('\n', "")), "discover");
        assert!(decoder.awaited.is_empty());
    }

    #[test]
    fn an_answer_that_fits_two_kinds_is_the_kind_asked_for() {
        // rmcp's untagged union tries `ListToolsResult` first and ignores unknown fields.
        let both = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"tools":[]}}"#;
        let generic = decode_server_message(both.as_bytes()).unwrap().unwrap();
        assert_eq!(kind(&generic), "list");
        let mut decoder = ServerMessageDecoder::new();
        decoder.note_sent(&call(1));
        assert_eq!(decoded(&mut decoder, both), "call");
    }

    #[test]
    fn a_result_that_is_not_the_kind_asked_for_takes_the_generic_path() {
        let mut decoder = ServerMessageDecoder::new();
        decoder.note_sent(&call(1));
        assert_eq!(
            decoded(&mut decoder, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            "empty"
        );
        assert!(decoder.awaited.is_empty());
    }

    #[test]
    fn errors_cancellations_and_server_requests_are_handled() {
        let mut decoder = ServerMessageDecoder::new();
        decoder.note_sent(&call(1));
        decoder.note_sent(&call(2));
        // A server request may reuse a client id: it is not a response.
        let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert_eq!(decoded(&mut decoder, ping), "request");
        assert_eq!(decoder.awaited.len(), 2);
        let failed = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}"#;
        assert_eq!(decoded(&mut decoder, failed), "error");
        let cancel = CancelledNotificationParam::new(Some(NumberOrString::Number(2)), None);
        let cancel =
            ClientNotification::CancelledNotification(rmcp::model::Notification::new(cancel));
        decoder.note_sent(&ClientJsonRpcMessage::notification(cancel));
        assert!(decoder.awaited.is_empty());
        assert!(decoder.decode(b"not json").is_err());
        assert!(matches!(decoder.decode(b"  "), Ok(None)));
    }

    #[test]
    fn stops_remembering_at_the_bound() {
        let mut decoder = ServerMessageDecoder::new();
        for id in 0..MAX_AWAITED as i64 + 10 {
            decoder.note_sent(&call(id));
        }
        assert_eq!(decoder.awaited.len(), MAX_AWAITED);
        let late = format!(
            r#"{{"jsonrpc":"2.0","id":{},"result":{{"content":[]}}}}"#,
            MAX_AWAITED + 5
        );
        assert_eq!(decoded(&mut decoder, &late), "call");
    }
}
