//! [`TicketAssistant`]: the loop between a chat model and the desk's toolsets, in one provider's
//! message shapes.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Value, json};
use toolport::{McpTool, McpToolset, ReadonlyContext, Tool, ToolsetError};

use crate::wire::{ApiShape, CallResult, FunctionCall, ModelReply, UnreadableReply};

/// A chat model, as the loop sees it: given the conversation in its provider's shape and the
/// function declarations on offer, it writes its next message.
#[async_trait::async_trait]
pub trait ChatModel: Send {
    /// The model's next message.
    async fn respond(
        &mut self,
        transcript: &[Value],
        declarations: &[Value],
    ) -> Result<Value, String>;
}

/// One step of a conversation, for people to read.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// What the user asked.
    User(String),
    /// The model asked for a tool call.
    Call {
        /// The tool, by its model-facing name.
        name: String,
        /// Its arguments.
        arguments: Value,
    },
    /// What the call gave back, errors included.
    Result {
        /// The tool.
        name: String,
        /// The model-facing value.
        value: Value,
        /// Whether the call failed.
        is_error: bool,
    },
    /// The model's answer.
    Answer(String),
}

/// Why a question got no answer. A failing tool is not one of these: its error goes to the
/// model as the call's result.
#[derive(Debug, thiserror::Error)]
pub enum AssistantError {
    /// A toolset could not list its tools.
    #[error(transparent)]
    Tools(#[from] ToolsetError),
    /// Two toolsets offer a tool of the same name; give one of them a prefix.
    #[error("two toolsets offer a tool named {0}; give one of them a prefix")]
    DuplicateTool(String),
    /// The model failed.
    #[error("the model failed: {0}")]
    Model(String),
    /// The model wrote something the loop cannot read.
    #[error(transparent)]
    Unreadable(#[from] UnreadableReply),
    /// The model kept calling tools past the step limit.
    #[error("no answer after {0} tool calls")]
    TooManySteps(usize),
}

/// A model and the toolsets it may use, looping until the model answers.
#[derive(Debug)]
pub struct TicketAssistant<M> {
    model: M,
    shape: ApiShape,
    toolsets: Vec<Arc<McpToolset>>,
    max_calls: usize,
    transcript: Vec<Value>,
    events: Vec<Event>,
}

impl<M: ChatModel> TicketAssistant<M> {
    /// An assistant that talks to `model` in `shape`, allowing up to 12 tool calls a question.
    pub fn new(
        model: M,
        shape: ApiShape,
        toolsets: impl IntoIterator<Item = Arc<McpToolset>>,
    ) -> Self {
        Self {
            model,
            shape,
            toolsets: toolsets.into_iter().collect(),
            max_calls: 12,
            transcript: Vec::new(),
            events: Vec::new(),
        }
    }

    /// The model, to inspect what it saw.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The conversation, as people read it.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The conversation, in the provider's message shape, as the model read it.
    pub fn transcript(&self) -> &[Value] {
        &self.transcript
    }

    /// Answers one question. `caller` is what the application knows of this conversation: its
    /// `invocation_id`, from which idempotency keys are made, and any approvals it recorded.
    ///
    /// # Errors
    ///
    /// See [`AssistantError`].
    pub async fn ask(
        &mut self,
        question: &str,
        caller: &ReadonlyContext,
    ) -> Result<String, AssistantError> {
        self.events.push(Event::User(question.to_owned()));
        self.transcript.push(self.shape.user_message(question));
        let mut calls_made = 0;
        loop {
            let offered = OfferedTools::list(&self.toolsets, caller).await?;
            let message = self
                .model
                .respond(&self.transcript, &offered.declarations)
                .await
                .map_err(AssistantError::Model)?;
            let reply = self.shape.read_reply(&message)?;
            self.transcript.push(message);
            let calls = match reply {
                ModelReply::Text(answer) => {
                    self.events.push(Event::Answer(answer.clone()));
                    return Ok(answer);
                }
                ModelReply::Calls(calls) => calls,
            };
            calls_made += calls.len();
            if calls_made > self.max_calls {
                return Err(AssistantError::TooManySteps(self.max_calls));
            }
            let mut results = Vec::with_capacity(calls.len());
            for call in calls {
                self.events.push(Event::Call {
                    name: call.name.clone(),
                    arguments: call.arguments.clone(),
                });
                let result = offered.call(call, caller).await;
                self.events.push(Event::Result {
                    name: result.call.name.clone(),
                    value: result.value.clone(),
                    is_error: result.is_error,
                });
                results.push(result);
            }
            self.transcript.extend(self.shape.result_messages(&results));
        }
    }
}

/// The tools offered for one model turn, by model-facing name, and their declarations.
struct OfferedTools {
    by_name: HashMap<String, Arc<McpTool>>,
    declarations: Vec<Value>,
}

impl OfferedTools {
    /// What the toolsets offer `caller` now: from each toolset's cache on a warm turn.
    async fn list(
        toolsets: &[Arc<McpToolset>],
        caller: &ReadonlyContext,
    ) -> Result<Self, AssistantError> {
        let mut offered = Self {
            by_name: HashMap::new(),
            declarations: Vec::new(),
        };
        for toolset in toolsets {
            for tool in toolset.mcp_tools(Some(caller)).await? {
                if let Some(declaration) = tool.function_declaration() {
                    offered.declarations.push(declaration.clone());
                }
                let name = tool.name().to_owned();
                if offered.by_name.insert(name.clone(), tool).is_some() {
                    return Err(AssistantError::DuplicateTool(name));
                }
            }
        }
        Ok(offered)
    }

    /// Calls the tool `call` names. Every failure, a tool that is not offered included, becomes
    /// a result the model can read.
    async fn call(&self, call: FunctionCall, caller: &ReadonlyContext) -> CallResult {
        let Some(tool) = self.by_name.get(&call.name) else {
            let value = json!({"error": format!("There is no tool named {}.", call.name)});
            return CallResult {
                call,
                value,
                is_error: true,
            };
        };
        match tool.call(call.arguments.clone(), Some(caller)).await {
            Ok(output) => CallResult {
                call,
                value: output.value,
                is_error: output.is_error,
            },
            Err(error) => CallResult {
                call,
                value: json!({"error": error.to_string()}),
                is_error: true,
            },
        }
    }
}
