//! [`ListCaching`]: which callers of a toolset share a cached tool list, or whether the list is
//! asked for on every turn.

use std::fmt;
use std::sync::Arc;

use toolport_core::ReadonlyContext;

/// Says which callers see the same tool list: callers whose contexts give the same key share a
/// cached list.
pub(crate) type CacheKey = Arc<dyn Fn(Option<&ReadonlyContext>) -> String + Send + Sync>;

/// How a toolset caches the server's tool list. Give it to
/// [`McpToolsetBuilder::list_caching`](crate::McpToolsetBuilder::list_caching).
///
/// A cached list holds until the server sends `notifications/tools/list_changed`, the session
/// reconnects, the server's `ttlMs` runs out (2026-07-28), or
/// [`McpToolset::refresh`](crate::McpToolset::refresh) is called. By default
/// (`ListCaching::default()`) each distinct caller context has a list of its own, so callers
/// who might see different tools (because a header provider sends each one's identity, say)
/// never see each other's list. A list the server calls `public` (2026-07-28's `cacheScope`)
/// is shared by every caller whatever the key.
#[derive(Clone)]
#[must_use]
pub struct ListCaching {
    key: CacheKey,
    every_turn: bool,
}

impl Default for ListCaching {
    fn default() -> Self {
        Self {
            key: Arc::new(whole_context),
            every_turn: false,
        }
    }
}

impl fmt::Debug for ListCaching {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ListCaching")
            .field("every_turn", &self.every_turn)
            .finish_non_exhaustive()
    }
}

impl ListCaching {
    /// Callers whose contexts `key` maps to the same string share a cached list. Key on the
    /// identity alone (`|c| user_id_of(c)`) to share a list across a user's requests, or
    /// return one constant to share a single list when every caller sees the same tools.
    ///
    /// ```
    /// use toolport_tools::{ListCaching, McpToolset, ReadonlyContext};
    ///
    /// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector()).list_caching(
    ///     ListCaching::keyed(|context: Option<&ReadonlyContext>| {
    ///         let user = context.and_then(|c| c.get("user_id")).and_then(|id| id.as_str());
    ///         user.unwrap_or_default().to_owned()
    ///     }),
    /// );
    /// # drop(builder);
    /// ```
    pub fn keyed(key: impl Fn(Option<&ReadonlyContext>) -> String + Send + Sync + 'static) -> Self {
        Self {
            key: Arc::new(key),
            every_turn: false,
        }
    }

    /// Lists the tools on every call of [`McpToolset::tools`](crate::McpToolset::tools)
    /// instead of caching, as ADK does.
    pub fn every_turn() -> Self {
        Self {
            every_turn: true,
            ..Self::default()
        }
    }

    /// The key of the caller described by `context`.
    pub(crate) fn key(&self, context: Option<&ReadonlyContext>) -> String {
        (self.key)(context)
    }

    /// Whether every call lists the tools again.
    pub(crate) fn is_every_turn(&self) -> bool {
        self.every_turn
    }
}

/// The default key: the caller's whole context, so that callers who may see different tools
/// (a header provider sends their identity, say) never share a list.
fn whole_context(context: Option<&ReadonlyContext>) -> String {
    context.map_or_else(String::new, |context| {
        serde_json::Value::Object(context.state().clone()).to_string()
    })
}
