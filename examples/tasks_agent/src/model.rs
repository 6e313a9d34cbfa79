//! The [`Model`] trait: what the agent loop asks of a language model.

use serde_json::Value;
use toolport::ToolDeclaration;

use crate::Message;

/// One decision of the model.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelTurn {
    /// Call a tool with these arguments.
    CallTool {
        /// The tool's name.
        name: String,
        /// Its arguments, a JSON object.
        arguments: Value,
    },
    /// Answer the user; the turn ends.
    Reply(String),
}

/// A language model, as the loop sees it: given the conversation so far and the tools on
/// offer, it decides the next step.
#[async_trait::async_trait]
pub trait Model: Send {
    /// The next step.
    async fn next_turn(
        &mut self,
        conversation: &[Message],
        tools: &[ToolDeclaration],
    ) -> Result<ModelTurn, String>;
}
