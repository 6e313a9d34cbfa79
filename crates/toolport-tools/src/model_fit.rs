//! [`ModelFit`]: how a toolset fits its tools to the model. Names follow a [`ToolNamer`],
//! schemas a [`SchemaAdapter`] (through a [`SchemaCache`], so each distinct schema is adapted
//! once), descriptions a [`DescriptionPolicy`], and each tool with an adapted schema carries
//! its provider's function declaration.

use std::sync::Arc;

use crate::names::ToolNamer;
use crate::schema::{Provider, SchemaAdapter, SchemaCache};
use crate::{DescriptionPolicy, McpTool, Tool, ToolDeclaration, ToolDefinition};

/// How a toolset's tools reach the model: their names, their input schemas and their
/// descriptions. The default is the server's own, unchanged. A [`Provider`] converts into the
/// fit of its name rule and its schema adapter (for Gemini,
/// [`NameRule::gemini`](crate::names::NameRule::gemini); for the others the default
/// 64-character rule); each setting here replaces what was set before it. Give it to
/// [`McpToolsetBuilder::fit_to`](crate::McpToolsetBuilder::fit_to).
///
/// ```
/// use toolport_tools::schema::Provider;
/// use toolport_tools::{DescriptionPolicy, ModelFit};
///
/// // OpenAI's names and strict schemas, and descriptions fenced as untrusted text.
/// let fit = ModelFit::from(Provider::OpenAi).descriptions(DescriptionPolicy::default().fenced(true));
/// # drop(fit);
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct ModelFit {
    namer: Option<ToolNamer>,
    schemas: Option<Arc<SchemaCache>>,
    descriptions: DescriptionPolicy,
}

impl From<Provider> for ModelFit {
    fn from(provider: Provider) -> Self {
        let namer =
            ToolNamer::new(provider.name_rule()).expect("the providers' own name rules are valid");
        Self::default()
            .namer(namer)
            .schema_adapter(provider.adapter())
    }
}

impl ModelFit {
    /// Names the tools with `namer` (a rule, and a prefix such as the server's id), instead of
    /// by the server's names or a provider's rule. Allowlists and predicates still see the
    /// server's names, and calls go to them.
    pub fn namer(mut self, namer: ToolNamer) -> Self {
        self.namer = Some(namer);
        self
    }

    /// Adapts the input schemas with `adapter`, instead of leaving them as the server wrote
    /// them or a provider's adapter. A call goes to the server with the `null`s strict mode
    /// adds taken out.
    pub fn schema_adapter(mut self, adapter: Arc<dyn SchemaAdapter>) -> Self {
        self.schemas = Some(Arc::new(SchemaCache::new(adapter)));
        self
    }

    /// Shows the servers' descriptions to the model under `policy`: capped, fenced as
    /// untrusted text, or as they are (the default).
    pub fn descriptions(mut self, policy: DescriptionPolicy) -> Self {
        self.descriptions = policy;
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
