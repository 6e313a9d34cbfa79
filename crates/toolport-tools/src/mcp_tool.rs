//! [`McpTool`]: one MCP server tool, callable by an agent.

use std::sync::Arc;

use rmcp::model::CallToolRequestParams;
use serde_json::Value;
use toolport_session::{CallOptions, CallReplay, McpSession};

use crate::schema::{AdaptedSchema, FunctionDeclaration};
use crate::schema_checks::Validators;
use crate::{
    OutputBudget, ReadonlyContext, ResultMapper, SchemaChecks, Tool, ToolDeclaration,
    ToolDefinition, ToolError, ToolOutput,
};

/// One tool of an MCP server, as an agent [`Tool`]. Its declaration is the server's metadata,
/// unchanged, unless the toolset fits its tools to a model provider: then the declaration has
/// the model-facing name and the adapted schema, and calls go to the server's name. Calls go
/// through the toolset's shared session.
///
/// [`call`](Tool::call) maps the result, fits the model's value to the tool's
/// [`OutputBudget`] when it has one, and keeps the server's whole result in
/// [`ToolOutput::result`]; [`call_raw`](Self::call_raw) returns the result alone.
#[derive(Debug, Clone)]
pub struct McpTool {
    declaration: ToolDeclaration,
    definition: ToolDefinition,
    session: McpSession,
    mapper: Arc<dyn ResultMapper>,
    replay: CallReplay,
    validators: Arc<Validators>,
    /// The provider's declaration, when the toolset fits its tools to one.
    function: Option<FunctionDeclaration>,
    budget: Option<OutputBudget>,
}

impl McpTool {
    /// Wraps `tool` of the server behind `session`.
    ///
    /// A call lost with the connection is replayed only when `replay_opt_in` is set or the tool
    /// is annotated `readOnlyHint` or `idempotentHint`. Calls are checked against the tool's
    /// schemas ([`SchemaChecks::ALL`]); see [`schema_checks`](Self::schema_checks).
    pub fn new(
        definition: ToolDefinition,
        session: McpSession,
        mapper: Arc<dyn ResultMapper>,
        replay_opt_in: bool,
    ) -> Self {
        let safe_to_repeat = definition.annotations.as_ref().is_some_and(|annotations| {
            annotations.read_only_hint == Some(true) || annotations.idempotent_hint == Some(true)
        });
        let replay = if replay_opt_in || safe_to_repeat {
            CallReplay::OnConnectionLoss
        } else {
            CallReplay::Never
        };
        Self {
            declaration: ToolDeclaration::from_mcp(&definition),
            definition,
            session,
            mapper,
            replay,
            validators: Arc::default(),
            function: None,
            budget: None,
        }
    }

    /// Fits what the model reads of each result to `budget`; `None` (the default) for no
    /// bound.
    #[must_use]
    pub fn with_output_budget(mut self, budget: Option<OutputBudget>) -> Self {
        self.budget = budget;
        self
    }

    /// The bound on what the model reads of each result, if any.
    pub fn output_budget(&self) -> Option<OutputBudget> {
        self.budget
    }

    /// Which of the tool's schemas its calls are checked against. Each validator is compiled
    /// on the first call that needs it, once for this tool and its clones.
    #[must_use]
    pub fn schema_checks(mut self, checks: SchemaChecks) -> Self {
        self.validators = Arc::new(Validators::new(checks));
        self
    }

    /// The tool fitted to a model provider: `declaration` has the model-facing name and the
    /// adapted schema, and `function` the provider's declaration.
    pub(crate) fn adapted(
        mut self,
        declaration: ToolDeclaration,
        function: Option<FunctionDeclaration>,
    ) -> Self {
        self.declaration = declaration;
        self.function = function;
        self
    }

    /// The provider's function declaration (its JSON, with the model-facing name), when the
    /// toolset fits its tools to a provider
    /// ([`McpToolsetBuilder::provider`](crate::McpToolsetBuilder::provider)).
    pub fn function_declaration(&self) -> Option<&serde_json::Value> {
        self.function.as_ref().map(|function| &function.json)
    }

    /// The input schema as adapted for the provider, with every change the adapter made, when
    /// the toolset adapts schemas.
    pub fn adapted_schema(&self) -> Option<&AdaptedSchema> {
        self.function.as_ref().map(|function| &*function.adapted)
    }

    /// The tool as the server listed it (annotations, title, icons, `_meta`).
    pub fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    /// Whether a call lost with the connection is sent again.
    pub fn replay(&self) -> CallReplay {
        self.replay
    }

    /// Calls the tool and returns the server's `CallToolResult` unmapped. The arguments and the
    /// structured content are checked as [`schema_checks`](Self::schema_checks) says. With an
    /// adapted schema, the `null`s strict mode made the model send for optional properties are
    /// taken out first ([`AdaptedSchema::strip_added_nulls`]).
    pub async fn call_raw(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
    ) -> Result<rmcp::model::CallToolResult, ToolError> {
        let arguments = match arguments {
            Value::Object(arguments) => Some(arguments),
            Value::Null => None,
            other => {
                return Err(ToolError::InvalidArguments {
                    tool: self.declaration.name.clone(),
                    reason: format!("expected a JSON object, got {}", json_kind(&other)),
                });
            }
        };
        let mut checked = arguments.map_or(Value::Null, Value::Object);
        if let Some(adapted) = self.adapted_schema() {
            adapted.strip_added_nulls(&mut checked);
        }
        if let Some(reason) = self
            .validators
            .argument_problems(&self.definition, &checked)
        {
            return Err(ToolError::InvalidArguments {
                tool: self.declaration.name.clone(),
                reason,
            });
        }
        let mut params = CallToolRequestParams::new(self.definition.name.clone());
        params.arguments = match checked {
            Value::Object(arguments) => Some(arguments),
            _ => None,
        };
        let options = CallOptions::default()
            .replay(self.replay)
            .context(context.cloned());
        let result = self.session.call_tool(params, options).await?;
        let content = result.structured_content.as_ref();
        if let Some(reason) = self.validators.output_problems(&self.definition, content) {
            return Err(ToolError::InvalidOutput {
                tool: self.declaration.name.clone(),
                reason,
                result: Box::new(result),
            });
        }
        Ok(result)
    }
}

#[async_trait::async_trait]
impl Tool for McpTool {
    fn declaration(&self) -> &ToolDeclaration {
        &self.declaration
    }

    async fn call(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
    ) -> Result<ToolOutput, ToolError> {
        let result = self.call_raw(arguments, context).await?;
        let mut output = self
            .mapper
            .map(&result)
            .map_err(|source| ToolError::Mapping {
                tool: self.declaration.name.clone(),
                source,
            })?;
        if let Some(budget) = self.budget {
            output = budget.apply(output, result.structured_content.as_ref());
        }
        output.result = Some(result);
        Ok(output)
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
