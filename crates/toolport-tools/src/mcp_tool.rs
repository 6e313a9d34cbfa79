//! [`McpTool`]: one MCP server tool, callable by an agent.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::CallToolResult;
use serde_json::Value;
use toolport_session::CallReplay;

#[cfg(feature = "output-budgets")]
use crate::OutputBudget;
use crate::call_path::CallPath;
use crate::listed_tools::{ListedTool, listed};
use crate::schema::{AdaptedSchema, FunctionDeclaration};
use crate::schema_checks::Validators;
use crate::{
    Idempotency, ReadonlyContext, ReplayPolicy, ResultMapper, SchemaChecks, Tool, ToolCall,
    ToolDeclaration, ToolDefinition, ToolError, ToolOutput, ToolSession,
};

/// One tool of an MCP server, as an agent [`Tool`]. Its declaration is the server's metadata,
/// unchanged, unless the toolset fits its tools to a model provider: then the declaration has
/// the model-facing name and the adapted schema, and calls go to the server's name. Calls go
/// through the toolset's shared session, inside the toolset's tower layers
/// ([`McpToolsetBuilder::layer`](crate::McpToolsetBuilder::layer)).
///
/// [`call`](Tool::call) maps the result, fits the model's value to the tool's
/// [`OutputBudget`] when it has one, and keeps the server's whole result in
/// [`ToolOutput::result`]; [`call_raw`](Self::call_raw) returns the result alone;
/// [`call_with_timeout`](Self::call_with_timeout) is `call` with a bound of the call's own.
#[derive(Debug, Clone)]
pub struct McpTool {
    /// The declaration the model sees: the listed one, shared, until the toolset changes it.
    declaration: Arc<ToolDeclaration>,
    /// The tool as the server listed it, one copy for every session that listed it alike.
    listed: Arc<ListedTool>,
    /// The call path below the argument checks: the toolset's hooks and layers, its session.
    call_path: CallPath,
    mapper: Arc<dyn ResultMapper>,
    replay: CallReplay,
    validators: Arc<Validators>,
    /// The provider's declaration, when the toolset fits its tools to one.
    function: Option<FunctionDeclaration>,
    /// The tool's idempotency key, when it has one.
    idempotency: Option<Idempotency>,
    #[cfg(feature = "output-budgets")]
    budget: Option<OutputBudget>,
    /// Whether its calls run as 2025-11-25 tasks, as the session said when it was listed.
    runs_as_task: bool,
}

impl McpTool {
    /// Wraps `tool` of the server behind `session`, which has just listed it.
    ///
    /// `replay` says whether a call lost with the connection is sent again, and whether the
    /// tool has an idempotency key: then each call carries one, derived from the invocation
    /// and the arguments, and a call that timed out or lost its connection is sent again with
    /// it; with the key as an argument, the argument is taken out of the declaration the model
    /// sees. Calls are checked against the tool's schemas ([`SchemaChecks::ALL`]); see
    /// [`schema_checks`](Self::schema_checks).
    pub fn new(
        definition: ToolDefinition,
        session: Arc<dyn ToolSession>,
        mapper: Arc<dyn ResultMapper>,
        replay: &ReplayPolicy,
    ) -> Self {
        let runs_as_task = session.runs_as_task(&definition.name);
        let idempotency = replay.idempotency_of(&definition.name).cloned();
        let mut call_replay = replay.replay_of(&definition);
        let listed = listed(definition);
        let mut declaration = Arc::clone(&listed.declaration);
        if let Some(idempotency) = &idempotency {
            idempotency.hide_from(&mut Arc::make_mut(&mut declaration).parameters);
            call_replay = CallReplay::OnConnectionLoss;
        }
        Self {
            runs_as_task,
            declaration,
            listed,
            call_path: CallPath::direct(session),
            mapper,
            replay: call_replay,
            validators: Arc::default(),
            function: None,
            #[cfg(feature = "output-budgets")]
            budget: None,
            idempotency,
        }
    }

    /// Fits what the model reads of each result to `budget`; `None` (the default) for no
    /// bound.
    #[cfg(feature = "output-budgets")]
    #[must_use]
    pub fn with_output_budget(mut self, budget: Option<OutputBudget>) -> Self {
        self.budget = budget;
        self
    }

    /// The bound on what the model reads of each result, if any.
    #[cfg(feature = "output-budgets")]
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

    /// The tool with its calls sent down the toolset's `call_path` (its layers)
    /// instead of straight to the session.
    pub(crate) fn with_call_path(mut self, call_path: CallPath) -> Self {
        self.call_path = call_path;
        self
    }

    /// The tool fitted to a model provider: `declaration` has the model-facing name and the
    /// adapted schema, and `function` the provider's declaration.
    pub(crate) fn adapted(
        mut self,
        declaration: ToolDeclaration,
        function: Option<FunctionDeclaration>,
    ) -> Self {
        self.declaration = Arc::new(declaration);
        self.function = function;
        self
    }

    /// The provider's function declaration (its JSON, with the model-facing name), when the
    /// toolset fits its tools to a provider
    /// ([`McpToolsetBuilder::fit_to`](crate::McpToolsetBuilder::fit_to)).
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
        &self.listed.definition
    }

    /// Whether a call lost with the connection is sent again.
    pub fn replay(&self) -> CallReplay {
        self.replay
    }

    /// Calls the tool and returns the server's `CallToolResult` unmapped. The arguments and the
    /// structured content are checked as [`schema_checks`](Self::schema_checks) says. With an
    /// adapted schema, the `null`s strict mode made the model send for optional properties are
    /// taken out first ([`AdaptedSchema::strip_added_nulls`]).
    ///
    /// The order: the arguments are checked; the call goes down the toolset's layers (a
    /// [`BeforeCallLayer`](crate::BeforeCallLayer) among them may deny or answer it, and then
    /// nothing is sent) to the session; the server's structured content is checked on its
    /// way back, before any layer sees it. Arguments the schema refuses never reach a layer.
    pub async fn call_raw(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
    ) -> Result<CallToolResult, ToolError> {
        self.send(arguments, context, None).await
    }

    /// [`call`](Tool::call), bounded by `timeout` instead of the session's request timeout,
    /// shorter or longer: the bound on the call's wait for a free slot, when its session has a
    /// limit on concurrent calls, and on its request together (see
    /// [`ToolCall::timeout`](crate::ToolCall::timeout)). A call that runs out of it fails as
    /// one that runs out of the request timeout does ([`ToolError::is_timeout`]).
    pub async fn call_with_timeout(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
        timeout: Duration,
    ) -> Result<ToolOutput, ToolError> {
        self.call_within(arguments, context, Some(timeout)).await
    }

    /// The checked call down the call path, bounded by `timeout` or else the session's
    /// request timeout.
    async fn send(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
        timeout: Option<Duration>,
    ) -> Result<CallToolResult, ToolError> {
        let call = self.checked_call(arguments, context).map_err(|reason| {
            ToolError::InvalidArguments {
                tool: self.declaration.name.clone(),
                reason,
            }
        })?;
        self.call_path.send(call.with_timeout(timeout)).await
    }

    /// The call, mapped and budgeted, bounded by `timeout` or else the session's request
    /// timeout.
    async fn call_within(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
        timeout: Option<Duration>,
    ) -> Result<ToolOutput, ToolError> {
        let result = self.send(arguments, context, timeout).await?;
        let mut output = self
            .mapper
            .map(&result)
            .map_err(|source| ToolError::Mapping {
                tool: self.declaration.name.clone(),
                source,
            })?;
        #[cfg(feature = "output-budgets")]
        if let Some(budget) = self.budget {
            output = budget.apply(output, result.structured_content.as_ref());
        }
        output.result = Some(result);
        Ok(output)
    }

    /// The call of the model's `arguments`, once they are a JSON object (or none) without the
    /// added `null`s, and fit the input schema; or what is wrong with them.
    fn checked_call(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
    ) -> Result<ToolCall, String> {
        let mut checked = match arguments {
            Value::Object(_) | Value::Null => arguments,
            other => return Err(format!("expected a JSON object, got {}", json_kind(&other))),
        };
        if let Some(adapted) = self.adapted_schema() {
            adapted.strip_added_nulls(&mut checked);
        }
        let mut meta = None;
        if let Some(idempotency) = &self.idempotency {
            let key = idempotency.key(&self.listed.definition.name, &checked, context);
            if checked.is_null() {
                checked = Value::Object(serde_json::Map::new());
            }
            if let Value::Object(arguments) = &mut checked {
                idempotency.apply(key, arguments, &mut meta);
            }
        }
        if let Some(reason) = self
            .validators
            .argument_problems(&self.listed.definition, &checked)
        {
            return Err(reason);
        }
        let arguments = match checked {
            Value::Object(arguments) => Some(arguments),
            _ => None,
        };
        let mut call = ToolCall::new(Arc::clone(&self.listed.definition), arguments)
            .with_name(self.declaration.name.clone())
            .with_context(context.cloned())
            .with_replay(self.replay)
            .with_output_check(Arc::clone(&self.validators));
        call.meta = meta;
        call.timeout_retries = self
            .idempotency
            .as_ref()
            .map_or(0, Idempotency::retry_count);
        Ok(call)
    }
}

#[async_trait::async_trait]
impl Tool for McpTool {
    fn declaration(&self) -> &ToolDeclaration {
        &self.declaration
    }

    fn definition(&self) -> Option<&ToolDefinition> {
        Some(&self.listed.definition)
    }

    fn runs_as_task(&self) -> bool {
        self.runs_as_task
    }

    async fn call(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
    ) -> Result<ToolOutput, ToolError> {
        self.call_within(arguments, context, None).await
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
