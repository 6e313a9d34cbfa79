//! [`Link`]: what a transport's sends and its stream readers share: the server, the queue of
//! messages for `receive`, the exchanges in flight, and whether the session has ended.

use std::sync::{Arc, Mutex};

use rmcp::model::{JsonRpcMessage, ServerJsonRpcMessage, ServerResult};
use tokio::sync::mpsc;
use toolport_codec::ServerMessageDecoder;
use toolport_core::UnmodeledFields;

use crate::in_flight::InFlight;
use crate::remote::Remote;
use crate::tool_headers::ToolHeaders;

/// How many server messages may wait for `receive`; stream readers wait meanwhile.
pub(crate) const QUEUE: usize = 64;

/// What a reader hands `receive`.
pub(crate) enum Inbound {
    /// A message from the server, decoded. Boxed, so that the queue stays small.
    Message(Box<ServerJsonRpcMessage>),
    /// The session is over (the diagnostics say why): `receive` returns `None` from here on.
    End,
}

/// The state one transport shares with its sends and readers.
pub(crate) struct Link {
    pub(crate) remote: Remote,
    pub(crate) in_flight: InFlight,
    /// The `x-mcp-header` annotations of the tools listed, on a 2026-07-28 session.
    pub(crate) tool_headers: ToolHeaders,
    /// What a 2025-11-25 server says of tasks, which every decoder of this link keeps.
    pub(crate) unmodeled_fields: Arc<UnmodeledFields>,
    inbox: mpsc::Sender<Inbound>,
    /// Why the session ended, once it has.
    ended: Mutex<Option<String>>,
}

impl Link {
    /// A link to `remote`, and the receiving end of its queue.
    pub(crate) fn new(remote: Remote) -> (Self, mpsc::Receiver<Inbound>) {
        let (inbox, messages) = mpsc::channel(QUEUE);
        let link = Self {
            remote,
            in_flight: InFlight::default(),
            tool_headers: ToolHeaders::default(),
            unmodeled_fields: Arc::default(),
            inbox,
            ended: Mutex::new(None),
        };
        (link, messages)
    }

    /// A decoder for a stream or answer of this link, which keeps what the server says that
    /// rmcp's model drops.
    pub(crate) fn decoder(&self) -> ServerMessageDecoder {
        ServerMessageDecoder::new().with_unmodeled_fields(Arc::clone(&self.unmodeled_fields))
    }

    /// Hands `message` to `receive`. It keeps the protocol version of an `initialize` answer
    /// for the requests after it, and on a session with the standard headers, learns the
    /// `x-mcp-header` annotations of listed tools (leaving out tools whose annotations are
    /// invalid). Waits while the queue is full.
    pub(crate) async fn deliver(&self, mut message: ServerJsonRpcMessage) {
        if let JsonRpcMessage::Response(response) = &mut message {
            match &mut response.result {
                ServerResult::InitializeResult(result) => {
                    self.remote
                        .session
                        .set_version(result.protocol_version.as_str());
                }
                ServerResult::ListToolsResult(page)
                    if self.remote.session.has_standard_headers() =>
                {
                    self.tool_headers.learn(page);
                }
                _ => {}
            }
        }
        // The receiver is gone only when the transport is, and then nobody reads.
        let _ = self.inbox.send(Inbound::Message(Box::new(message))).await;
    }

    /// Ends the session for `reason` and closes `receive` once it has handed out what came
    /// before, so that rmcp fails the requests still awaiting answers (their outcome unknown).
    pub(crate) async fn end(&self, reason: impl Into<String>) {
        let reason = reason.into();
        if !self.stop_sending(&reason) {
            return;
        }
        // Queued before the readers stop: the caller may be one of them.
        let _ = self.inbox.send(Inbound::End).await;
        self.in_flight.stop_all();
    }

    /// Ends the session for `reason` without closing `receive`: every later send fails as not
    /// delivered, so the session above starts a new one and sends it there. This is how a
    /// forgotten session ends, since the request that found out must fail as not delivered
    /// rather than be cut off by a closing transport. Only the first reason is kept; whether
    /// this was it.
    pub(crate) fn stop_sending(&self, reason: &str) -> bool {
        let mut ended = self.ended.lock().unwrap_or_else(|e| e.into_inner());
        if ended.is_some() {
            return false;
        }
        *ended = Some(reason.to_owned());
        tracing::debug!(%reason, "the Streamable HTTP session ended");
        self.remote.diagnostics.record(reason);
        true
    }

    /// Why the session ended, if it has.
    pub(crate) fn ended(&self) -> Option<String> {
        self.ended.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
