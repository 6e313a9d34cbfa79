//! [`TicketAssistant`]: the loop between a chat model and the desk's tools, in one provider
//! API's messages.

use std::sync::Arc;

use serde_json::Value;
use toolport::provider_messages::{ApiShape, MessageError, OfferedTools};
use toolport::{ReadonlyContext, Toolset, ToolsetError};

/// A chat model, as the loop sees it: given the conversation in its API's messages and the
/// request's `tools`, it answers with the API's response body.
#[async_trait::async_trait]
pub trait ChatModel: Send {
    /// The API's response to the conversation so far.
    async fn respond(&mut self, transcript: &[Value], tools: &Value) -> Result<Value, String>;
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
    /// A toolset could not list its tools, or two of the desk's toolsets offer a tool of the
    /// same name.
    #[error(transparent)]
    Tools(#[from] ToolsetError),
    /// The model failed.
    #[error("the model failed: {0}")]
    Model(String),
    /// The model wrote something the loop cannot read, or a call's transport failed, leaving
    /// its outcome unknown.
    #[error(transparent)]
    Messages(#[from] MessageError),
    /// The model kept calling tools past the step limit.
    #[error("no answer after {0} tool calls")]
    TooManySteps(usize),
}

/// A model and the tools it may use, looping until the model answers.
#[derive(Debug)]
pub struct TicketAssistant<M> {
    model: M,
    shape: ApiShape,
    toolset: Arc<dyn Toolset>,
    max_calls: usize,
    transcript: Vec<Value>,
    events: Vec<Event>,
}

impl<M: ChatModel> TicketAssistant<M> {
    /// An assistant that talks to `model` through `shape`'s API and offers it `toolset`'s tools
    /// (the desk's, [`SupportDesk::tools`](crate::SupportDesk::tools), or the desk's behind
    /// tool search, [`SupportDesk::tools_with_search`](crate::SupportDesk::tools_with_search)),
    /// allowing up to 12 tool calls a question.
    pub fn new(model: M, shape: ApiShape, toolset: Arc<dyn Toolset>) -> Self {
        Self {
            model,
            shape,
            toolset,
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

    /// The conversation, in the API's messages, as the model read it.
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
            let offered = self.offered_tools(caller).await?;
            let response = self
                .model
                .respond(&self.transcript, &offered.declarations())
                .await
                .map_err(AssistantError::Model)?;
            let turn = self.shape.read_response(&response)?;
            self.transcript.extend(turn.messages);
            if turn.calls.is_empty() {
                self.events.push(Event::Answer(turn.text.clone()));
                return Ok(turn.text);
            }
            calls_made += turn.calls.len();
            if calls_made > self.max_calls {
                return Err(AssistantError::TooManySteps(self.max_calls));
            }
            self.events
                .extend(turn.calls.iter().map(|call| Event::Call {
                    name: call.name.clone(),
                    arguments: call.arguments.clone(),
                }));
            let answers = offered.call_all(&turn.calls, Some(caller)).await?;
            self.events
                .extend(answers.iter().map(|answer| Event::Result {
                    name: answer.call.name.clone(),
                    value: answer.output.value.clone(),
                    is_error: answer.output.is_error,
                }));
            self.transcript.extend(self.shape.answer_messages(&answers));
        }
    }

    /// What the toolset offers `caller` now: from the toolsets' caches on a warm turn.
    async fn offered_tools(
        &self,
        caller: &ReadonlyContext,
    ) -> Result<OfferedTools, AssistantError> {
        let tools = self.toolset.tools(Some(caller)).await?;
        Ok(OfferedTools::new(self.shape, tools)?)
    }
}
