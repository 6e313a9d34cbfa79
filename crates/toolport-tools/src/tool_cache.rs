//! The toolset's cache of `tools/list`, valid until the server says the list changed.

use std::sync::{Arc, Mutex};

use rmcp::model::Tool;
use toolport_core::ReadonlyContext;
use toolport_session::{McpSession, SessionError};

use crate::McpTool;

/// The server's tools, each already wrapped for the agent, so that a warm turn hands out `Arc`
/// clones.
pub(crate) type WrappedTools = Arc<Vec<Arc<McpTool>>>;

/// The last `tools/list` of a session, wrapped, stamped with the session's tool-list epoch. A
/// `notifications/tools/list_changed` or a reconnect moves the epoch on and so invalidates it.
#[derive(Debug, Default)]
pub(crate) struct ToolListCache {
    entry: Mutex<Option<(u64, WrappedTools)>>,
}

impl ToolListCache {
    /// The cached list while it is current, else a fresh `tools/list` made for `context` and
    /// wrapped with `wrap`.
    pub(crate) async fn get(
        &self,
        session: &McpSession,
        context: Option<&ReadonlyContext>,
        wrap: impl Fn(Tool) -> McpTool,
    ) -> Result<WrappedTools, SessionError> {
        if let Some(tools) = self.current(session.tool_list_epoch()) {
            return Ok(tools);
        }
        self.fetch(session, context, wrap).await
    }

    /// A fresh `tools/list` made for `context` and wrapped with `wrap`, which then becomes the
    /// cached one.
    pub(crate) async fn fetch(
        &self,
        session: &McpSession,
        context: Option<&ReadonlyContext>,
        wrap: impl Fn(Tool) -> McpTool,
    ) -> Result<WrappedTools, SessionError> {
        // Connect first, so the epoch read below already counts this connection; a change
        // notified while the list is in flight then invalidates what we store.
        session.peer().await?;
        let epoch = session.tool_list_epoch();
        let listed = session.list_tools_for(context).await?;
        let tools: WrappedTools = Arc::new(
            listed
                .into_iter()
                .map(|tool| Arc::new(wrap(tool)))
                .collect(),
        );
        *self.lock() = Some((epoch, tools.clone()));
        Ok(tools)
    }

    /// Forgets the cached list.
    pub(crate) fn invalidate(&self) {
        *self.lock() = None;
    }

    fn current(&self, epoch: u64) -> Option<WrappedTools> {
        match self.lock().as_ref() {
            Some((cached_epoch, tools)) if *cached_epoch == epoch => Some(tools.clone()),
            _ => None,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(u64, WrappedTools)>> {
        // The guarded value is a plain Option, valid even if a holder panicked.
        self.entry.lock().unwrap_or_else(|e| e.into_inner())
    }
}
