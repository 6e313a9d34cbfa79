//! [`SearchToolsetBuilder`]: which tools are pinned, how many a search finds, the words that
//! mean the same, an embedder, and what a conversation is.

use std::sync::{Arc, Mutex};

use toolport_tools::{ReadonlyContext, Toolset};

use crate::found_tools::FoundTools;
use crate::index::ToolIndex;
use crate::search_tool::SearchTool;
use crate::search_toolset::{ConversationKey, Shared};
use crate::{Embedder, SearchToolset, Thesaurus};

/// The search tool's name unless the builder gives another.
const SEARCH_TOOL_NAME: &str = "search_tools";

/// How many tools a search finds unless the model asks for another number.
const RESULTS: usize = 5;

/// Builds a [`SearchToolset`].
#[must_use]
pub struct SearchToolsetBuilder {
    inner: Arc<dyn Toolset>,
    pinned: Vec<String>,
    results: usize,
    thesaurus: Thesaurus,
    embedder: Option<Arc<dyn Embedder>>,
    conversation: ConversationKey,
    search_name: String,
}

impl std::fmt::Debug for SearchToolsetBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchToolsetBuilder")
            .field("inner", &self.inner)
            .field("pinned", &self.pinned)
            .field("results", &self.results)
            .field("search_name", &self.search_name)
            .finish_non_exhaustive()
    }
}

impl SearchToolsetBuilder {
    pub(crate) fn new(inner: Arc<dyn Toolset>) -> Self {
        Self {
            inner,
            pinned: Vec::new(),
            results: RESULTS,
            thesaurus: Thesaurus::tools(),
            embedder: None,
            conversation: Arc::new(whole_context),
            search_name: SEARCH_TOOL_NAME.to_owned(),
        }
    }

    /// Tools offered on every turn without a search, by the names the model sees. A name the
    /// inner toolset does not offer a caller is not offered to that caller either.
    pub fn pin<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.pinned.extend(names.into_iter().map(Into::into));
        self
    }

    /// How many tools a search finds when the model does not say (5 by default; at most 20).
    pub fn results(mut self, results: usize) -> Self {
        self.results = results.clamp(1, 20);
        self
    }

    /// The words that mean the same ([`Thesaurus::tools`] by default): add your domain's to
    /// it, or give [`Thesaurus::empty`] to match words only as they are (after stemming).
    pub fn thesaurus(mut self, thesaurus: Thesaurus) -> Self {
        self.thesaurus = thesaurus;
        self
    }

    /// Ranks by meaning as well as by words, with your embedding model.
    pub fn embedder(mut self, embedder: impl Embedder + 'static) -> Self {
        self.embedder = Some(Arc::new(embedder));
        self
    }

    /// Which conversation a caller's context belongs to: callers whose contexts `key` maps to
    /// the same string share what their searches found. By default the whole context is the
    /// key, so callers with equal contexts share; key on a session or conversation id to keep
    /// each conversation's finds apart.
    pub fn conversation(
        mut self,
        key: impl Fn(Option<&ReadonlyContext>) -> String + Send + Sync + 'static,
    ) -> Self {
        self.conversation = Arc::new(key);
        self
    }

    /// The search tool's name (`search_tools` by default), when a tool of the inner toolset
    /// has that name.
    pub fn search_tool_name(mut self, name: impl Into<String>) -> Self {
        self.search_name = name.into();
        self
    }

    /// The toolset. Nothing is listed yet: the first turn lists the inner toolset's tools and
    /// indexes them.
    pub fn build(self) -> SearchToolset {
        let shared = Arc::new(Shared {
            inner: self.inner,
            index: Mutex::new(ToolIndex::new(&self.thesaurus)),
            pinned: self.pinned,
            found: FoundTools::default(),
            results: self.results,
            embedder: self.embedder,
            conversation: self.conversation,
            search_name: self.search_name.clone(),
        });
        let search_tool = Arc::new(SearchTool::new(self.search_name, Arc::clone(&shared)));
        SearchToolset {
            shared,
            search_tool,
        }
    }
}

/// The default conversation key: the whole context.
fn whole_context(context: Option<&ReadonlyContext>) -> String {
    context.map_or_else(String::new, |context| {
        serde_json::Value::Object(context.state().clone()).to_string()
    })
}
