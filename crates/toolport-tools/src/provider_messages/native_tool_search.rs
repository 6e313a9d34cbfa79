//! [`OfferedTools::with_native_tool_search`]: Anthropic's own tool search, with the tools it
//! finds loaded on demand (`defer_loading`).

use std::collections::HashSet;

use serde_json::{Value, json};

use super::{ApiShape, MessageError, OfferedTools};

/// The `anthropic-beta` header value the Messages API takes `defer_loading` and its tool-search
/// tool under.
pub const ANTHROPIC_TOOL_SEARCH_BETA: &str = "advanced-tool-use-2025-11-20";

/// Anthropic's tool-search tool that takes natural-language queries (BM25), as a request
/// declares it.
fn tool_search_tool() -> Value {
    json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
}

impl OfferedTools {
    /// Leaves the finding of tools to Anthropic's own tool search: the declaration of every
    /// tool but those named in `loaded` (by the tools' names) carries `"defer_loading": true`,
    /// and the request's tools end with the API's tool-search tool. The model then sees only the
    /// loaded tools and the search; the API searches the deferred ones for it and loads those
    /// it finds, whose calls come back as any other `tool_use` block and map to their tools as
    /// before. The search's own blocks (`server_tool_use`, `tool_search_tool_result`) stay in
    /// the assistant message [`ApiShape::read_response`] keeps. Send the request with the
    /// `anthropic-beta` header [`ANTHROPIC_TOOL_SEARCH_BETA`].
    ///
    /// A name in `loaded` that no tool has is ignored, as a pinned tool a toolset no longer
    /// offers is.
    ///
    /// # Errors
    ///
    /// [`MessageError::NoNativeToolSearch`] for any API but Anthropic's Messages API: elsewhere,
    /// offer the search tool of `toolport::search`, which works with every provider.
    pub fn with_native_tool_search<S: AsRef<str>>(
        mut self,
        loaded: impl IntoIterator<Item = S>,
    ) -> Result<Self, MessageError> {
        if self.shape() != ApiShape::Anthropic {
            return Err(MessageError::NoNativeToolSearch {
                shape: self.shape(),
            });
        }
        let loaded: HashSet<String> = loaded
            .into_iter()
            .map(|name| name.as_ref().to_owned())
            .collect();
        let loaded_model_names: HashSet<&str> = self
            .by_name
            .iter()
            .filter(|(_, offered)| loaded.contains(offered.tool.name()))
            .map(|(model_name, _)| model_name.as_str())
            .collect();
        for declaration in &mut self.declarations {
            let model_name = declaration["name"].as_str().unwrap_or_default();
            if !loaded_model_names.contains(model_name)
                && let Value::Object(fields) = declaration
            {
                fields.insert("defer_loading".to_owned(), Value::Bool(true));
            }
        }
        self.declarations.push(tool_search_tool());
        Ok(self)
    }
}
