//! [`Agent`]: the loop between a model and a toolset.

use std::sync::Arc;

use serde_json::{Value, json};
use toolport::{Tool, ToolDeclaration, Toolset, ToolsetError};

use crate::{Model, ModelTurn};

/// One entry of the conversation.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// What the user said.
    User(String),
    /// The model asked for a tool call.
    ToolCall {
        /// The tool.
        name: String,
        /// Its arguments.
        arguments: Value,
    },
    /// What the tool gave back, errors included.
    ToolResult {
        /// The tool.
        name: String,
        /// The model-facing value.
        value: Value,
        /// Whether the call failed.
        is_error: bool,
    },
    /// The model's answer.
    Assistant(String),
}

/// Why a turn could not finish. A failing tool is not one of these: its error goes to the
/// model as a [`Message::ToolResult`].
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The tools could not be loaded.
    #[error(transparent)]
    Tools(#[from] ToolsetError),
    /// The model failed.
    #[error("the model failed: {0}")]
    Model(String),
    /// The model kept calling tools past the step limit.
    #[error("no answer after {0} tool calls")]
    TooManySteps(usize),
}

/// A model and a toolset, looping until the model answers.
#[derive(Debug)]
pub struct Agent<M> {
    model: M,
    toolset: Arc<dyn Toolset>,
    max_steps: usize,
    conversation: Vec<Message>,
}

impl<M: Model> Agent<M> {
    /// An agent that allows up to 8 tool calls per user message.
    pub fn new(model: M, toolset: Arc<dyn Toolset>) -> Self {
        Self {
            model,
            toolset,
            max_steps: 8,
            conversation: Vec::new(),
        }
    }

    /// The model, to inspect what it saw.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The whole conversation so far.
    pub fn conversation(&self) -> &[Message] {
        &self.conversation
    }

    /// Handles one user message and returns the model's answer.
    pub async fn send(&mut self, user_message: &str) -> Result<String, AgentError> {
        self.conversation
            .push(Message::User(user_message.to_owned()));
        for _ in 0..self.max_steps {
            let tools = self.toolset.tools(None).await?;
            let declarations: Vec<ToolDeclaration> = tools
                .iter()
                .map(|tool| tool.declaration().clone())
                .collect();
            let turn = self
                .model
                .next_turn(&self.conversation, &declarations)
                .await
                .map_err(AgentError::Model)?;
            match turn {
                ModelTurn::Reply(answer) => {
                    self.conversation.push(Message::Assistant(answer.clone()));
                    return Ok(answer);
                }
                ModelTurn::CallTool { name, arguments } => {
                    self.conversation.push(Message::ToolCall {
                        name: name.clone(),
                        arguments: arguments.clone(),
                    });
                    let result = call(&tools, &name, arguments).await;
                    self.conversation.push(result);
                }
            }
        }
        Err(AgentError::TooManySteps(self.max_steps))
    }
}

/// Calls a tool; every failure becomes a result the model can read.
async fn call(tools: &[Arc<dyn Tool>], name: &str, arguments: Value) -> Message {
    let Some(tool) = tools.iter().find(|tool| tool.name() == name) else {
        return Message::ToolResult {
            name: name.to_owned(),
            value: json!({"error": format!("There is no tool named {name}.")}),
            is_error: true,
        };
    };
    match tool.call(arguments, None).await {
        Ok(output) => Message::ToolResult {
            name: name.to_owned(),
            value: output.value,
            is_error: output.is_error,
        },
        Err(error) => Message::ToolResult {
            name: name.to_owned(),
            value: json!({"error": error.to_string()}),
            is_error: true,
        },
    }
}
