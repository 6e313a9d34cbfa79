//! [`ToolCall`]: one call of a tool as it goes down the call path, after its arguments passed
//! the checks.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{CallToolResult, JsonObject, RequestMetaObject};
use serde_json::Value;
use toolport_session::CallReplay;

use crate::schema_checks::Validators;
use crate::{ReadonlyContext, ToolDefinition};

/// One tool call on its way to the server: what the tower layers of the call path carry, and
/// what a [`BeforeCall`](crate::BeforeCall) hook judges. By the time a `ToolCall` exists, its arguments are a JSON
/// object (or none) that passed the tool's input schema, with the `null`s of an adapted strict
/// schema taken out: they are what the server will receive.
///
/// Everything here comes from the server's listing, the model's arguments or the application;
/// the model's arguments never decide anything by themselves (see
/// [`ApprovalPolicy`](crate::ApprovalPolicy)).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ToolCall {
    /// The tool as the server listed it (its server-side name, annotations, schemas).
    pub tool: Arc<ToolDefinition>,
    /// The name the model called it by: the server's, unless the toolset renames its tools.
    pub name: String,
    /// The arguments, as they will be sent; `None` when the model sent none.
    pub arguments: Option<JsonObject>,
    /// The caller, as the application described it.
    pub context: Option<ReadonlyContext>,
    /// Whether the session sends the call again when the connection is lost mid-call (from the
    /// tool's annotations, the toolset's opt-in, or an idempotency key).
    pub replay: CallReplay,
    /// The request's `_meta` entries the client adds, such as an idempotency key.
    pub meta: Option<RequestMetaObject>,
    /// How many times the call is sent again, unchanged, when it times out: only a tool with an
    /// idempotency key (the key makes the repeat safe) has any.
    pub timeout_retries: u32,
    /// The call's own bound, in place of the session's request timeout: on its wait for one of
    /// the session's slots, if it has a limit on concurrent calls, and its request together.
    /// `None` (the default) for the session's request timeout.
    pub timeout: Option<Duration>,
    /// The tool's validators, with which the session service checks the server's structured
    /// content; `None` checks nothing.
    output_check: Option<Arc<Validators>>,
}

impl ToolCall {
    /// A call of `tool`, under the server's name, with `arguments`, for no particular caller,
    /// never replayed.
    pub fn new(tool: Arc<ToolDefinition>, arguments: Option<JsonObject>) -> Self {
        Self {
            name: tool.name.to_string(),
            tool,
            arguments,
            context: None,
            replay: CallReplay::Never,
            meta: None,
            timeout_retries: 0,
            timeout: None,
            output_check: None,
        }
    }

    /// The call on behalf of the caller described by `context`.
    #[must_use]
    pub fn with_context(mut self, context: Option<ReadonlyContext>) -> Self {
        self.context = context;
        self
    }

    /// The call under the model-facing `name`.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The call with its replay rule set to `replay`.
    #[must_use]
    pub fn with_replay(mut self, replay: CallReplay) -> Self {
        self.replay = replay;
        self
    }

    /// The call bounded by `timeout` instead of the session's request timeout; `None` for the
    /// request timeout.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// The call whose answer is checked with the tool's `validators`.
    pub(crate) fn with_output_check(mut self, validators: Arc<Validators>) -> Self {
        self.output_check = Some(validators);
        self
    }

    /// What is wrong with `result`'s structured content against the tool's output schema.
    pub(crate) fn output_problems(&self, result: &CallToolResult) -> Option<String> {
        let validators = self.output_check.as_ref()?;
        validators.output_problems(&self.tool, result.structured_content.as_ref())
    }

    /// The argument named `name`, if the model sent it.
    pub fn argument(&self, name: &str) -> Option<&Value> {
        self.arguments.as_ref()?.get(name)
    }
}
