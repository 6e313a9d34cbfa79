//! [`ReplayLlm`]: an ADK-Rust model that answers with recorded turns, for testing an agent
//! without a model, as the reference's tests do.

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};

use adk_core::{AdkError, Content, Llm, LlmRequest, LlmResponse, LlmResponseStream, Part};
use serde_json::{Value, json};

/// An ADK-Rust [`Llm`] that answers each request with the next recorded turn and keeps every
/// request it receives. The agent loop, the tools and the servers stay real; only the model is
/// replaced, so a change in how the framework calls tools or shows their results changes
/// [`transcript`](Self::transcript).
///
/// # Examples
///
/// ```
/// use serde_json::json;
/// use toolport_adk::ReplayLlm;
///
/// let model = ReplayLlm::new([
///     ReplayLlm::call("call-0", "list_tasks", json!({})),
///     ReplayLlm::answer("There are three tasks."),
/// ]);
/// assert_eq!(model.transcript(), json!([]));
/// ```
#[derive(Debug)]
pub struct ReplayLlm {
    /// The turns still to come, the next one last.
    turns: Mutex<Vec<Content>>,
    requests: Mutex<Vec<LlmRequest>>,
}

impl ReplayLlm {
    /// A model that answers with `turns`, in order.
    pub fn new(turns: impl IntoIterator<Item = Content>) -> Self {
        let mut turns: Vec<Content> = turns.into_iter().collect();
        turns.reverse();
        Self {
            turns: Mutex::new(turns),
            requests: Mutex::default(),
        }
    }

    /// A recorded turn that calls the tool `name` with `args`, under the call id `id`.
    pub fn call(id: &str, name: &str, args: Value) -> Content {
        Content {
            role: "model".into(),
            parts: vec![Part::FunctionCall {
                name: name.into(),
                args,
                id: Some(id.into()),
                thought_signature: None,
            }],
        }
    }

    /// A recorded turn that answers `text`.
    pub fn answer(text: &str) -> Content {
        Content::new("model").with_text(text)
    }

    /// Every request received, in order, as JSON: the tool declarations by name, and the
    /// contents the model was shown.
    pub fn transcript(&self) -> Value {
        let requests = self.requests.lock().unwrap_or_else(PoisonError::into_inner);
        Value::Array(
            requests
                .iter()
                .map(|request| {
                    let tools: BTreeMap<&String, &Value> = request.tools.iter().collect();
                    json!({"tools": tools, "contents": request.contents})
                })
                .collect(),
        )
    }

    /// How many requests it received.
    pub fn request_count(&self) -> usize {
        self.requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

#[async_trait::async_trait]
impl Llm for ReplayLlm {
    fn name(&self) -> &str {
        "replay"
    }

    async fn generate_content(
        &self,
        request: LlmRequest,
        _stream: bool,
    ) -> adk_core::Result<LlmResponseStream> {
        self.requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(request);
        let turn = self
            .turns
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .ok_or_else(|| {
                AdkError::model(
                    "the replay model has no recorded turn left: record one more turn, or \
                     check why the agent asked the model again",
                )
            })?;
        Ok(Box::pin(futures_util::stream::iter([Ok(
            LlmResponse::new(turn),
        )])))
    }
}
