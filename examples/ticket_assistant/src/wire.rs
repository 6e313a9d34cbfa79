//! [`ApiShape`]: how each provider's chat API spells the messages of a tool-using turn, from the
//! user's question to the tool results, so the loop can talk to any of them.

use std::fmt;

use serde_json::{Value, json};
use toolport::schema::Provider;

/// A provider's chat API, as far as tool calls go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApiShape {
    /// Gemini's `generateContent`: `functionCall` and `functionResponse` parts.
    Gemini,
    /// OpenAI's Chat Completions: `tool_calls`, answered by `tool` messages.
    OpenAi,
    /// Anthropic's Messages: `tool_use` blocks, answered by `tool_result` blocks.
    Anthropic,
}

/// A tool call the model asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionCall {
    /// The call's ID, which its result must name (Gemini matches by name instead).
    pub id: String,
    /// The tool, by its model-facing name.
    pub name: String,
    /// The arguments, a JSON object.
    pub arguments: Value,
}

/// What the model's message amounts to.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelReply {
    /// Call these tools, then ask again.
    Calls(Vec<FunctionCall>),
    /// The answer; the turn ends.
    Text(String),
}

/// The result of one call, as it goes back to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct CallResult {
    /// The call answered.
    pub call: FunctionCall,
    /// The model-facing value.
    pub value: Value,
    /// Whether the call failed.
    pub is_error: bool,
}

/// A model message this loop cannot read.
#[derive(Debug, thiserror::Error)]
#[error("a {shape} model message the assistant cannot read: {message}")]
pub struct UnreadableReply {
    shape: ApiShape,
    message: Value,
}

impl ApiShape {
    /// The shape of `provider`'s API.
    pub fn of(provider: Provider) -> Option<Self> {
        Some(match provider {
            Provider::Gemini => Self::Gemini,
            Provider::OpenAi => Self::OpenAi,
            Provider::Anthropic => Self::Anthropic,
            _ => return None,
        })
    }

    /// The provider whose schemas and names the toolsets are fitted to.
    pub fn provider(self) -> Provider {
        match self {
            Self::Gemini => Provider::Gemini,
            Self::OpenAi => Provider::OpenAi,
            Self::Anthropic => Provider::Anthropic,
        }
    }

    /// The name of a function declaration as the provider's request carries it.
    pub fn declared_name(self, declaration: &Value) -> Option<&str> {
        match self {
            Self::Gemini | Self::Anthropic => declaration["name"].as_str(),
            Self::OpenAi => (declaration["type"] == "function")
                .then(|| declaration["function"]["name"].as_str())
                .flatten(),
        }
    }

    /// The user's message.
    pub fn user_message(self, text: &str) -> Value {
        match self {
            Self::Gemini => json!({"role": "user", "parts": [{"text": text}]}),
            Self::OpenAi | Self::Anthropic => json!({"role": "user", "content": text}),
        }
    }

    /// A model message that answers with `text`.
    pub fn text_message(self, text: &str) -> Value {
        match self {
            Self::Gemini => json!({"role": "model", "parts": [{"text": text}]}),
            Self::OpenAi => json!({"role": "assistant", "content": text}),
            Self::Anthropic => {
                json!({"role": "assistant", "content": [{"type": "text", "text": text}]})
            }
        }
    }

    /// A model message that asks for `calls`.
    pub fn call_message(self, calls: &[FunctionCall]) -> Value {
        match self {
            Self::Gemini => {
                let parts: Vec<Value> = calls
                    .iter()
                    .map(
                        |call| json!({"functionCall": {"name": call.name, "args": call.arguments}}),
                    )
                    .collect();
                json!({"role": "model", "parts": parts})
            }
            Self::OpenAi => {
                let tool_calls: Vec<Value> = calls
                    .iter()
                    .map(|call| {
                        json!({
                            "id": call.id,
                            "type": "function",
                            // Chat Completions sends the arguments as a JSON string.
                            "function": {"name": call.name, "arguments": call.arguments.to_string()},
                        })
                    })
                    .collect();
                json!({"role": "assistant", "content": null, "tool_calls": tool_calls})
            }
            Self::Anthropic => {
                let blocks: Vec<Value> = calls
                    .iter()
                    .map(|call| {
                        json!({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments})
                    })
                    .collect();
                json!({"role": "assistant", "content": blocks})
            }
        }
    }

    /// What the model's `message` asks for.
    ///
    /// # Errors
    ///
    /// When the message is neither tool calls nor text in this shape.
    pub fn read_reply(self, message: &Value) -> Result<ModelReply, UnreadableReply> {
        let unreadable = || UnreadableReply {
            shape: self,
            message: message.clone(),
        };
        let reply = match self {
            Self::Gemini => {
                let parts = message["parts"].as_array().ok_or_else(unreadable)?;
                let calls: Vec<FunctionCall> = parts
                    .iter()
                    .filter_map(|part| part.get("functionCall"))
                    .map(|call| FunctionCall {
                        id: call["name"].as_str().unwrap_or_default().to_owned(),
                        name: call["name"].as_str().unwrap_or_default().to_owned(),
                        arguments: call["args"].clone(),
                    })
                    .collect();
                let text = parts.iter().filter_map(|part| part["text"].as_str());
                calls_or_text(calls, text)
            }
            Self::OpenAi => match message["tool_calls"].as_array() {
                Some(tool_calls) => ModelReply::Calls(
                    tool_calls
                        .iter()
                        .map(|call| {
                            let arguments = call["function"]["arguments"].as_str()?;
                            Some(FunctionCall {
                                id: call["id"].as_str()?.to_owned(),
                                name: call["function"]["name"].as_str()?.to_owned(),
                                arguments: serde_json::from_str(arguments).ok()?,
                            })
                        })
                        .collect::<Option<_>>()
                        .ok_or_else(unreadable)?,
                ),
                None => {
                    ModelReply::Text(message["content"].as_str().ok_or_else(unreadable)?.into())
                }
            },
            Self::Anthropic => {
                let blocks = message["content"].as_array().ok_or_else(unreadable)?;
                let calls: Vec<FunctionCall> = blocks
                    .iter()
                    .filter(|block| block["type"] == "tool_use")
                    .map(|block| FunctionCall {
                        id: block["id"].as_str().unwrap_or_default().to_owned(),
                        name: block["name"].as_str().unwrap_or_default().to_owned(),
                        arguments: block["input"].clone(),
                    })
                    .collect();
                let text = blocks.iter().filter_map(|block| block["text"].as_str());
                calls_or_text(calls, text)
            }
        };
        match &reply {
            ModelReply::Calls(calls) if calls.iter().any(|call| call.name.is_empty()) => {
                Err(unreadable())
            }
            _ => Ok(reply),
        }
    }

    /// The messages that hand `results` back to the model.
    pub fn result_messages(self, results: &[CallResult]) -> Vec<Value> {
        match self {
            Self::Gemini => {
                let parts: Vec<Value> = results
                    .iter()
                    .map(|result| {
                        // A function response is an object: the value, or the error.
                        let key = if result.is_error { "error" } else { "result" };
                        json!({"functionResponse": {"name": result.call.name, "response": {key: result.value}}})
                    })
                    .collect();
                vec![json!({"role": "user", "parts": parts})]
            }
            Self::OpenAi => results
                .iter()
                .map(|result| {
                    json!({"role": "tool", "tool_call_id": result.call.id, "content": result.value.to_string()})
                })
                .collect(),
            Self::Anthropic => {
                let blocks: Vec<Value> = results
                    .iter()
                    .map(|result| {
                        json!({
                            "type": "tool_result",
                            "tool_use_id": result.call.id,
                            "content": result.value.to_string(),
                            "is_error": result.is_error,
                        })
                    })
                    .collect();
                vec![json!({"role": "user", "content": blocks})]
            }
        }
    }
}

impl fmt::Display for ApiShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.provider().name())
    }
}

/// Tool calls when there are any, else the text joined.
fn calls_or_text<'a>(calls: Vec<FunctionCall>, text: impl Iterator<Item = &'a str>) -> ModelReply {
    if calls.is_empty() {
        ModelReply::Text(text.collect::<Vec<_>>().join(""))
    } else {
        ModelReply::Calls(calls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHAPES: [ApiShape; 3] = [ApiShape::Gemini, ApiShape::OpenAi, ApiShape::Anthropic];

    #[test]
    fn every_shape_reads_back_the_calls_and_text_it_writes() {
        let call = FunctionCall {
            id: "list_invoices".into(),
            name: "list_invoices".into(),
            arguments: json!({"customer_id": "C-1001", "month": "2026-09"}),
        };
        for shape in SHAPES {
            let calls = shape.read_reply(&shape.call_message(std::slice::from_ref(&call)));
            assert_eq!(
                calls.unwrap(),
                ModelReply::Calls(vec![call.clone()]),
                "{shape}"
            );
            let text = shape.read_reply(&shape.text_message("Refund INV-2026-0918."));
            assert_eq!(
                text.unwrap(),
                ModelReply::Text("Refund INV-2026-0918.".into())
            );
        }
    }

    #[test]
    fn a_message_of_another_shape_is_unreadable() {
        let openai_call = ApiShape::OpenAi.call_message(&[FunctionCall {
            id: "call_1".into(),
            name: "get_invoice".into(),
            arguments: json!({}),
        }]);
        let error = ApiShape::Gemini.read_reply(&openai_call).unwrap_err();
        assert!(
            error.to_string().starts_with("a gemini model message"),
            "{error}"
        );
        let broken_arguments =
            json!({"tool_calls": [{"id": "c", "function": {"name": "x", "arguments": "{"}}]});
        assert!(ApiShape::OpenAi.read_reply(&broken_arguments).is_err());
    }

    #[test]
    fn results_go_back_as_each_api_expects() {
        let result = CallResult {
            call: FunctionCall {
                id: "toolu_1".into(),
                name: "issue_refund".into(),
                arguments: json!({}),
            },
            value: json!({"error": "There is no tool named issue_refund."}),
            is_error: true,
        };
        let [gemini] = &ApiShape::Gemini.result_messages(std::slice::from_ref(&result))[..] else {
            panic!("one message");
        };
        assert_eq!(
            gemini["parts"][0]["functionResponse"]["response"]["error"],
            result.value
        );
        let openai = &ApiShape::OpenAi.result_messages(std::slice::from_ref(&result))[0];
        assert_eq!(openai["tool_call_id"], "toolu_1");
        assert_eq!(openai["content"], result.value.to_string());
        let anthropic = &ApiShape::Anthropic.result_messages(std::slice::from_ref(&result))[0];
        assert_eq!(anthropic["content"][0]["is_error"], true);
    }

    #[test]
    fn declarations_are_read_in_each_shape() {
        let gemini = json!({"name": "get_invoice", "parameters": {}});
        let openai = json!({"type": "function", "function": {"name": "get_invoice"}});
        assert_eq!(ApiShape::Gemini.declared_name(&gemini), Some("get_invoice"));
        assert_eq!(ApiShape::OpenAi.declared_name(&openai), Some("get_invoice"));
        assert_eq!(ApiShape::OpenAi.declared_name(&gemini), None);
        assert_eq!(
            ApiShape::Anthropic.declared_name(&gemini),
            Some("get_invoice")
        );
    }
}
