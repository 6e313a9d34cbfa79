//! [`McpSession`]: one lazily created session, shared by every caller, reconnected when it dies.
//! Its live connection is kept in `connect.rs`, a tool call's bound and replay rules are in
//! `call.rs`, and the changes it follows are in `subscribe.rs`.

mod call;
mod connect;
mod input_rounds;
mod legacy_task_run;
mod subscribe;
mod task_run;

use std::future::Future;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    ClientRequest, GetMeta as _, ListToolsRequest, PaginatedRequestParams, PingRequest,
    ProtocolVersion, ServerCapabilities, ServerResult, Tool,
};
use rmcp::service::{Peer, RoleClient};
use tokio_util::task::TaskTracker;
use toolport_core::{
    ConnectionDiagnostics, Connector, ProtocolChoice, ReadonlyContext, ServerExit, TaskSupport,
    Timeouts,
};
use tracing::Instrument as _;

use crate::call_slots::CallSlots;
use crate::connection::LiveConnection;
use crate::handler::{EventHub, SessionHandler};
use crate::listing::{CacheHints, Listing, Page, PagesRead};
use crate::lock::lock;
use crate::method::Method;
use crate::progress::ProgressWanted;
use crate::request::{self, CANCEL_FLUSH};
use crate::restart_notice::PendingRestarts;
use crate::span;
use crate::{RetryPolicy, ServerEvents, SessionBuilder, SessionError, TaskPolicy, TracePropagator};
use connect::shut_down_in_background;
pub(crate) use input_rounds::DEFAULT_MAX_INPUT_ROUNDS;

/// A server that keeps handing out `nextCursor`s is cut off after this many pages.
const MAX_LIST_PAGES: usize = 1_000;

/// One MCP session, shared by every caller of a toolset.
///
/// It connects on first use (or at [`connect`](Self::connect)), and again on the next use after
/// the transport died. Requests run concurrently: no lock is held across a request. Cloning is
/// cheap and shares the session. [`close`](Self::close) ends it and says how the server ended;
/// dropping the last clone closes it in the background.
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
    /// The bound on tool calls in flight, when the session has one.
    call_slots: Option<CallSlots>,
    retry: RetryPolicy,
    protocol: ProtocolChoice,
    /// The version a negotiation settled on, kept for the next connections (the era is the
    /// server's, not a connection's); forgotten when a connection attempt fails.
    negotiated: Mutex<Option<ProtocolVersion>>,
    handler: SessionHandler,
    hub: Arc<EventHub>,
    current: Mutex<Option<Arc<LiveConnection>>>,
    /// What the transport of the last connection the session let go of knows about its
    /// failure, while there is no current one.
    lost_diagnostics: Mutex<Option<Arc<dyn ConnectionDiagnostics>>>,
    connecting: tokio::sync::Mutex<()>,
    /// How many times a request the server answers with `input_required` is sent in all.
    max_input_rounds: usize,
    /// How calls the server runs as tasks are followed.
    tasks: TaskPolicy,
    /// Cancellations of requests whose callers stopped waiting, still on their way out.
    cancellations: TaskTracker,
    /// Writes each 2026-07-28 request's trace context into its `_meta`.
    trace_propagator: Option<Arc<dyn TracePropagator>>,
    /// Whether a connection was ever made, so the next one is a reconnect.
    connected_once: AtomicBool,
    /// Restarts a supervisor noted, for the next operation's span.
    restarts: PendingRestarts,
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
        let hub = Arc::new(EventHub::new(builder.on_resource_updated));
        let target = builder.connector.target();
        let handler = SessionHandler::new(
            Arc::from(target.as_str()),
            builder.client,
            builder.protocol.handshake_version(),
            hub.clone(),
            builder.elicitation,
            builder.tasks.offered,
        );
        Self {
            inner: Arc::new(Inner {
                target,
                connector: builder.connector,
                timeouts: builder.timeouts,
                call_slots: builder.max_concurrent_calls.map(CallSlots::new),
                retry: builder.retry,
                protocol: builder.protocol,
                negotiated: Mutex::new(None),
                handler,
                hub,
                current: Mutex::new(None),
                lost_diagnostics: Mutex::new(None),
                connecting: tokio::sync::Mutex::new(()),
                max_input_rounds: builder.max_input_rounds,
                tasks: builder.tasks,
                trace_propagator: builder.trace_propagator,
                cancellations: TaskTracker::new(),
                connected_once: AtomicBool::new(false),
                restarts: PendingRestarts::default(),
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

    /// How many tool calls may be in flight at once
    /// ([`SessionBuilder::max_concurrent_calls`]); `None` for no limit.
    pub fn max_concurrent_calls(&self) -> Option<NonZeroUsize> {
        self.inner.call_slots.as_ref().map(CallSlots::limit)
    }

    /// The protocol version the live connection speaks, as its handshake (or
    /// `server/discover`) settled it; `None` while there is no live connection.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        let connection = self.current_if_alive()?;
        let info = connection.peer.peer_info()?;
        Some(info.protocol_version.clone())
    }

    /// The capabilities the server declared on the live connection (in its `initialize`
    /// answer, or its `server/discover` one); `None` while there is no live connection.
    pub fn server_capabilities(&self) -> Option<ServerCapabilities> {
        let connection = self.current_if_alive()?;
        Some(connection.peer.peer_info()?.capabilities.clone())
    }

    /// Whether a call of `tool` now runs as a 2025-11-25 task: the session offers tasks, and
    /// the live connection speaks 2025-11-25 to a server that runs tool calls as tasks and
    /// whose latest listing gave `tool` an `execution.taskSupport` of `required` or
    /// `optional`. False without a live connection, and on 2026-07-28, where the server decides
    /// call by call whether to answer with a task.
    pub fn runs_as_task(&self, tool: &str) -> bool {
        self.inner.tasks.offered
            && self.current_if_alive().is_some_and(|connection| {
                connection
                    .legacy_tasks()
                    .is_some_and(|known| known.support_of(tool) != TaskSupport::Forbidden)
            })
    }

    /// `tool`, from a listing of this session, as the server's latest listing on the live
    /// connection gave it: its JSON with the members rmcp's `Tool` drops put back (a
    /// 2025-11-25 `execution`, any member a newer server adds, `annotations` or `icons` whole
    /// when they hold one). Without a live connection, or over a transport that does not keep
    /// them ([`Connection::unmodeled_fields`](toolport_core::Connection::unmodeled_fields)),
    /// `tool`'s own JSON.
    pub fn tool_as_listed(&self, tool: &Tool) -> serde_json::Result<serde_json::Value> {
        let mut listed = serde_json::to_value(tool)?;
        let unmodeled = self
            .current_if_alive()
            .and_then(|connection| connection.tool_fields(&tool.name));
        if let (Some(unmodeled), serde_json::Value::Object(members)) = (unmodeled, &mut listed) {
            members.extend(unmodeled);
        }
        Ok(listed)
    }

    /// Whether the session has a live connection now: false before the first connect, after
    /// the transport died (a crashed child, a dropped stream) and after [`close`](Self::close).
    /// The next use of a session that is not connected connects again.
    pub fn is_connected(&self) -> bool {
        !self.inner.closed.load(Ordering::Acquire) && self.current_if_alive().is_some()
    }

    /// What the transport knows about why the last connection failed, for a message: for a
    /// child process, its exit status and the last lines it wrote to stderr. `None` when there
    /// is no connection to ask or nothing to add.
    pub fn failure_details(&self) -> Option<String> {
        if let Some(connection) = self.lock_current().clone() {
            return connection.diagnostics().failure_details();
        }
        // The connection a failed request let go of, if that is the last one there was.
        let lost = lock(&self.inner.lost_diagnostics).clone()?;
        lost.failure_details()
    }

    /// Sends `ping` on the live connection, bounded by the request timeout, without connecting:
    /// a health check. Fails with [`SessionError::NotSent`] when there is no live connection.
    pub async fn ping(&self) -> Result<(), SessionError> {
        let method = Method::Named("ping");
        let Some(connection) = self.current_if_alive() else {
            return Err(SessionError::NotSent {
                target: self.inner.target.clone(),
                method: method.to_string(),
                details: self.failure_details(),
                source: None,
            });
        };
        let request = ClientRequest::PingRequest(PingRequest::default());
        match self.send(&connection, method, request, None).await? {
            ServerResult::EmptyResult(_) => Ok(()),
            _ => Err(self.unexpected(method)),
        }
    }

    /// Ends the current connection, if any, and waits until its transport has closed, so that
    /// the next use connects afresh: for a server that hangs without closing its connection.
    /// Unlike [`close`](Self::close), the session stays usable.
    pub async fn disconnect(&self) -> ServerExit {
        match self.take_current() {
            Some(connection) => connection.shut_down().await,
            None => ServerExit::NotConnected,
        }
    }

    /// Connects now, if there is no live connection, so that a server that cannot start fails
    /// here rather than on first use. Follows the [`RetryPolicy`].
    pub async fn connect(&self) -> Result<(), SessionError> {
        self.connection().await.map(drop)
    }

    /// Records that the server behind this session was restarted by whoever supervises it (as
    /// `toolport-manager`'s manager does after a crash): restart number `attempt`, because of
    /// `cause`. The span of the session's next operation begins with a `the server was
    /// restarted since the last request` event carrying both (and how many restarts there were,
    /// if more than one came before it), so that a trace shows which call first ran on the new
    /// server and why the old one went away.
    pub fn note_restart(&self, attempt: u32, cause: &str) {
        self.inner.restarts.note(attempt, cause);
    }

    /// Runs `operation`, one thing a caller asked for, in its span (see `span.rs`), which
    /// begins with the restarts noted since the last operation. Not an `async fn`, so that
    /// the operation is boxed before any future holds it (see `span::in_operation`).
    pub(crate) fn in_operation<T>(
        &self,
        method: Method<'_>,
        operation: impl Future<Output = Result<T, SessionError>>,
    ) -> impl Future<Output = Result<T, SessionError>> {
        let restarts = self.inner.restarts.take();
        span::in_operation(&self.inner.target, method, restarts, operation)
    }

    /// The rmcp peer of the live connection, connecting first if needed: the escape hatch for
    /// a request this crate does not wrap. What goes through it skips everything the session
    /// adds: no timeout (rmcp's typed requests have none; bound them yourself), no span, no
    /// retry, no replay rule and no reconnect (a peer kept for later stays with the connection
    /// it came from, even once that is gone). It also ties the caller to rmcp's own API, which
    /// changes with rmcp's major releases.
    pub async fn unbounded_peer(&self) -> Result<Peer<RoleClient>, SessionError> {
        Ok(self.connection().await?.peer.clone())
    }

    /// Every tool the server lists, all pages, fetched now (no cache at this layer). Retried
    /// per the [`RetryPolicy`] on a fresh session. Empty for a server that declares no tools
    /// or has no `tools/list`.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, SessionError> {
        self.list_tools_for(None).await
    }

    /// [`list_tools`](Self::list_tools) on behalf of the caller described by `context`, which
    /// the transport sees (an HTTP header provider, say).
    pub async fn list_tools_for(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Tool>, SessionError> {
        Ok(self.tool_listing(context).await?.items)
    }

    /// [`list_tools_for`](Self::list_tools_for), with the cache hints the server gave
    /// (`ttlMs` and `cacheScope`, 2026-07-28), for a caller that caches the list.
    pub async fn tool_listing(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Listing<Tool>, SessionError> {
        let listing = self
            .discover(|connection| async move { self.all_tool_pages(&connection, context).await });
        self.in_operation(Method::Named("tools/list"), listing)
            .await
    }

    async fn all_tool_pages(
        &self,
        connection: &LiveConnection,
        context: Option<&ReadonlyContext>,
    ) -> Result<Listing<Tool>, SessionError> {
        let request = |params| {
            let request = ListToolsRequest {
                params,
                ..Default::default()
            };
            ClientRequest::ListToolsRequest(request)
        };
        let page = |result| match result {
            ServerResult::ListToolsResult(page) => Some(Page {
                items: page.tools,
                next: page.next_cursor,
                hints: CacheHints::of_page(page.ttl_ms, page.cache_scope),
            }),
            _ => None,
        };
        // A server with no tools (resources or prompts alone) lists none.
        if !connection.publishes(|capabilities| capabilities.tools.is_some()) {
            return Ok(Listing::new(Vec::new()));
        }
        match self
            .all_pages(connection, context, "tools/list", request, page)
            .await
        {
            Err(error) if error.is_method_not_found() => Ok(Listing::new(Vec::new())),
            outcome => outcome,
        }
    }

    /// Every page of the listing `method`: `request` makes the request for a page (`None` for
    /// the first), and `page` takes the items, the next cursor and the cache hints out of its
    /// answer.
    pub(crate) async fn all_pages<T>(
        &self,
        connection: &LiveConnection,
        context: Option<&ReadonlyContext>,
        method: &'static str,
        request: fn(Option<PaginatedRequestParams>) -> ClientRequest,
        page: fn(ServerResult) -> Option<Page<T>>,
    ) -> Result<Listing<T>, SessionError> {
        connection.note_listing();
        let mut read = PagesRead::new();
        let mut cursor = None;
        for _ in 0..MAX_LIST_PAGES {
            let params =
                cursor.map(|cursor| PaginatedRequestParams::default().with_cursor(Some(cursor)));
            let answer = self
                .send(connection, Method::Named(method), request(params), context)
                .await?;
            let Some(page) = page(answer) else {
                return Err(self.unexpected(Method::Named(method)));
            };
            match read.add(page) {
                Some(next) => cursor = Some(next),
                None => return Ok(read.finish()),
            }
        }
        Err(SessionError::UnexpectedResponse {
            target: self.inner.target.clone(),
            method: format!("{method} (still paginating after {MAX_LIST_PAGES} pages)"),
        })
    }

    /// The error for an answer of the wrong kind to `method`.
    pub(crate) fn unexpected(&self, method: Method<'_>) -> SessionError {
        SessionError::UnexpectedResponse {
            target: self.inner.target.clone(),
            method: method.to_string(),
        }
    }

    /// The session's events from now on: the server's notifications, connects and reconnects.
    /// A reader that falls more than 64 events behind gets [`ServerEvent::Lagged`](crate::ServerEvent::Lagged) in place of
    /// what it missed.
    pub fn events(&self) -> ServerEvents {
        self.inner.hub.subscribe()
    }

    /// A number that changes whenever a tool list fetched earlier may be stale: on
    /// `notifications/tools/list_changed` and on every new connection. Compare it to decide
    /// whether a cached list still holds.
    pub fn tool_list_epoch(&self) -> u64 {
        self.inner.hub.tool_list_epoch()
    }

    /// Ends the session: sends the cancellations still on their way, then closes the
    /// transport and waits until it has (for a child process: it has exited and been reaped).
    /// Returns how the server ended. Later requests fail with [`SessionError::Closed`].
    /// Calling it twice is harmless; the second call returns [`ServerExit::NotConnected`].
    pub async fn close(&self) -> ServerExit {
        self.inner.closed.store(true, Ordering::Release);
        let _connecting = self.inner.connecting.lock().await;
        self.inner.cancellations.close();
        if tokio::time::timeout(CANCEL_FLUSH, self.inner.cancellations.wait())
            .await
            .is_err()
        {
            tracing::debug!(target = %self.inner.target, "closing with cancellations still unsent");
        }
        match self.take_current() {
            Some(connection) => {
                let exit = connection.shut_down().await;
                tracing::debug!(target = %self.inner.target, %exit, "session closed");
                exit
            }
            None => ServerExit::NotConnected,
        }
    }

    /// Runs a discovery request with retries, discarding the session before each retry.
    pub(crate) async fn discover<T, F, Fut>(&self, request: F) -> Result<T, SessionError>
    where
        F: Fn(Arc<LiveConnection>) -> Fut,
        Fut: Future<Output = Result<T, SessionError>>,
    {
        self.inner
            .retry
            .run(
                || async {
                    let connection = self.connect_once().await?;
                    let result = request(connection.clone()).await;
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
                |attempt, attempts, error| self.announce_retry(attempt, attempts, error),
            )
            .await
    }

    /// Sends one request within the request timeout and names its failure.
    pub(crate) async fn send(
        &self,
        connection: &LiveConnection,
        method: Method<'_>,
        request: ClientRequest,
        context: Option<&ReadonlyContext>,
    ) -> Result<ServerResult, SessionError> {
        let timeout = self.inner.timeouts.request;
        self.send_with_progress(connection, method, request, context, None, timeout)
            .await
    }

    /// [`send`](Self::send) within `timeout`, with the request's progress reports handled as
    /// `progress` asks.
    /// On a 2026-07-28 connection, an `input_required` answer is answered and the request sent
    /// again (`input_rounds.rs`), up to the session's bound on rounds.
    async fn send_with_progress(
        &self,
        connection: &LiveConnection,
        method: Method<'_>,
        request: ClientRequest,
        context: Option<&ReadonlyContext>,
        progress: Option<ProgressWanted<'_>>,
        timeout: Duration,
    ) -> Result<ServerResult, SessionError> {
        // The send is boxed (here and below): rmcp's wait for an answer makes a future of
        // about 10 KB, which every request's future would otherwise carry, and a caller that
        // runs a request in place would carry on its stack.
        if !connection.is_modern() || !input_rounds::may_ask_for_input(&request) {
            let sent = self.send_within(connection, method, request, context, progress, timeout);
            return Box::pin(sent).await;
        }
        let rounds = self.inner.max_input_rounds;
        let mut request = request;
        let mut state_only_rounds = 0;
        for _ in 0..rounds {
            let answer = Box::pin(self.send_within(
                connection,
                method,
                request.clone(),
                context,
                progress,
                timeout,
            ))
            .await?;
            let ServerResult::InputRequiredResult(asked) = answer else {
                return Ok(answer);
            };
            let retry = Box::pin(self.answer_input(method, asked, &mut state_only_rounds)).await?;
            retry.apply(&mut request);
        }
        Err(self.too_many_rounds(method, rounds))
    }

    /// Sends one request within `timeout`, and names its failure.
    pub(super) async fn send_within(
        &self,
        connection: &LiveConnection,
        method: Method<'_>,
        mut request: ClientRequest,
        context: Option<&ReadonlyContext>,
        progress: Option<ProgressWanted<'_>>,
        timeout: Duration,
    ) -> Result<ServerResult, SessionError> {
        let cancellations = &self.inner.cancellations;
        let server = connection.peer.peer_info();
        let protocol = server.as_ref().map(|info| info.protocol_version.as_str());
        let (span, own_span) = span::request_span(
            &self.inner.target,
            method,
            protocol,
            connection.session_id(),
        );
        if let Some(propagator) = &self.inner.trace_propagator
            && connection.is_modern()
        {
            let meta = request.get_meta_mut();
            propagator.inject(&span, &mut |key, value| {
                meta.insert(key.to_owned(), value.into());
            });
        }
        let sent = request::send(
            &connection.peer,
            request,
            context,
            timeout,
            progress,
            cancellations,
        );
        let failure = match sent.instrument(span.clone()).await {
            Ok(result) => return Ok(result),
            Err(failure) => failure,
        };
        let error = SessionError::from_failure(
            &self.inner.target,
            method.to_string(),
            failure,
            connection.diagnostics(),
        );
        if own_span {
            span::record_failure(&span, &error);
        }
        Err(error)
    }
}
