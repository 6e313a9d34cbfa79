//! The toolset's cache of `tools/list`, one list per caller identity, each valid until the
//! server says the list changed.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex};

use toolport_core::ReadonlyContext;
use toolport_session::{McpSession, SessionError};

use crate::{McpTool, ToolDefinition};

/// The server's tools, each already wrapped for the agent, so that a warm turn hands out `Arc`
/// clones.
pub(crate) type WrappedTools = Arc<Vec<Arc<McpTool>>>;

/// How many identities' lists are kept; the oldest is forgotten past this.
const MAX_IDENTITIES: usize = 256;

/// Says which callers see the same tool list: callers whose contexts give the same key share a
/// cached list.
pub(crate) type CacheKey = Arc<dyn Fn(Option<&ReadonlyContext>) -> String + Send + Sync>;

/// The default [`CacheKey`]: the caller's whole context, so that callers who may see different
/// tools (a header provider sends their identity, say) never share a list.
pub(crate) fn whole_context(context: Option<&ReadonlyContext>) -> String {
    context.map_or_else(String::new, |context| {
        serde_json::Value::Object(context.state().clone()).to_string()
    })
}

/// The last `tools/list` made for each caller identity, wrapped, stamped with the session's
/// tool-list epoch. A `notifications/tools/list_changed` or a reconnect moves the epoch on and
/// so invalidates every list.
pub(crate) struct ToolListCache {
    key: CacheKey,
    lists: Mutex<Lists>,
}

#[derive(Default)]
struct Lists {
    by_identity: HashMap<String, (u64, WrappedTools)>,
    /// Identities in the order their lists were stored, oldest first.
    stored: VecDeque<String>,
}

impl ToolListCache {
    /// A cache whose lists are shared by callers that `key` maps to the same identity.
    pub(crate) fn new(key: CacheKey) -> Self {
        Self {
            key,
            lists: Mutex::new(Lists::default()),
        }
    }

    /// The cached list of this caller's identity while it is current, else a fresh
    /// `tools/list` made for `context` and wrapped, as a whole, with `wrap`.
    pub(crate) async fn get(
        &self,
        session: &McpSession,
        context: Option<&ReadonlyContext>,
        wrap: impl Fn(Vec<ToolDefinition>) -> Vec<McpTool>,
    ) -> Result<WrappedTools, SessionError> {
        let identity = (self.key)(context);
        if let Some(tools) = self.current(&identity, session.tool_list_epoch()) {
            return Ok(tools);
        }
        self.fetch_for(identity, session, context, wrap).await
    }

    /// A fresh `tools/list` made for `context` and wrapped with `wrap`, which then becomes the
    /// cached list of this caller's identity.
    pub(crate) async fn fetch(
        &self,
        session: &McpSession,
        context: Option<&ReadonlyContext>,
        wrap: impl Fn(Vec<ToolDefinition>) -> Vec<McpTool>,
    ) -> Result<WrappedTools, SessionError> {
        self.fetch_for((self.key)(context), session, context, wrap)
            .await
    }

    async fn fetch_for(
        &self,
        identity: String,
        session: &McpSession,
        context: Option<&ReadonlyContext>,
        wrap: impl Fn(Vec<ToolDefinition>) -> Vec<McpTool>,
    ) -> Result<WrappedTools, SessionError> {
        // Connect first, so the epoch read below already counts this connection; a change
        // notified while the list is in flight then invalidates what we store.
        session.connect().await?;
        let epoch = session.tool_list_epoch();
        let listed = session.list_tools_for(context).await?;
        let tools: WrappedTools = Arc::new(wrap(listed).into_iter().map(Arc::new).collect());
        self.store(identity, epoch, tools.clone());
        Ok(tools)
    }

    /// Forgets every cached list.
    pub(crate) fn invalidate(&self) {
        *self.lock() = Lists::default();
    }

    fn current(&self, identity: &str, epoch: u64) -> Option<WrappedTools> {
        match self.lock().by_identity.get(identity) {
            Some((cached_epoch, tools)) if *cached_epoch == epoch => Some(tools.clone()),
            _ => None,
        }
    }

    fn store(&self, identity: String, epoch: u64, tools: WrappedTools) {
        let mut lists = self.lock();
        let lists = &mut *lists;
        if lists
            .by_identity
            .insert(identity.clone(), (epoch, tools))
            .is_none()
        {
            lists.stored.push_back(identity);
        }
        while lists.stored.len() > MAX_IDENTITIES {
            if let Some(oldest) = lists.stored.pop_front() {
                lists.by_identity.remove(&oldest);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Lists> {
        // The guarded maps stay consistent even if a holder panicked.
        self.lists.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl fmt::Debug for ToolListCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolListCache")
            .field("identities", &self.lock().by_identity.len())
            .finish_non_exhaustive()
    }
}
