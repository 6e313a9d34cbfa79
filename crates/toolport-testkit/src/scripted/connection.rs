//! [`ScriptedConnection`]: the test's end of one connection: it reads what the client sent
//! and answers as the server.

use std::fmt;
use std::time::Duration;

use rmcp::service::{RoleClient, RxJsonRpcMessage};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use toolport_core::ReadonlyContext;

/// How long an `expect_*` waits for the client's next message before it fails the test. Under
/// `start_paused`, time only advances while the client is idle, so this never fires early.
const EXPECT_WAIT: Duration = Duration::from_secs(30);

/// One message the client sent: its JSON as it would go on the wire, and the caller's context
/// the session attached to it (which a real transport turns into headers).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ClientMessage {
    /// The JSON-RPC message.
    pub json: Value,
    /// The context of the caller the request was made for, if any.
    pub context: Option<ReadonlyContext>,
}

impl ClientMessage {
    /// The message's `method`, for a request or a notification.
    pub fn method(&self) -> Option<&str> {
        self.json.get("method").and_then(Value::as_str)
    }

    /// The request's `id`, for a request.
    pub fn id(&self) -> Option<&Value> {
        self.json.get("id")
    }

    /// The message's `params` (`null` when it has none).
    pub fn params(&self) -> &Value {
        self.json.get("params").unwrap_or(&Value::Null)
    }
}

/// The test's end of one connection the client made. Dropping it ends the connection, as a
/// crashed server would: the client sees its transport close.
pub struct ScriptedConnection {
    sent: mpsc::UnboundedReceiver<ClientMessage>,
    to_client: mpsc::UnboundedSender<Value>,
}

impl ScriptedConnection {
    pub(crate) fn new(
        sent: mpsc::UnboundedReceiver<ClientMessage>,
        to_client: mpsc::UnboundedSender<Value>,
    ) -> Self {
        Self { sent, to_client }
    }

    /// The client's next message, or `None` once it closed the connection.
    pub async fn recv(&mut self) -> Option<ClientMessage> {
        self.sent.recv().await
    }

    /// The message the client already sent and the test has not read yet, without waiting:
    /// proof that something was written to the transport by now.
    pub fn try_recv(&mut self) -> Option<ClientMessage> {
        self.sent.try_recv().ok()
    }

    /// The client's next message, which must be a request for `method`.
    ///
    /// # Panics
    ///
    /// When the next message is anything else, or none comes.
    pub async fn expect_request(&mut self, method: &str) -> ClientMessage {
        let message = self.expect(method).await;
        assert!(
            message.id().is_some(),
            "expected a {method} request, got {message:?}"
        );
        message
    }

    /// The client's next message, which must be a notification `method`.
    ///
    /// # Panics
    ///
    /// When the next message is anything else, or none comes.
    pub async fn expect_notification(&mut self, method: &str) -> ClientMessage {
        let message = self.expect(method).await;
        assert!(
            message.id().is_none(),
            "expected a {method} notification, got {message:?}"
        );
        message
    }

    /// Waits until the client closes the connection, failing on any message it sends first.
    ///
    /// # Panics
    ///
    /// When the client sends a message, or does not close in time.
    pub async fn expect_closed(&mut self) {
        match tokio::time::timeout(EXPECT_WAIT, self.recv()).await {
            Ok(None) => {}
            Ok(Some(message)) => panic!("expected the client to close, it sent {message:?}"),
            Err(_) => panic!("the client did not close the connection"),
        }
    }

    async fn expect(&mut self, method: &str) -> ClientMessage {
        let message = self.next_or_panic(method).await;
        assert_eq!(message.method(), Some(method), "{message:?}");
        message
    }

    /// The client's next message, within the wait; `expected` says what for a panic.
    async fn next_or_panic(&mut self, expected: &str) -> ClientMessage {
        let next = tokio::time::timeout(EXPECT_WAIT, self.recv()).await;
        match next {
            Ok(Some(message)) => message,
            Ok(None) => panic!("expected {expected}, the client closed the connection"),
            Err(_) => panic!("expected {expected}, the client sent nothing"),
        }
    }

    /// Answers `request` with `result`.
    ///
    /// # Panics
    ///
    /// When `request` is not a request, or the answer is not one the client can read.
    pub fn respond(&self, request: &ClientMessage, result: Value) {
        let id = request.id().expect("only requests are answered").clone();
        self.send(json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }

    /// Answers `request` with a JSON-RPC error.
    ///
    /// # Panics
    ///
    /// When `request` is not a request.
    pub fn respond_error(&self, request: &ClientMessage, code: i32, message: &str) {
        let id = request.id().expect("only requests are answered").clone();
        let error = json!({"code": code, "message": message});
        self.send(json!({"jsonrpc": "2.0", "id": id, "error": error}));
    }

    /// Sends the notification `method` with `params`.
    pub fn notify(&self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Answers the client's `initialize` with [`initialize_result`] and takes its
    /// `notifications/initialized`: the handshake, for tests about what comes after. The
    /// scripted server speaks 2025-11-25 alone, so a negotiating client's `server/discover`
    /// probe first gets `Method not found`, as from any older server.
    ///
    /// # Panics
    ///
    /// When the client sends anything else first.
    pub async fn complete_handshake(&mut self) {
        let first = self.next_or_panic("initialize").await;
        let initialize = if first.method() == Some("server/discover") {
            self.respond_error(&first, -32601, "Method not found: server/discover");
            self.expect_request("initialize").await
        } else {
            assert_eq!(first.method(), Some("initialize"), "{first:?}");
            first
        };
        self.respond(&initialize, initialize_result());
        self.expect_notification("notifications/initialized").await;
    }

    /// Sends any message, given as JSON.
    ///
    /// # Panics
    ///
    /// When the client could not read it as a server message.
    pub fn send(&self, message: Value) {
        if let Err(error) = serde_json::from_value::<RxJsonRpcMessage<RoleClient>>(message.clone())
        {
            panic!("the client cannot read {message}: {error}");
        }
        // A client that closed the connection reads nothing more; that is its business.
        let _ = self.to_client.send(message);
    }
}

impl fmt::Debug for ScriptedConnection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScriptedConnection").finish_non_exhaustive()
    }
}

/// The result of a plain `initialize`: protocol 2025-11-25, the `tools` capability with list
/// changes, and the server `toolport-scripted`.
pub fn initialize_result() -> Value {
    json!({
        "protocolVersion": "2025-11-25",
        "capabilities": {"tools": {"listChanged": true}},
        "serverInfo": {"name": "toolport-scripted", "version": "1.0.0"},
    })
}
