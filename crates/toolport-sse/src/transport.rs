//! [`SseTransport`]: rmcp's `Transport<RoleClient>` over a legacy HTTP+SSE connection: messages
//! are posted to the endpoint, answers arrive on the event stream.

use std::fmt;
use std::sync::Arc;

use http::Uri;
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use toolport_codec::ServerMessageDecoder;
use toolport_core::{NotDelivered, UnmodeledFields};
use url::Url;

use crate::open::Opened;
use crate::post::post;
use crate::reader::{Reader, StreamState};
use crate::remote::Remote;
use crate::{SseDiagnostics, SseError};

/// How many server messages may wait for `receive` (undecoded); the stream is not read further
/// meanwhile.
const QUEUE: usize = 64;

/// One legacy HTTP+SSE connection (MCP 2024-11-05): each message is posted to the endpoint the
/// server named, and the server's messages arrive as `message` events on the stream.
///
/// Made, boxed, by [`Connector::connect`](toolport_core::Connector::connect). A task reads the
/// stream; when the stream drops it reconnects up to
/// [`SseServer::MAX_RECONNECTS`](crate::SseServer::MAX_RECONNECTS) times and carries on only if
/// the server names the same endpoint again. Otherwise [`receive`](Transport::receive) returns
/// `None` and [`SseDiagnostics`] says why, so the session above starts a new one. A 404 on a
/// post means the server forgot the session: that message and every later one fail as not
/// delivered, so the session above starts a new one and sends them there.
///
/// A `message` event that is not JSON-RPC is skipped with a warning and remembered in the
/// diagnostics; one larger than the response limit is dropped. Posts wait (within the connect
/// timeout) while the stream reconnects. [`close`](Transport::close) or dropping the transport
/// stops the task and drops the stream.
pub(crate) struct SseTransport {
    remote: Arc<Remote>,
    endpoint: Url,
    endpoint_uri: Arc<Uri>,
    /// The data of the stream's `message` events, decoded by `receive`.
    messages: mpsc::Receiver<String>,
    decoder: ServerMessageDecoder,
    /// What the server says that rmcp's model drops, which the decoder keeps.
    unmodeled_fields: Arc<UnmodeledFields>,
    state: Arc<watch::Sender<StreamState>>,
    reader: Option<JoinHandle<()>>,
}

impl SseTransport {
    /// Starts the task that reads the stream `opened`.
    pub(crate) fn start(remote: Arc<Remote>, opened: Opened) -> Result<Self, SseError> {
        let endpoint_uri =
            opened
                .endpoint
                .as_str()
                .parse::<Uri>()
                .map_err(|error| SseError::InvalidEndpoint {
                    reason: error.to_string(),
                })?;
        let endpoint = opened.endpoint.clone();
        let (sender, messages) = mpsc::channel(QUEUE);
        let state = Arc::new(watch::Sender::new(StreamState::Up));
        let (reader, early) = Reader::new(remote.clone(), opened, sender, state.clone());
        let reader = tokio::spawn(reader.run(early));
        let unmodeled_fields = Arc::new(UnmodeledFields::default());
        Ok(Self {
            remote,
            endpoint,
            endpoint_uri: Arc::new(endpoint_uri),
            messages,
            decoder: ServerMessageDecoder::new()
                .with_unmodeled_fields(Arc::clone(&unmodeled_fields)),
            unmodeled_fields,
            state,
            reader: Some(reader),
        })
    }

    /// What the server said that rmcp's model drops, as the transport decoded it.
    pub(crate) fn unmodeled_fields(&self) -> Arc<UnmodeledFields> {
        Arc::clone(&self.unmodeled_fields)
    }

    /// The diagnostics this transport fills: why the stream ended, what was skipped.
    pub(crate) fn diagnostics(&self) -> Arc<SseDiagnostics> {
        Arc::clone(&self.remote.diagnostics)
    }

    fn stop_reader(&mut self) {
        if let Some(reader) = self.reader.take() {
            reader.abort();
        }
    }
}

/// Waits while the stream reconnects (within the connect timeout); fails once it has ended.
async fn wait_until_up(
    mut state: watch::Receiver<StreamState>,
    remote: &Remote,
) -> Result<(), SseError> {
    let timeout = remote.connect_timeout;
    let settled = tokio::time::timeout(
        timeout,
        state.wait_for(|state| *state != StreamState::Reconnecting),
    )
    .await;
    match settled {
        Ok(Ok(state)) if *state == StreamState::Up => Ok(()),
        Ok(_) => Err(SseError::Ended {
            reason: remote
                .diagnostics
                .end_reason()
                .unwrap_or_else(|| "the transport was closed".to_owned()),
            not_delivered: NotDelivered::new(),
        }),
        Err(_) => Err(SseError::Reconnecting {
            timeout,
            not_delivered: NotDelivered::new(),
        }),
    }
}

impl Transport<RoleClient> for SseTransport {
    type Error = SseError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.decoder.note_sent(&item);
        let remote = Arc::clone(&self.remote);
        let endpoint = Arc::clone(&self.endpoint_uri);
        let state = Arc::clone(&self.state);
        async move {
            wait_until_up(state.subscribe(), &remote).await?;
            let result = post(&remote, &endpoint, &item).await;
            match &result {
                Err(error @ SseError::SessionGone { .. }) => {
                    // Every later message would be refused too: they fail as not delivered,
                    // and the session above starts a new one. `receive` stays open, so that
                    // this message's error is what its caller sees.
                    tracing::info!(target = %remote.target, %error, "the legacy SSE session ended");
                    remote.diagnostics.record_end(error.to_string());
                    state.send_replace(StreamState::Ended);
                }
                Err(error) if !matches!(error, SseError::Ended { .. }) => {
                    tracing::debug!(target = %remote.target, %error, "posting a message failed");
                    remote
                        .diagnostics
                        .record_failure(format!("posting a message failed: {error}"));
                }
                _ => {}
            }
            result
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        while let Some(data) = self.messages.recv().await {
            match self.decoder.decode(data.as_bytes()) {
                Ok(Some(message)) => return Some(message),
                Ok(None) => {}
                Err(error) => {
                    let start: String = data.chars().take(200).collect();
                    tracing::warn!(target = %self.remote.target, %error, data = %start, "skipped an event that is not JSON-RPC");
                    self.remote.diagnostics.record_garbage(&data);
                }
            }
        }
        None
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.stop_reader();
        self.state.send_replace(StreamState::Ended);
        self.messages.close();
        if self.remote.diagnostics.end_reason().is_none() {
            self.remote
                .diagnostics
                .record_end("the client closed the transport");
        }
        Ok(())
    }
}

impl Drop for SseTransport {
    fn drop(&mut self) {
        self.stop_reader();
    }
}

impl fmt::Debug for SseTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SseTransport")
            .field("target", &self.remote.target)
            // Its path alone: its origin is the stream's, which the target names.
            .field("endpoint", &self.endpoint.path())
            .field("state", &*self.state.borrow())
            .finish_non_exhaustive()
    }
}
