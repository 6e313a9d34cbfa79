//! [`BulletinBoard`]: a fixture whose notes and tools change while clients watch, and that tells
//! the clients that subscribed, on either protocol version.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    Implementation, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig, SubscribeRequestParams, SubscriptionFilter,
    Tool, UnsubscribeRequestParams,
};
use rmcp::service::{
    NotificationContext, Peer, RequestContext, RoleServer, SubscriptionContext, SubscriptionSink,
};

/// A bulletin board of notes (`notes://{name}` resources) and tools, shared by every connection
/// made to it, that tells subscribers when either changes:
///
/// - a 2025-11-25 client subscribes with `resources/subscribe`, and hears of tool changes
///   unasked;
/// - a 2026-07-28 client listens with `subscriptions/listen`, and hears only what it asked for.
///
/// The test changes the board ([`post`](Self::post), [`add_tool`](Self::add_tool)) and counts
/// what clients asked ([`subscribe_requests`](Self::subscribe_requests),
/// [`listen_requests`](Self::listen_requests), [`listening`](Self::listening),
/// [`legacy_clients`](Self::legacy_clients)). It starts with
/// the note `notes://welcome` and the tool `read_board`.
///
/// # Examples
///
/// ```
/// use toolport_testkit::DuplexConnector;
/// use toolport_fixtures::BulletinBoard;
///
/// let board = BulletinBoard::new();
/// let connector = DuplexConnector::new({
///     let board = board.clone();
///     move || board.server()
/// });
/// # drop(connector);
/// ```
#[derive(Debug, Clone, Default)]
pub struct BulletinBoard {
    state: Arc<Mutex<Board>>,
}

#[derive(Debug, Default)]
struct Board {
    notes: BTreeMap<String, String>,
    tools: Vec<String>,
    /// 2025-11-25 clients: each initialized connection, and the notes it subscribed to.
    legacy_clients: Vec<LegacyClient>,
    /// 2026-07-28 clients: each open `subscriptions/listen` request, by a number of its own.
    listeners: Vec<(usize, SubscriptionSink)>,
    /// Numbers the connections and the listening requests.
    next_number: usize,
    subscribe_requests: usize,
    listen_requests: usize,
    last_listen_filter: Option<SubscriptionFilter>,
}

#[derive(Debug)]
struct LegacyClient {
    connection: usize,
    peer: Peer<RoleServer>,
    subscribed: Vec<String>,
}

impl BulletinBoard {
    /// The server's name.
    pub const NAME: &'static str = "toolport-bulletin";

    /// A board with the note `notes://welcome` ("Hello") and the tool `read_board`.
    pub fn new() -> Self {
        let board = Self::default();
        {
            let mut state = board.lock();
            state
                .notes
                .insert("notes://welcome".to_owned(), "Hello".to_owned());
            state.tools.push("read_board".to_owned());
        }
        board
    }

    /// A server for one connection, on this board.
    pub fn server(&self) -> BulletinServer {
        BulletinServer {
            board: self.clone(),
            connection: self.lock().number(),
        }
    }

    /// Writes `text` to the note at `uri` (a new note changes the list too), and tells each
    /// client subscribed to it.
    pub async fn post(&self, uri: &str, text: &str) {
        let (legacy, listeners) = {
            let mut state = self.lock();
            state.notes.insert(uri.to_owned(), text.to_owned());
            state.prune();
            let legacy: Vec<_> = state
                .legacy_clients
                .iter()
                .filter(|client| client.subscribed.iter().any(|taken| taken == uri))
                .map(|client| client.peer.clone())
                .collect();
            (legacy, state.sinks())
        };
        for peer in legacy {
            let update = rmcp::model::ResourceUpdatedNotificationParam::new(uri);
            let _ = peer.notify_resource_updated(update).await;
        }
        for sink in listeners {
            let wanted = sink
                .accepted()
                .resource_subscriptions
                .as_ref()
                .is_some_and(|uris| uris.iter().any(|taken| taken == uri));
            if wanted {
                let _ = sink.notify_resource_updated(uri).await;
            }
        }
    }

    /// Adds the tool `name`, and tells every 2025-11-25 client and every 2026-07-28 client
    /// that listens for tool changes.
    pub async fn add_tool(&self, name: &str) {
        let (legacy, listeners) = {
            let mut state = self.lock();
            state.tools.push(name.to_owned());
            state.prune();
            let legacy: Vec<_> = state
                .legacy_clients
                .iter()
                .map(|client| client.peer.clone())
                .collect();
            (legacy, state.sinks())
        };
        for peer in legacy {
            let _ = peer.notify_tool_list_changed().await;
        }
        for sink in listeners {
            if sink.accepted().tools_list_changed == Some(true) {
                let _ = sink.notify_tool_list_changed().await;
            }
        }
    }

    /// How many `resources/subscribe` requests the board took, over all connections.
    pub fn subscribe_requests(&self) -> usize {
        self.lock().subscribe_requests
    }

    /// How many `subscriptions/listen` requests the board took, over all connections.
    pub fn listen_requests(&self) -> usize {
        self.lock().listen_requests
    }

    /// How many 2025-11-25 clients are connected (initialized, and not gone).
    pub fn legacy_clients(&self) -> usize {
        let mut state = self.lock();
        state.prune();
        state.legacy_clients.len()
    }

    /// How many `subscriptions/listen` requests are open now.
    pub fn listening(&self) -> usize {
        self.lock().listeners.len()
    }

    /// The filter of the latest `subscriptions/listen` request.
    pub fn last_listen_filter(&self) -> Option<SubscriptionFilter> {
        self.lock().last_listen_filter.clone()
    }

    fn lock(&self) -> MutexGuard<'_, Board> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Board {
    /// Forgets the 2025-11-25 clients that left (a listening request is forgotten when it
    /// ends).
    fn prune(&mut self) {
        self.legacy_clients
            .retain(|client| !client.peer.is_transport_closed());
    }

    /// The 2025-11-25 client of `connection`, known from here on; whichever of its
    /// `initialized` and its first subscribe the server handles first makes it known.
    fn legacy_client(&mut self, connection: usize, peer: &Peer<RoleServer>) -> &mut LegacyClient {
        let position = self
            .legacy_clients
            .iter()
            .position(|client| client.connection == connection);
        let position = position.unwrap_or_else(|| {
            self.legacy_clients.push(LegacyClient {
                connection,
                peer: peer.clone(),
                subscribed: Vec::new(),
            });
            self.legacy_clients.len() - 1
        });
        &mut self.legacy_clients[position]
    }

    fn sinks(&self) -> Vec<SubscriptionSink> {
        self.listeners
            .iter()
            .map(|(_, sink)| sink.clone())
            .collect()
    }

    fn number(&mut self) -> usize {
        self.next_number += 1;
        self.next_number
    }
}

/// The server of one connection to a [`BulletinBoard`].
#[derive(Debug, Clone)]
pub struct BulletinServer {
    board: BulletinBoard,
    connection: usize,
}

impl ServerHandler for BulletinServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .enable_resources()
            .enable_resources_subscribe()
            .enable_resources_list_changed()
            .build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new(
            BulletinBoard::NAME,
            env!("CARGO_PKG_VERSION"),
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self
            .board
            .lock()
            .tools
            .iter()
            .map(|name| Tool::new(name.clone(), "A board tool.", Arc::new(Default::default())))
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = format!("ran {}", request.name);
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = self
            .board
            .lock()
            .notes
            .keys()
            .map(|uri| Resource::new(uri.clone(), uri.clone()))
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let text = self.board.lock().notes.get(&request.uri).cloned();
        match text {
            Some(text) => {
                let contents = ResourceContents::text(text, request.uri);
                Ok(ReadResourceResult::new(vec![contents]).into())
            }
            None => Err(ErrorData::resource_not_found(
                format!("no note {}", request.uri),
                None,
            )),
        }
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.board
            .lock()
            .legacy_client(self.connection, &context.peer);
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let mut state = self.board.lock();
        state.subscribe_requests += 1;
        let client = state.legacy_client(self.connection, &context.peer);
        if !client.subscribed.contains(&request.uri) {
            client.subscribed.push(request.uri);
        }
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let mut state = self.board.lock();
        for client in &mut state.legacy_clients {
            if client.connection == self.connection {
                client.subscribed.retain(|uri| *uri != request.uri);
            }
        }
        Ok(())
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(requested.clone())
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let number = {
            let mut state = self.board.lock();
            state.listen_requests += 1;
            state.last_listen_filter = Some(context.requested().clone());
            let number = state.number();
            state.listeners.push((number, context.sink().clone()));
            number
        };
        context.cancelled().await;
        self.board
            .lock()
            .listeners
            .retain(|(listening, _)| *listening != number);
        Ok(())
    }
}
