//! Reading a model's response body: the messages the conversation keeps, the text, and the
//! tool calls, for each [`ApiShape`].

use serde_json::{Map, Value, json};

use super::{ApiShape, FunctionCall, MessageError, ModelTurn};

impl ApiShape {
    /// What the model's `response` (the whole body the API answered) holds for the loop.
    ///
    /// # Errors
    ///
    /// [`MessageError::Unreadable`] when the body is not in this shape, holds no message (a
    /// Gemini prompt blocked, say), or holds a call without a name or (but for Gemini) an id.
    pub fn read_response(self, response: &Value) -> Result<ModelTurn, MessageError> {
        let read = match self {
            Self::Gemini => read_gemini(response),
            Self::OpenAiChat => read_chat(response),
            Self::OpenAiResponses => read_responses(response),
            Self::Anthropic => read_anthropic(response),
        };
        read.map_err(|reason| MessageError::Unreadable {
            shape: self,
            reason,
        })
    }
}

/// `candidates[0].content`, whose parts hold `functionCall`s and text.
fn read_gemini(response: &Value) -> Result<ModelTurn, String> {
    let Some(candidate) = response["candidates"].get(0) else {
        return Err(match response["promptFeedback"].get("blockReason") {
            Some(reason) => format!("no candidate: the prompt was blocked ({reason})"),
            None => "no `candidates[0]`".to_owned(),
        });
    };
    let Some(content) = candidate
        .get("content")
        .filter(|content| content.is_object())
    else {
        return Err(format!(
            "the candidate has no content (finishReason {})",
            candidate["finishReason"]
        ));
    };
    let parts = content["parts"].as_array().map_or(&[][..], Vec::as_slice);
    let mut calls = Vec::new();
    let mut text = String::new();
    for part in parts {
        if let Some(call) = part.get("functionCall") {
            calls.push(FunctionCall {
                id: call["id"].as_str().map(str::to_owned),
                name: string(call, "name", "a functionCall")?,
                arguments: call.get("args").cloned().unwrap_or_else(empty_object),
            });
        } else if let Some(piece) = part["text"].as_str()
            && part["thought"] != true
        {
            text.push_str(piece);
        }
    }
    Ok(ModelTurn {
        messages: vec![content.clone()],
        calls,
        text,
    })
}

/// `choices[0].message`, with its `tool_calls` and `content`.
fn read_chat(response: &Value) -> Result<ModelTurn, String> {
    let Some(message) = response["choices"][0]
        .get("message")
        .filter(|message| message.is_object())
    else {
        return Err("no `choices[0].message`".to_owned());
    };
    let tool_calls = message["tool_calls"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    let calls = tool_calls
        .iter()
        .map(|call| {
            let function = &call["function"];
            Ok(FunctionCall {
                id: Some(string(call, "id", "a tool call")?),
                name: string(function, "name", "a tool call's function")?,
                arguments: json_arguments(&string(function, "arguments", "a tool call")?),
            })
        })
        .collect::<Result<_, String>>()?;
    let text = match &message["content"] {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|part| part["text"].as_str())
            .collect(),
        _ => String::new(),
    };
    Ok(ModelTurn {
        messages: vec![message.clone()],
        calls,
        text,
    })
}

/// The `output` items: `function_call`s, and `message`s of `output_text`.
fn read_responses(response: &Value) -> Result<ModelTurn, String> {
    let Some(output) = response["output"].as_array() else {
        return Err("no `output` array".to_owned());
    };
    let mut calls = Vec::new();
    let mut text = String::new();
    for item in output {
        match item["type"].as_str() {
            Some("function_call") => calls.push(FunctionCall {
                id: Some(string(item, "call_id", "a function_call")?),
                name: string(item, "name", "a function_call")?,
                arguments: json_arguments(&string(item, "arguments", "a function_call")?),
            }),
            Some("message") => {
                let content = item["content"].as_array().map_or(&[][..], Vec::as_slice);
                content
                    .iter()
                    .filter(|piece| piece["type"] == "output_text")
                    .filter_map(|piece| piece["text"].as_str())
                    .for_each(|piece| text.push_str(piece));
            }
            _ => {}
        }
    }
    Ok(ModelTurn {
        messages: output.clone(),
        calls,
        text,
    })
}

/// The `content` blocks: `tool_use` and `text`.
fn read_anthropic(response: &Value) -> Result<ModelTurn, String> {
    let Some(content) = response["content"].as_array() else {
        return Err("no `content` array".to_owned());
    };
    let mut calls = Vec::new();
    let mut text = String::new();
    for block in content {
        match block["type"].as_str() {
            Some("tool_use") => calls.push(FunctionCall {
                id: Some(string(block, "id", "a tool_use block")?),
                name: string(block, "name", "a tool_use block")?,
                arguments: block.get("input").cloned().unwrap_or_else(empty_object),
            }),
            Some("text") => text.push_str(block["text"].as_str().unwrap_or_default()),
            _ => {}
        }
    }
    Ok(ModelTurn {
        messages: vec![json!({"role": "assistant", "content": content})],
        calls,
        text,
    })
}

/// The string `key` of `value`, or why `what` cannot be read.
fn string(value: &Value, key: &str, what: &str) -> Result<String, String> {
    match value[key].as_str() {
        Some(text) => Ok(text.to_owned()),
        None => Err(format!("{what} without a string `{key}`: {value}")),
    }
}

/// The arguments the OpenAI APIs send as a JSON string: parsed, an empty string as no
/// arguments, and a string that is not JSON kept as it is.
fn json_arguments(raw: &str) -> Value {
    if raw.trim().is_empty() {
        return empty_object();
    }
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_owned()))
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}
