//! [`Adaptation`]: how a toolset fits its tools to one model provider. Names follow a
//! [`ToolNamer`], schemas a [`SchemaAdapter`] (through a [`SchemaCache`], so each distinct schema
//! is adapted once), and each tool carries its provider's function declaration.

use std::sync::Arc;

use crate::names::ToolNamer;
use crate::schema::{Provider, SchemaAdapter, SchemaCache};
use crate::{DescriptionPolicy, McpTool, Tool, ToolDeclaration, ToolDefinition};

/// A toolset's names, schemas and descriptions for the model; nothing set means the server's
/// own.
#[derive(Debug, Clone, Default)]
pub(crate) struct Adaptation {
    namer: Option<ToolNamer>,
    schemas: Option<Arc<SchemaCache>>,
    descriptions: DescriptionPolicy,
}

impl Adaptation {
    /// The adaptation with the names and schemas of `provider`: its name rule and its adapter.
    pub(crate) fn with_provider(self, provider: Provider) -> Self {
        let namer =
            ToolNamer::new(provider.name_rule()).expect("the providers' own name rules are valid");
        self.with_namer(namer)
            .with_schema_adapter(provider.adapter())
    }

    /// The adaptation with its descriptions shown to the model under `policy`.
    pub(crate) fn with_descriptions(mut self, policy: DescriptionPolicy) -> Self {
        self.descriptions = policy;
        self
    }

    /// The adaptation with its names given by `namer`.
    pub(crate) fn with_namer(mut self, namer: ToolNamer) -> Self {
        self.namer = Some(namer);
        self
    }

    /// The adaptation with its schemas adapted by `adapter`.
    pub(crate) fn with_schema_adapter(mut self, adapter: Arc<dyn SchemaAdapter>) -> Self {
        self.schemas = Some(Arc::new(SchemaCache::new(adapter)));
        self
    }

    /// Wraps the server's tools with `wrap` and fits each to the model. Names are given to the
    /// list as a whole, since they must stay apart; a tool the namer withholds (its name cannot
    /// be kept apart from another's) is left out, and so is one whose schema the adapter
    /// refuses (it nests too deep to walk); the log says so, as a warning for the schema.
    pub(crate) fn wrap_all(
        &self,
        listed: Vec<ToolDefinition>,
        wrap: impl Fn(ToolDefinition) -> McpTool,
    ) -> Vec<McpTool> {
        let names = self.namer.as_ref().map(|namer| {
            let names = namer.name_all(listed.iter().map(|tool| tool.name.as_ref()));
            for change in names.changes() {
                tracing::info!(tool = %change.original, "tool name: {change}");
            }
            names
        });
        listed
            .into_iter()
            .filter_map(|definition| {
                let model_name = match &names {
                    Some(names) => names.model_name(&definition.name)?.to_owned(),
                    None => definition.name.to_string(),
                };
                self.fit(wrap(definition), model_name)
            })
            .collect()
    }

    fn fit(&self, tool: McpTool, model_name: String) -> Option<McpTool> {
        let server = tool.declaration();
        if self.schemas.is_none()
            && self.descriptions.is_pass_through()
            && model_name == server.name
        {
            // Nothing to fit: keep the listed declaration, shared with other sessions.
            return Some(tool);
        }
        let description = if self.descriptions.is_pass_through() {
            server.description.clone()
        } else {
            self.descriptions.apply(&server.description)
        };
        let mut declaration =
            ToolDeclaration::new(model_name, description, server.parameters.clone());
        declaration.response = server.response.clone();
        let Some(schemas) = &self.schemas else {
            return Some(tool.adapted(declaration, None));
        };
        let provider = schemas.adapter().provider();
        let function = match schemas.declaration(&declaration) {
            Ok(function) => function,
            Err(refused) => {
                tracing::warn!(tool = %server.name, provider, "{refused}; the tool is left out");
                return None;
            }
        };
        for change in function.adapted.changes.iter().filter(|c| c.is_loss()) {
            tracing::debug!(tool = %declaration.name, provider, "schema: {change}");
        }
        declaration.parameters = function.adapted.schema.clone();
        Some(tool.adapted(declaration, Some(function)))
    }
}
