//! [`ScriptedModel`]: a chat model that replays recorded steps in one provider's message shape,
//! for tests and offline runs.

use std::collections::VecDeque;

use serde_json::Value;

use crate::ChatModel;
use crate::wire::{ApiShape, FunctionCall};

/// One recorded step of the model.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Ask for a call of the named tool with these arguments.
    Call(String, Value),
    /// Answer with this text.
    Answer(String),
}

impl Step {
    /// A call of `name` with `arguments`.
    pub fn call(name: &str, arguments: Value) -> Self {
        Self::Call(name.to_owned(), arguments)
    }

    /// An answer.
    pub fn answer(text: &str) -> Self {
        Self::Answer(text.to_owned())
    }
}

/// Replays its steps, one per turn, as messages in its provider's shape. It refuses a function
/// declaration not in that shape, as the provider's API would, and records the names it was
/// offered at each turn.
#[derive(Debug)]
pub struct ScriptedModel {
    shape: ApiShape,
    steps: VecDeque<Step>,
    offered: Vec<Vec<String>>,
    calls_sent: usize,
}

impl ScriptedModel {
    /// A model of `shape` that will take these steps.
    pub fn new(shape: ApiShape, steps: impl IntoIterator<Item = Step>) -> Self {
        Self {
            shape,
            steps: steps.into_iter().collect(),
            offered: Vec::new(),
            calls_sent: 0,
        }
    }

    /// The tool names offered at each turn, in the order they were declared.
    pub fn offered(&self) -> &[Vec<String>] {
        &self.offered
    }
}

#[async_trait::async_trait]
impl ChatModel for ScriptedModel {
    async fn respond(
        &mut self,
        _transcript: &[Value],
        declarations: &[Value],
    ) -> Result<Value, String> {
        let names = declarations
            .iter()
            .map(|declaration| {
                self.shape
                    .declared_name(declaration)
                    .map(str::to_owned)
                    .ok_or_else(|| {
                        format!("not a {} function declaration: {declaration}", self.shape)
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.offered.push(names);
        match self.steps.pop_front() {
            Some(Step::Call(name, arguments)) => {
                self.calls_sent += 1;
                let call = FunctionCall {
                    id: format!("call_{}", self.calls_sent),
                    name,
                    arguments,
                };
                Ok(self.shape.call_message(&[call]))
            }
            Some(Step::Answer(text)) => Ok(self.shape.text_message(&text)),
            None => Err("the script has no more steps".to_owned()),
        }
    }
}
