//! The toolset's cache of `tools/list`: one list per caller identity, or one for every caller
//! when the server calls it public, each valid until the server says the list changed or its
//! freshness (`ttlMs`) runs out.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use toolport_core::ReadonlyContext;
use toolport_session::{CacheHints, SessionError};

use crate::{ListCaching, McpTool, ToolDefinition, ToolSession};

/// The server's tools, each already wrapped for the agent, so that a warm turn hands out `Arc`
/// clones.
pub(crate) type WrappedTools = Arc<Vec<Arc<McpTool>>>;

/// How many identities' lists are kept; the oldest is forgotten past this.
const MAX_IDENTITIES: usize = 256;

/// The last `tools/list` made for each caller identity, wrapped, stamped with the session's
/// tool-list epoch. A `notifications/tools/list_changed` or a reconnect moves the epoch on and
/// so invalidates every list.
///
/// The server's cache hints (2026-07-28) refine this. A list the server calls `public` is kept
/// once, for every caller; any other is kept for its caller's identity alone. A positive
/// `ttlMs` ends a list's freshness that long after it was asked for. A `ttlMs` of zero, or none,
/// promises nothing, and the list is kept until the server says it changed, as on 2025-11-25:
/// zero is also what rmcp's servers send when their author gave no hint.
pub(crate) struct ToolListCache {
    caching: ListCaching,
    lists: Mutex<Lists>,
}

#[derive(Default)]
struct Lists {
    by_identity: HashMap<String, CachedList>,
    /// Identities in the order their lists were stored, oldest first.
    stored: VecDeque<String>,
    /// The last list the server called public, served to every identity without a list of
    /// its own.
    public: Option<CachedList>,
}

/// One cached list, and how long it holds.
struct CachedList {
    /// The session's tool-list epoch when the list was asked for.
    epoch: u64,
    /// When the server's `ttlMs` runs out, if it gave a positive one.
    fresh_until: Option<Instant>,
    tools: WrappedTools,
}

impl CachedList {
    fn holds_at(&self, epoch: u64, now: Instant) -> bool {
        self.epoch == epoch && self.fresh_until.is_none_or(|until| now < until)
    }
}

impl ToolListCache {
    /// A cache whose lists are shared as `caching` says.
    pub(crate) fn new(caching: ListCaching) -> Self {
        Self {
            caching,
            lists: Mutex::new(Lists::default()),
        }
    }

    /// The cached list of this caller's identity while it is current (and the caching is not
    /// [`every_turn`](ListCaching::every_turn)), else a fresh `tools/list` made for `context`
    /// and wrapped, as a whole, with `wrap`, which then becomes the cached list of this
    /// caller's identity.
    pub(crate) async fn get(
        &self,
        session: &dyn ToolSession,
        context: Option<&ReadonlyContext>,
        wrap: impl Fn(Vec<ToolDefinition>) -> Vec<McpTool>,
    ) -> Result<WrappedTools, SessionError> {
        let identity = self.caching.key(context);
        if !self.caching.is_every_turn()
            && let Some(tools) = self.current(&identity, session.tool_list_epoch())
        {
            return Ok(tools);
        }
        self.fetch(identity, session, context, wrap).await
    }

    async fn fetch(
        &self,
        identity: String,
        session: &dyn ToolSession,
        context: Option<&ReadonlyContext>,
        wrap: impl Fn(Vec<ToolDefinition>) -> Vec<McpTool>,
    ) -> Result<WrappedTools, SessionError> {
        // Connect first, so the epoch read below already counts this connection; a change
        // notified while the list is in flight then invalidates what we store.
        session.connect().await?;
        let epoch = session.tool_list_epoch();
        let asked_at = Instant::now();
        let listing = session.tool_listing(context).await?;
        let tools: WrappedTools = Arc::new(wrap(listing.items).into_iter().map(Arc::new).collect());
        let cached = CachedList {
            epoch,
            fresh_until: fresh_until(listing.hints, asked_at),
            tools: tools.clone(),
        };
        self.store(identity, cached, listing.hints.public);
        Ok(tools)
    }

    /// Forgets every cached list.
    pub(crate) fn invalidate(&self) {
        *self.lock() = Lists::default();
    }

    /// The list this identity is served while it holds: its own, else the public one.
    fn current(&self, identity: &str, epoch: u64) -> Option<WrappedTools> {
        let now = Instant::now();
        let lists = self.lock();
        lists
            .by_identity
            .get(identity)
            .into_iter()
            .chain(&lists.public)
            .find(|list| list.holds_at(epoch, now))
            .map(|list| list.tools.clone())
    }

    /// Keeps `list`, fetched for `identity`: for every identity if the server called it
    /// public, else for that identity alone.
    fn store(&self, identity: String, list: CachedList, public: bool) {
        let mut lists = self.lock();
        let lists = &mut *lists;
        if public {
            // This identity's own list is older than the public one now: forget it.
            if lists.by_identity.remove(&identity).is_some() {
                lists.stored.retain(|stored| *stored != identity);
            }
            lists.public = Some(list);
            return;
        }
        if lists.by_identity.insert(identity.clone(), list).is_none() {
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

/// When a list asked for at `asked_at` stops being fresh, by the server's `ttlMs`. None for no
/// ttl or a ttl of zero: see [`ToolListCache`].
fn fresh_until(hints: CacheHints, asked_at: Instant) -> Option<Instant> {
    hints
        .ttl
        .filter(|ttl| !ttl.is_zero())
        .map(|ttl| asked_at + ttl)
}

impl fmt::Debug for ToolListCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lists = self.lock();
        f.debug_struct("ToolListCache")
            .field("identities", &lists.by_identity.len())
            .field("public", &lists.public.is_some())
            .finish_non_exhaustive()
    }
}
