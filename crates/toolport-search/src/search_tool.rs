//! [`SearchTool`]: the tool the model searches the others with.

use std::sync::Arc;

use serde_json::{Value, json};
use toolport_tools::{ReadonlyContext, Tool, ToolDeclaration, ToolError, ToolOutput, ToolsetError};

use crate::search_toolset::Shared;

/// The most tools one search may ask for.
const MAX_RESULTS: usize = 20;

/// The most characters of a found tool's description the search answer quotes; its
/// declaration, offered from the next turn, has the whole.
const DESCRIPTION_QUOTE: usize = 400;

/// The tool the model searches with: it finds the tools that match a need, and offers them
/// to the conversation from then on.
#[derive(Debug)]
pub(crate) struct SearchTool {
    declaration: ToolDeclaration,
    shared: Arc<Shared>,
}

impl SearchTool {
    pub(crate) fn new(name: String, shared: Arc<Shared>) -> Self {
        let declaration = ToolDeclaration::new(
            name,
            DESCRIPTION,
            json!({
                "type": "object",
                "properties": {
                    "query": {
                        "type": "string",
                        "description": "What you need done, in a few words, with synonyms of the key words (\"delete remove erase record\"). Name the service if you know it (GitHub, Slack, browser, files)."
                    },
                    "limit": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": MAX_RESULTS,
                        "description": "How many tools to find; 5 if not given."
                    }
                },
                "required": ["query"]
            }),
        );
        Self {
            declaration,
            shared,
        }
    }
}

/// What the model reads of the search tool.
const DESCRIPTION: &str = "Finds the tools for a task among many that are not listed yet. \
Describe the need in a few keywords, and add synonyms of the key words, since tools name \
things differently (\"screenshot capture image of the page\", \"folder directory list files\"). \
The tools found can be called from your next step, by the names given. If none fits, search \
again with other words before giving up.";

#[async_trait::async_trait]
impl Tool for SearchTool {
    fn declaration(&self) -> &ToolDeclaration {
        &self.declaration
    }

    async fn call(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
    ) -> Result<ToolOutput, ToolError> {
        let Some(query) = arguments.get("query").and_then(Value::as_str) else {
            return Ok(ToolOutput::error(json!({
                "error": "`query` is missing: give the need in a few words, as a string"
            })));
        };
        let limit = arguments
            .get("limit")
            .and_then(Value::as_u64)
            .map_or(self.shared.results, |limit| {
                usize::try_from(limit).unwrap_or(MAX_RESULTS)
            })
            .clamp(1, MAX_RESULTS);
        let hits = self
            .shared
            .search(query, context, limit)
            .await
            .map_err(into_tool_error)?;
        self.shared.found.add(
            &(self.shared.conversation)(context),
            hits.iter().map(|hit| hit.tool.name().to_owned()),
        );
        let tools: Vec<Value> = hits
            .iter()
            .map(|hit| {
                let declaration = hit.tool.declaration();
                let mut found = json!({
                    "name": declaration.name,
                    "description": quote(&declaration.description),
                    "parameters": declaration.parameters,
                });
                if let Some(server) = &hit.server {
                    found["server"] = json!(server);
                }
                found
            })
            .collect();
        let note = if tools.is_empty() {
            "No tool matches. Search again with other words or synonyms."
        } else {
            "These tools can be called from your next step, by these names."
        };
        Ok(ToolOutput::value(json!({ "tools": tools, "note": note })))
    }
}

/// The first [`DESCRIPTION_QUOTE`] characters of `description`, marked when cut.
fn quote(description: &str) -> String {
    match description.char_indices().nth(DESCRIPTION_QUOTE) {
        Some((end, _)) => format!("{}…", &description[..end]),
        None => description.to_owned(),
    }
}

/// The error of a search that could not list the inner toolset's tools.
fn into_tool_error(error: ToolsetError) -> ToolError {
    match error {
        ToolsetError::Load { source } => ToolError::Session(source),
        other => ToolError::Layer(Box::new(other)),
    }
}
