//! [`SearchToolset`]: a layer over any [`Toolset`] that offers the model a search tool and the
//! pinned tools, and each other tool once a search of the conversation has found it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use toolport_tools::{ReadonlyContext, Tool, Toolset, ToolsetError};

use crate::found_tools::FoundTools;
use crate::index::{Hit, ToolIndex};
use crate::search_tool::SearchTool;
use crate::{Embedder, SearchToolsetBuilder};

/// Says which conversation a caller's context belongs to.
pub(crate) type ConversationKey = Arc<dyn Fn(Option<&ReadonlyContext>) -> String + Send + Sync>;

/// The tools of a toolset with many, offered a few at a time: the model sees a search tool and
/// the tools pinned as always-on; a tool it finds with a search is offered from then on in
/// that conversation (by the caller's context), and no other tool is declared.
///
/// The index covers each tool's name, title, description, parameter names and descriptions,
/// and its server's id; it follows the inner toolset's list as it changes (a server's
/// `tools/list_changed`, a server joining or leaving a fleet), tool by tool. Search finds
/// only the tools the inner toolset offers the caller.
///
/// # Examples
///
/// ```
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use serde_json::json;
/// use toolport_search::SearchToolset;
/// use toolport_tools::{McpToolset, Toolset};
///
/// let tracker = McpToolset::builder(toolport_testkit::task_tracker_connector()).build().await?;
/// let toolset = SearchToolset::builder(tracker).pin(["list_tasks"]).build();
///
/// let names = |tools: &[std::sync::Arc<dyn toolport_tools::Tool>]| {
///     tools.iter().map(|tool| tool.name().to_owned()).collect::<Vec<_>>()
/// };
/// assert_eq!(names(&toolset.tools(None).await?), ["list_tasks", "search_tools"]);
///
/// // The model searches; what it finds is offered from the next turn on.
/// let search = toolset.tools(None).await?.pop().unwrap();
/// search.call(json!({"query": "mark a task as done"}), None).await?;
/// assert!(names(&toolset.tools(None).await?).contains(&"complete_task".to_owned()));
/// toolset.close().await;
/// # Ok(())
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(run()).unwrap();
/// ```
#[derive(Debug)]
pub struct SearchToolset {
    pub(crate) shared: Arc<Shared>,
    pub(crate) search_tool: Arc<SearchTool>,
}

/// What the toolset and its search tool share.
pub(crate) struct Shared {
    pub(crate) inner: Arc<dyn Toolset>,
    pub(crate) index: Mutex<ToolIndex>,
    pub(crate) pinned: Vec<String>,
    pub(crate) found: FoundTools,
    pub(crate) results: usize,
    pub(crate) embedder: Option<Arc<dyn Embedder>>,
    pub(crate) conversation: ConversationKey,
    /// The search tool's name; an inner tool of the same name is left out.
    pub(crate) search_name: String,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("inner", &self.inner)
            .field("pinned", &self.pinned)
            .field("results", &self.results)
            .field("embedder", &self.embedder)
            .finish_non_exhaustive()
    }
}

/// One tool a search found.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SearchHit {
    /// The tool, as the inner toolset offers it to the caller.
    pub tool: Arc<dyn Tool>,
    /// Its server's id, when a fleet knows it.
    pub server: Option<String>,
    /// How well it matches: higher is better. Scores compare within one search only.
    pub score: f32,
}

impl SearchToolset {
    /// A builder for search over `inner`.
    pub fn builder(inner: impl Toolset + 'static) -> SearchToolsetBuilder {
        Self::builder_shared(Arc::new(inner))
    }

    /// A builder for search over a shared toolset.
    pub fn builder_shared(inner: Arc<dyn Toolset>) -> SearchToolsetBuilder {
        SearchToolsetBuilder::new(inner)
    }

    /// The tools that best match the need in `query` among those the inner toolset offers the
    /// caller described by `context`, best first, at most `limit`. Unlike the search tool, it
    /// does not offer what it finds to the conversation.
    pub async fn search(
        &self,
        query: &str,
        context: Option<&ReadonlyContext>,
        limit: usize,
    ) -> Result<Vec<SearchHit>, ToolsetError> {
        self.shared.search(query, context, limit).await
    }

    /// The number of tools indexed: every tool the inner toolset offers, to any caller.
    pub fn indexed(&self) -> usize {
        self.shared.lock_index().len()
    }

    /// Forgets the tools the conversation of `context` has found; it is offered the pinned
    /// tools and the search tool alone again.
    pub fn forget(&self, context: Option<&ReadonlyContext>) {
        self.shared
            .found
            .forget(&(self.shared.conversation)(context));
    }
}

impl Shared {
    pub(crate) fn lock_index(&self) -> MutexGuard<'_, ToolIndex> {
        self.index.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The inner toolset's tools for the caller, with the index brought in step with them. A
    /// tool named as the search tool is left out, and logged.
    pub(crate) async fn listed(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError> {
        let mut tools = self.inner.tools(context).await?;
        if let Some(at) = tools
            .iter()
            .position(|tool| tool.name() == self.search_name)
        {
            tracing::warn!(
                tool = self.search_name,
                "a tool is named as the search tool and is left out; give the search tool another name (SearchToolsetBuilder::search_tool_name)"
            );
            tools.remove(at);
        }
        self.lock_index().sync(&tools);
        Ok(tools)
    }

    pub(crate) async fn search(
        &self,
        query: &str,
        context: Option<&ReadonlyContext>,
        limit: usize,
    ) -> Result<Vec<SearchHit>, ToolsetError> {
        let tools = self.listed(context).await?;
        let by_name: HashMap<&str, &Arc<dyn Tool>> =
            tools.iter().map(|tool| (tool.name(), tool)).collect();
        let offered = |name: &str| by_name.contains_key(name);
        let hits = match &self.embedder {
            Some(embedder) => self.rank_hybrid(&**embedder, query, &offered, limit).await,
            None => self.lock_index().rank(query, offered, limit),
        };
        let index = self.lock_index();
        Ok(hits
            .into_iter()
            .filter_map(|hit| {
                let tool = by_name.get(hit.name.as_str())?;
                Some(SearchHit {
                    tool: Arc::clone(tool),
                    server: index.text(hit.slot).and_then(|text| text.server.clone()),
                    score: hit.score,
                })
            })
            .collect())
    }

    /// Ranks by words and by meaning: embeds the tools that have no embedding yet and the
    /// query, then fuses; by words alone when the embedder fails.
    async fn rank_hybrid(
        &self,
        embedder: &dyn Embedder,
        query: &str,
        offered: &(dyn Fn(&str) -> bool + Sync),
        limit: usize,
    ) -> Vec<Hit> {
        let unembedded = self.lock_index().unembedded();
        let mut texts: Vec<String> = unembedded.iter().map(|(_, _, text)| text.clone()).collect();
        texts.push(query.to_owned());
        match embedder.embed(&texts).await {
            Ok(mut vectors) if vectors.len() == texts.len() => {
                let query_vector = vectors.pop().unwrap_or_default();
                let mut index = self.lock_index();
                for ((slot, fingerprint, _), vector) in unembedded.into_iter().zip(vectors) {
                    index.set_embedding(slot, fingerprint, vector.into());
                }
                index.rank_hybrid(query, &query_vector, offered, limit)
            }
            Ok(vectors) => {
                tracing::warn!(
                    asked = texts.len(),
                    got = vectors.len(),
                    "the embedder gave a vector count unlike the text count; ranking by words alone"
                );
                self.lock_index().rank(query, offered, limit)
            }
            Err(error) => {
                tracing::warn!(%error, "the embedder failed; ranking by words alone");
                self.lock_index().rank(query, offered, limit)
            }
        }
    }
}

#[async_trait::async_trait]
impl Toolset for SearchToolset {
    /// The pinned tools, the search tool, and the tools this conversation has found, of those
    /// the inner toolset offers the caller now.
    async fn tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError> {
        let shared = &self.shared;
        let tools = shared.listed(context).await?;
        let found = shared.found.of(&(shared.conversation)(context));
        let mut offered: Vec<Arc<dyn Tool>> = tools
            .iter()
            .filter(|tool| shared.pinned.iter().any(|pinned| pinned == tool.name()))
            .cloned()
            .collect();
        offered.push(Arc::clone(&self.search_tool) as Arc<dyn Tool>);
        for name in &found {
            let is_new = !offered.iter().any(|tool| tool.name() == name);
            if let Some(tool) = tools.iter().find(|tool| tool.name() == name)
                && is_new
            {
                offered.push(Arc::clone(tool));
            }
        }
        Ok(offered)
    }

    async fn close(&self) {
        self.shared.inner.close().await;
    }
}
