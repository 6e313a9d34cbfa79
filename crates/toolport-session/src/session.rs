//! [`McpSession`]: one lazily created session, shared by every caller, reconnected when it dies.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::ServiceError;
use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::{Peer, RoleClient};
use tokio::sync::broadcast;
use toolport_core::{Connector, Timeouts};

use crate::connection::LiveConnection;
use crate::handler::{EventHub, SessionHandler};
use crate::{RetryPolicy, ServerEvent, SessionBuilder, SessionError};

/// Whether a `tools/call` may be sent again when the connection dies under it.
///
/// A call that failed midway may or may not have run on the server. Replaying a refund or a
/// message send is worse than an error that says the outcome is unknown, so the default is
/// [`CallReplay::Never`]. `McpToolset` picks [`CallReplay::OnConnectionLoss`] for tools
/// annotated `readOnlyHint` or `idempotentHint`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CallReplay {
    /// Never resend; a lost connection gives [`SessionError::OutcomeUncertain`].
    #[default]
    Never,
    /// Reconnect and resend once when the connection is lost mid-call.
    OnConnectionLoss,
}

/// One MCP session, shared by every caller of a toolset.
///
/// It connects on first use, and again on the next use after the transport died. Requests run
/// concurrently: no lock is held across a request. Cloning is cheap and shares the session.
/// [`close`](Self::close) ends it; dropping the last clone closes it in the background.
///
/// # Examples
///
/// ```
/// # async fn run() -> Result<(), toolport_session::SessionError> {
/// use toolport_session::McpSession;
/// use toolport_testkit::task_tracker_connector;
///
/// let session = McpSession::new(task_tracker_connector());
/// let tools = session.list_tools().await?;
/// assert!(tools.iter().any(|tool| tool.name == "list_tasks"));
/// session.close().await;
/// # Ok(())
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(run()).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct McpSession {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    connector: Arc<dyn Connector>,
    target: String,
    timeouts: Timeouts,
    retry: RetryPolicy,
    handler: SessionHandler,
    hub: Arc<EventHub>,
    current: Mutex<Option<Arc<LiveConnection>>>,
    connecting: tokio::sync::Mutex<()>,
    closed: AtomicBool,
}

impl McpSession {
    /// A session with the default settings.
    pub fn new(connector: impl Connector) -> Self {
        Self::builder(connector).build()
    }

    /// A builder for a session with custom timeouts, retries or client info.
    pub fn builder(connector: impl Connector) -> SessionBuilder {
        SessionBuilder::new(Arc::new(connector))
    }

    /// A builder for a session over a shared connector.
    pub fn builder_shared(connector: Arc<dyn Connector>) -> SessionBuilder {
        SessionBuilder::new(connector)
    }

    pub(crate) fn from_builder(builder: SessionBuilder) -> Self {
        let hub = Arc::new(EventHub::new());
        let handler = SessionHandler::new(builder.client, builder.protocol_version, hub.clone());
        Self {
            inner: Arc::new(Inner {
                target: builder.connector.target(),
                connector: builder.connector,
                timeouts: builder.timeouts,
                retry: builder.retry,
                handler,
                hub,
                current: Mutex::new(None),
                connecting: tokio::sync::Mutex::new(()),
                closed: AtomicBool::new(false),
            }),
        }
    }

    /// The server, as its connector describes it (for messages).
    pub fn target(&self) -> &str {
        &self.inner.target
    }

    /// The bounds this session applies.
    pub fn timeouts(&self) -> Timeouts {
        self.inner.timeouts
    }

    /// The rmcp peer of the live connection, connecting first if needed. For requests this
    /// crate does not wrap; bound them yourself.
    pub async fn peer(&self) -> Result<Peer<RoleClient>, SessionError> {
        Ok(self.connection().await?.peer.clone())
    }

    /// Every tool the server lists, all pages, fetched now (no cache at this layer). Retried
    /// per the [`RetryPolicy`] on a fresh session.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, SessionError> {
        self.discover(
            "tools/list",
            |peer| async move { peer.list_all_tools().await },
        )
        .await
    }

    /// Calls a tool, bounded by the request timeout.
    ///
    /// A server-side tool error is a successful `CallToolResult` with `is_error` set. A lost
    /// connection is replayed only as `replay` allows; otherwise it is
    /// [`SessionError::OutcomeUncertain`].
    pub async fn call_tool(
        &self,
        params: CallToolRequestParams,
        replay: CallReplay,
    ) -> Result<CallToolResult, SessionError> {
        let replay_params = (replay == CallReplay::OnConnectionLoss).then(|| params.clone());
        let tool = params.name.to_string();
        let connection = self.connection().await?;
        let first = self
            .bounded(
                &connection,
                || format!("tools/call {tool}"),
                connection.peer.call_tool(params),
            )
            .await;
        let Err(SessionError::ConnectionLost { details, .. }) = first else {
            return first;
        };
        self.discard(&connection).await;
        let Some(params) = replay_params else {
            return Err(SessionError::OutcomeUncertain {
                target: self.inner.target.clone(),
                tool,
                details,
            });
        };
        tracing::info!(target = %self.inner.target, %tool, "connection lost mid-call; replaying a call marked safe to repeat");
        let connection = self.connection().await?;
        self.bounded(
            &connection,
            || format!("tools/call {tool}"),
            connection.peer.call_tool(params),
        )
        .await
    }

    /// A receiver of the server's notifications, from now on. A receiver that falls more than
    /// 256 events behind skips the oldest.
    pub fn subscribe(&self) -> broadcast::Receiver<ServerEvent> {
        self.inner.hub.subscribe()
    }

    /// A number that changes whenever a tool list fetched earlier may be stale: on
    /// `notifications/tools/list_changed` and on every new connection. Compare it to decide
    /// whether a cached list still holds.
    pub fn tool_list_epoch(&self) -> u64 {
        self.inner.hub.tool_list_epoch()
    }

    /// Ends the session and waits until its transport has closed. Later requests fail with
    /// [`SessionError::Closed`]. Calling it twice is harmless.
    pub async fn close(&self) {
        self.inner.closed.store(true, Ordering::Release);
        let _connecting = self.inner.connecting.lock().await;
        let current = self.take_current();
        if let Some(connection) = current {
            connection.shut_down().await;
        }
    }

    /// Runs a discovery request with retries, discarding the session before each retry.
    async fn discover<T, F, Fut>(&self, method: &str, request: F) -> Result<T, SessionError>
    where
        F: Fn(Peer<RoleClient>) -> Fut,
        Fut: Future<Output = Result<T, ServiceError>>,
    {
        self.inner
            .retry
            .run(
                || async {
                    let connection = self.connect_once().await?;
                    let result = self
                        .bounded(
                            &connection,
                            || method.to_owned(),
                            request(connection.peer.clone()),
                        )
                        .await;
                    if result.is_err() && !connection.is_alive() {
                        self.discard(&connection).await;
                    }
                    result
                },
                || async {
                    let current = self.take_current();
                    if let Some(connection) = current {
                        shut_down_in_background(connection);
                    }
                },
            )
            .await
    }

    /// The live connection, connecting (with retries) if there is none or it died.
    async fn connection(&self) -> Result<Arc<LiveConnection>, SessionError> {
        if let Some(connection) = self.current_if_alive() {
            return Ok(connection);
        }
        self.inner
            .retry
            .run(|| self.connect_once(), || async {})
            .await
    }

    /// The live connection, or one connection attempt. Concurrent callers share the attempt.
    async fn connect_once(&self) -> Result<Arc<LiveConnection>, SessionError> {
        if let Some(connection) = self.current_if_alive() {
            return Ok(connection);
        }
        let _connecting = self.inner.connecting.lock().await;
        if self.inner.closed.load(Ordering::Acquire) {
            return Err(SessionError::Closed {
                target: self.inner.target.clone(),
            });
        }
        if let Some(connection) = self.current_if_alive() {
            return Ok(connection);
        }
        if let Some(dead) = self.take_current() {
            tracing::info!(target = %self.inner.target, details = ?dead.failure_details(), "transport died; reconnecting");
            shut_down_in_background(dead);
        }
        let connection = Arc::new(
            LiveConnection::open(
                self.inner.connector.as_ref(),
                &self.inner.target,
                &self.inner.timeouts,
                self.inner.handler.clone(),
            )
            .await?,
        );
        *self.lock_current() = Some(connection.clone());
        self.inner.hub.publish(ServerEvent::Reconnected);
        Ok(connection)
    }

    /// Bounds a request by the request timeout and names its failure.
    async fn bounded<T>(
        &self,
        connection: &LiveConnection,
        method: impl FnOnce() -> String,
        request: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, SessionError> {
        let timeout = self.inner.timeouts.request;
        // Dropping the request future on timeout sends `notifications/cancelled`.
        let outcome = tokio::time::timeout(timeout, request).await;
        let target = || self.inner.target.clone();
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Err(_) => Err(SessionError::RequestTimeout {
                target: target(),
                method: method(),
                timeout,
            }),
            Ok(Err(ServiceError::McpError(error))) => Err(SessionError::Rpc {
                target: target(),
                method: method(),
                error,
            }),
            Ok(Err(ServiceError::Timeout { timeout })) => Err(SessionError::RequestTimeout {
                target: target(),
                method: method(),
                timeout,
            }),
            Ok(Err(ServiceError::UnexpectedResponse)) => Err(SessionError::UnexpectedResponse {
                target: target(),
                method: method(),
            }),
            Ok(Err(error)) => {
                tracing::debug!(%error, "request failed on the transport");
                Err(SessionError::ConnectionLost {
                    target: target(),
                    method: method(),
                    details: connection.failure_details(),
                })
            }
        }
    }

    /// Drops `connection` if it is still the current one, and closes it in the background.
    async fn discard(&self, connection: &Arc<LiveConnection>) {
        let removed = {
            let mut current = self.lock_current();
            match current.as_ref() {
                Some(live) if Arc::ptr_eq(live, connection) => current.take(),
                _ => None,
            }
        };
        if let Some(removed) = removed {
            shut_down_in_background(removed);
        }
    }

    fn current_if_alive(&self) -> Option<Arc<LiveConnection>> {
        self.lock_current()
            .as_ref()
            .filter(|connection| connection.is_alive())
            .cloned()
    }

    fn take_current(&self) -> Option<Arc<LiveConnection>> {
        self.lock_current().take()
    }

    fn lock_current(&self) -> std::sync::MutexGuard<'_, Option<Arc<LiveConnection>>> {
        // The guarded value is a plain Option, valid even if a holder panicked.
        self.inner.current.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn shut_down_in_background(connection: Arc<LiveConnection>) {
    tokio::spawn(async move { connection.shut_down().await });
}
