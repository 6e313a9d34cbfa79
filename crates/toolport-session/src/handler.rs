//! The rmcp client handler of a session: it announces the client and fans notifications out.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use rmcp::ClientHandler;
#[expect(
    deprecated,
    reason = "2025-11-25 servers still send notifications/message"
)]
use rmcp::model::LoggingMessageNotificationParam;
use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, JsonObject, ProgressNotificationParam,
    ProtocolVersion, ResourceUpdatedNotificationParam, TASKS_EXTENSION_ID,
};
use rmcp::model::{
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationCapability, ErrorData,
    FormElicitationCapability, UrlElicitationCapability,
};
use rmcp::service::{NotificationContext, RequestContext, RoleClient};
use tokio::sync::broadcast;

use crate::elicitation::{self, ElicitationHandler};
use crate::lock::lock;
use crate::progress::ProgressRoutes;
use crate::server_log;
use crate::task_questions::TaskQuestions;
use crate::{ResourceUpdateCallback, ServerEvent, ServerEvents};

/// State shared by a session and the handlers of its successive connections.
#[derive(Debug)]
pub(crate) struct EventHub {
    /// Made on the first subscription: a reader sees only the events after it subscribed, so
    /// until then there is no one to keep an event for, and a session nobody listens to (most
    /// of a fleet's or a tenant cache's) holds no buffer.
    events: OnceLock<broadcast::Sender<ServerEvent>>,
    tool_list_epoch: AtomicU64,
    /// The requests in flight that asked for progress.
    progress: Arc<ProgressRoutes>,
    /// The resources subscribed to, subscribed again on every new connection.
    subscriptions: Mutex<BTreeSet<String>>,
    /// Runs on each `notifications/resources/updated` of a resource subscribed to, whichever
    /// way it came.
    on_resource_updated: Option<ResourceUpdateCallback>,
    /// The questions of the 2025-11-25 tasks the session follows now.
    task_questions: Arc<TaskQuestions>,
}

impl EventHub {
    /// Events kept for a slow subscriber. The buffer is allocated whole for every session that
    /// has a subscriber, so it stays small: a fleet holds many sessions.
    const CAPACITY: usize = 64;

    pub(crate) fn new(on_resource_updated: Option<ResourceUpdateCallback>) -> Self {
        Self {
            events: OnceLock::new(),
            tool_list_epoch: AtomicU64::new(0),
            progress: Arc::default(),
            subscriptions: Mutex::default(),
            on_resource_updated,
            task_questions: Arc::default(),
        }
    }

    /// The questions of the 2025-11-25 tasks the session follows now.
    pub(crate) fn task_questions(&self) -> &Arc<TaskQuestions> {
        &self.task_questions
    }

    pub(crate) fn subscribe(&self) -> ServerEvents {
        let events = self
            .events
            .get_or_init(|| broadcast::Sender::new(Self::CAPACITY));
        ServerEvents::new(events.subscribe())
    }

    /// The routes of `notifications/progress` to the requests that asked for it.
    pub(crate) fn progress(&self) -> &Arc<ProgressRoutes> {
        &self.progress
    }

    /// Bumped whenever a tool list fetched earlier may be stale.
    pub(crate) fn tool_list_epoch(&self) -> u64 {
        self.tool_list_epoch.load(Ordering::Acquire)
    }

    pub(crate) fn publish(&self, event: ServerEvent) {
        if matches!(
            event,
            ServerEvent::ToolListChanged | ServerEvent::Connected | ServerEvent::Reconnected
        ) {
            self.tool_list_epoch.fetch_add(1, Ordering::AcqRel);
        }
        // No subscriber is not an error: events are advisory.
        if let Some(events) = self.events.get() {
            let _ = events.send(event);
        }
    }

    /// Tells the session's caches and readers that every list may have changed, after a time
    /// in which a change could have gone unheard.
    pub(crate) fn publish_lists_stale(&self) {
        for stale in [
            ServerEvent::ToolListChanged,
            ServerEvent::PromptListChanged,
            ServerEvent::ResourceListChanged,
        ] {
            self.publish(stale);
        }
    }

    /// The resources subscribed to.
    pub(crate) fn subscriptions(&self) -> MutexGuard<'_, BTreeSet<String>> {
        lock(&self.subscriptions)
    }

    /// A resource changed: the callback hears of it first, then the events. An update of a
    /// resource not subscribed to (a server's mistake, or one sent before it heard of an
    /// unsubscribe) is dropped.
    pub(crate) fn resource_updated(&self, update: ResourceUpdatedNotificationParam) {
        if !self.subscriptions().contains(&update.uri) {
            tracing::debug!(uri = %update.uri, "dropped an update of a resource not subscribed to");
            return;
        }
        if let Some(callback) = &self.on_resource_updated {
            callback.run(&update.uri);
        }
        self.publish(ServerEvent::ResourceUpdated(update));
    }
}

/// The `ClientHandler` given to rmcp for one connection.
#[derive(Debug, Clone)]
pub(crate) struct SessionHandler {
    info: ClientConfig,
    /// The server, as its connector describes it, for the log messages it sends.
    server: Arc<str>,
    hub: Arc<EventHub>,
    elicitation: Option<Arc<dyn ElicitationHandler>>,
}

impl SessionHandler {
    pub(crate) fn new(
        server: Arc<str>,
        client: Implementation,
        protocol_version: ProtocolVersion,
        hub: Arc<EventHub>,
        elicitation: Option<Arc<dyn ElicitationHandler>>,
        offer_tasks: bool,
    ) -> Self {
        let mut capabilities = ClientCapabilities::default();
        if offer_tasks {
            let extensions = capabilities.extensions.get_or_insert_with(Default::default);
            extensions.insert(TASKS_EXTENSION_ID.to_owned(), JsonObject::new());
        }
        if elicitation.is_some() {
            let mut modes = ElicitationCapability::default();
            modes.form = Some(FormElicitationCapability::new().with_schema_validation(true));
            modes.url = Some(UrlElicitationCapability::new());
            capabilities.elicitation = Some(modes);
        }
        let info = ClientConfig::new(capabilities, client).with_protocol_version(protocol_version);
        Self {
            info,
            server,
            hub,
            elicitation,
        }
    }

    /// The handler of the server's elicitations, if one is set.
    pub(crate) fn elicitation(&self) -> Option<&dyn ElicitationHandler> {
        self.elicitation.as_deref()
    }
}

impl ClientHandler for SessionHandler {
    fn get_info(&self) -> ClientConfig {
        self.info.clone()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        if !self.hub.task_questions().admit(&context.meta) {
            // A task past its bound on rounds, which its follower now cancels.
            return Ok(ElicitResult::new(ElicitationAction::Cancel));
        }
        match &self.elicitation {
            Some(handler) => Ok(elicitation::answer(handler.as_ref(), request).await),
            // Not advertised, so a well-behaved server never asks.
            None => Ok(ElicitResult::new(ElicitationAction::Decline)),
        }
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.hub.publish(ServerEvent::ToolListChanged);
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.hub.publish(ServerEvent::ResourceListChanged);
    }

    async fn on_prompt_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.hub.publish(ServerEvent::PromptListChanged);
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.hub.resource_updated(params);
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.hub.progress().deliver(&params);
        self.hub.publish(ServerEvent::Progress(params));
    }

    #[expect(
        deprecated,
        reason = "logging is deprecated after 2025-11-25, the version Toolport speaks, which still has it"
    )]
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        server_log::record(&self.server, &params);
        self.hub.publish(ServerEvent::Log(params));
    }
}
