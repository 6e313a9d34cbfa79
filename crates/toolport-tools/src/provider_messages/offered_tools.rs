//! [`OfferedTools`]: the tools offered to the model for one turn, named and declared as one
//! API takes them, each model-facing name mapped back to its tool.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use super::declarations::{request_form, request_tools, schema_cache};
use super::{ApiShape, MessageError};
use crate::Tool;
use crate::names::ToolNamer;
use crate::schema::AdaptedSchema;

/// The tools a loop offers the model, in one [`ApiShape`].
///
/// Each tool gets the name the API's provider accepts ([`Provider::name_rule`], applied by a
/// [`ToolNamer`]): a name already valid, as those of a toolset built with
/// [`McpToolsetBuilder::fit_to`](crate::McpToolsetBuilder::fit_to) are, stays as it is;
/// another is changed as the namer says, and a call of the changed name reaches the tool. Its
/// declaration is the one the provider's [`SchemaAdapter`](crate::schema::SchemaAdapter)
/// writes (the same as the toolset's own, for a toolset fitted to that provider), with each
/// distinct schema adapted once per process. A tool whose name cannot be kept apart from
/// another's, or whose schema the adapter refuses (it nests too deep), is left out, and the log
/// says so.
///
/// Build it for each turn from the toolsets' tools, so that the model sees what the servers
/// offer now.
///
/// [`Provider::name_rule`]: crate::schema::Provider::name_rule
#[derive(Debug)]
pub struct OfferedTools {
    shape: ApiShape,
    pub(super) by_name: HashMap<String, OfferedTool>,
    pub(super) declarations: Vec<Value>,
}

/// One tool under its model-facing name.
#[derive(Debug)]
pub(super) struct OfferedTool {
    pub(super) tool: Arc<dyn Tool>,
    /// Its input schema as the model saw it, whose added `null`s are taken out of a call.
    pub(super) schema: Arc<AdaptedSchema>,
}

impl OfferedTools {
    /// `tools`, named and declared for `shape`.
    ///
    /// # Errors
    ///
    /// [`MessageError::DuplicateTool`] when two tools have the same name.
    pub fn new(
        shape: ApiShape,
        tools: impl IntoIterator<Item = Arc<dyn Tool>>,
    ) -> Result<Self, MessageError> {
        let tools: Vec<Arc<dyn Tool>> = tools.into_iter().collect();
        let mut seen = HashSet::new();
        if let Some(tool) = tools.iter().find(|tool| !seen.insert(tool.name())) {
            let name = tool.name().to_owned();
            return Err(MessageError::DuplicateTool { name });
        }
        let namer = ToolNamer::new(shape.provider().name_rule())
            .expect("the providers' own name rules are valid");
        let names = namer.name_all(tools.iter().map(|tool| tool.name()));
        for change in names.changes() {
            tracing::info!(tool = %change.original, "tool name: {change}");
        }
        let cache = schema_cache(shape);
        let mut offered = Self {
            shape,
            by_name: HashMap::new(),
            declarations: Vec::new(),
        };
        for tool in tools {
            let Some(model_name) = names.model_name(tool.name()) else {
                continue;
            };
            let declaration = tool.declaration();
            let schema = match cache.adapt(&declaration.parameters) {
                Ok(schema) => schema,
                Err(refused) => {
                    let provider = shape.provider().name();
                    tracing::warn!(tool = %tool.name(), provider, "{refused}; the tool is left out");
                    continue;
                }
            };
            let function =
                cache
                    .adapter()
                    .function_declaration(model_name, &declaration.description, &schema);
            offered.declarations.push(request_form(shape, function));
            let model_name = model_name.to_owned();
            offered
                .by_name
                .insert(model_name, OfferedTool { tool, schema });
        }
        Ok(offered)
    }

    /// The API these tools are offered in.
    pub fn shape(&self) -> ApiShape {
        self.shape
    }

    /// The request's `tools`: for Gemini `[{"functionDeclarations": [...]}]`, for Chat
    /// Completions `[{"type": "function", "function": {...}}, ...]`, for the Responses API
    /// `[{"type": "function", "name", ...}, ...]`, for Anthropic `[{"name", "description",
    /// "input_schema"}, ...]`; in the order the tools were given.
    pub fn declarations(&self) -> Value {
        request_tools(self.shape, &self.declarations)
    }

    /// The tool the model calls `model_name`, if it is offered.
    pub fn tool(&self, model_name: &str) -> Option<&Arc<dyn Tool>> {
        self.by_name.get(model_name).map(|offered| &offered.tool)
    }
}
