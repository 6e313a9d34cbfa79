//! [`ScriptedModel`]: a chat model that replays recorded steps as one provider API's response
//! bodies, for tests and offline runs.

use std::collections::VecDeque;

use serde_json::Value;
use toolport::provider_messages::ApiShape;

use crate::ChatModel;
use crate::fake_api::{call_response, declared_names, text_response};

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

/// Replays its steps, one per turn, as response bodies of its API. It refuses tool
/// declarations not in that API's form, as the API would, and records the names it was offered
/// at each turn.
#[derive(Debug)]
pub struct ScriptedModel {
    shape: ApiShape,
    steps: VecDeque<Step>,
    offered: Vec<Vec<String>>,
    calls_sent: usize,
}

impl ScriptedModel {
    /// A model behind `shape`'s API that will take these steps.
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
    async fn respond(&mut self, _transcript: &[Value], tools: &Value) -> Result<Value, String> {
        self.offered.push(declared_names(self.shape, tools)?);
        match self.steps.pop_front() {
            Some(Step::Call(name, arguments)) => {
                self.calls_sent += 1;
                let id = format!("call_{}", self.calls_sent);
                call_response(self.shape, &id, &name, &arguments)
            }
            Some(Step::Answer(text)) => text_response(self.shape, &text),
            None => Err("the script has no more steps".to_owned()),
        }
    }
}
