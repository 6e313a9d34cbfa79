//! [`Sessions`]: the legacy SSE sessions of one server generation, each an rmcp server fed by the
//! POSTs to its id and writing to its SSE stream.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::{ServerHandler, ServiceExt};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::transport::ChannelTransport;

/// How many messages may wait in each direction of a session.
const QUEUE: usize = 64;

/// Numbers session ids across every server in the process, so that no restart reuses one.
static NEXT_SESSION: AtomicU64 = AtomicU64::new(1);

/// The open sessions, by id, with the sender that feeds each server.
pub(super) struct Sessions {
    inboxes: Mutex<HashMap<String, mpsc::Sender<ClientJsonRpcMessage>>>,
    closed: CancellationToken,
}

impl Sessions {
    pub(super) fn new() -> Arc<Self> {
        Arc::new(Self {
            inboxes: Mutex::new(HashMap::new()),
            closed: CancellationToken::new(),
        })
    }

    /// Runs `server` for a new session. Returns its id, the messages for its SSE stream, and the
    /// guard that ends the session when dropped.
    pub(super) fn open<S: ServerHandler>(
        self: &Arc<Self>,
        server: S,
    ) -> (String, mpsc::Receiver<ServerJsonRpcMessage>, SessionGuard) {
        let id = format!("sse-{}", NEXT_SESSION.fetch_add(1, Ordering::Relaxed));
        let (to_server, from_client) = mpsc::channel(QUEUE);
        let (to_client, from_server) = mpsc::channel(QUEUE);
        self.lock().insert(id.clone(), to_server);
        let ended = self.closed.child_token();
        let transport = ChannelTransport::new(to_client, from_client);
        let serving_ended = ended.clone();
        tokio::spawn(async move {
            let serving = async {
                // A client that never initializes is not an error worth reporting here.
                if let Ok(running) = server.serve(transport).await {
                    let _ = running.waiting().await;
                }
            };
            tokio::select! {
                () = serving_ended.cancelled() => {}
                () = serving => {}
            }
        });
        let guard = SessionGuard {
            id: id.clone(),
            sessions: Arc::clone(self),
            ended,
        };
        (id, from_server, guard)
    }

    /// The sender feeding the server of session `id`, if it is open.
    pub(super) fn inbox(&self, id: &str) -> Option<mpsc::Sender<ClientJsonRpcMessage>> {
        self.lock().get(id).cloned()
    }

    /// Ends every session.
    pub(super) fn close_all(&self) {
        self.closed.cancel();
        self.lock().clear();
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, mpsc::Sender<ClientJsonRpcMessage>>> {
        self.inboxes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Ends its session when dropped: the id is forgotten and the server stops.
pub(super) struct SessionGuard {
    id: String,
    sessions: Arc<Sessions>,
    ended: CancellationToken,
}

impl Drop for SessionGuard {
    fn drop(&mut self) {
        self.sessions.lock().remove(&self.id);
        self.ended.cancel();
    }
}
