//! [`ScriptedModel`]: a model that replays recorded turns, for tests and offline demos.

use std::collections::VecDeque;

use toolport::ToolDeclaration;

use crate::{Message, Model, ModelTurn};

/// Replays the given turns in order and records what it was shown, so a test can check what
/// reached the model (a tool error as a message, say, or which tools were declared).
#[derive(Debug, Default)]
pub struct ScriptedModel {
    turns: VecDeque<ModelTurn>,
    seen: Vec<Vec<Message>>,
    declared: Vec<Vec<String>>,
}

impl ScriptedModel {
    /// A model that will take these turns.
    pub fn new(turns: impl IntoIterator<Item = ModelTurn>) -> Self {
        Self {
            turns: turns.into_iter().collect(),
            seen: Vec::new(),
            declared: Vec::new(),
        }
    }

    /// The conversation as the model saw it at each of its turns.
    pub fn seen(&self) -> &[Vec<Message>] {
        &self.seen
    }

    /// The names of the tools declared to the model at each of its turns.
    pub fn declared(&self) -> &[Vec<String>] {
        &self.declared
    }
}

#[async_trait::async_trait]
impl Model for ScriptedModel {
    async fn next_turn(
        &mut self,
        conversation: &[Message],
        tools: &[ToolDeclaration],
    ) -> Result<ModelTurn, String> {
        self.seen.push(conversation.to_vec());
        self.declared
            .push(tools.iter().map(|tool| tool.name.clone()).collect());
        self.turns
            .pop_front()
            .ok_or_else(|| "the script has no more turns".to_owned())
    }
}
