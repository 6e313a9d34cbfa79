//! What each provider's API would answer, for the [`ScriptedModel`](crate::ScriptedModel): the
//! response bodies of a tool call and of an answer, and the tool names a request declares.

use serde_json::{Value, json};
use toolport::provider_messages::ApiShape;

/// The body `shape`'s API answers when the model calls `name` with `arguments`; `id` is the
/// call's id.
pub(crate) fn call_response(
    shape: ApiShape,
    id: &str,
    name: &str,
    arguments: &Value,
) -> Result<Value, String> {
    Ok(match shape {
        ApiShape::Gemini => json!({
            "candidates": [{
                "content": {"role": "model", "parts": [{"functionCall": {"name": name, "args": arguments}}]},
                "finishReason": "STOP",
            }],
        }),
        // Both OpenAI APIs send the arguments as a JSON string.
        ApiShape::OpenAiChat => json!({
            "object": "chat.completion",
            "choices": [{
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": null,
                    "tool_calls": [{
                        "id": id,
                        "type": "function",
                        "function": {"name": name, "arguments": arguments.to_string()},
                    }],
                },
                "finish_reason": "tool_calls",
            }],
        }),
        ApiShape::OpenAiResponses => json!({
            "object": "response",
            "output": [{
                "type": "function_call",
                "id": format!("fc_{id}"),
                "call_id": id,
                "name": name,
                "arguments": arguments.to_string(),
            }],
        }),
        ApiShape::Anthropic => json!({
            "type": "message",
            "role": "assistant",
            "content": [{"type": "tool_use", "id": id, "name": name, "input": arguments}],
            "stop_reason": "tool_use",
        }),
        other => return Err(format!("the scripted model does not speak {other}")),
    })
}

/// The body `shape`'s API answers when the model answers with `text`.
pub(crate) fn text_response(shape: ApiShape, text: &str) -> Result<Value, String> {
    Ok(match shape {
        ApiShape::Gemini => json!({
            "candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}],
        }),
        ApiShape::OpenAiChat => json!({
            "object": "chat.completion",
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }],
        }),
        ApiShape::OpenAiResponses => json!({
            "object": "response",
            "output": [{
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": text}],
            }],
        }),
        ApiShape::Anthropic => json!({
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
        }),
        other => return Err(format!("the scripted model does not speak {other}")),
    })
}

/// The tool names a request's `tools` declares, in order, or why `shape`'s API would refuse
/// them.
pub(crate) fn declared_names(shape: ApiShape, tools: &Value) -> Result<Vec<String>, String> {
    let refused = |tool: &Value| format!("not a {shape} tool declaration: {tool}");
    let tools = tools
        .as_array()
        .ok_or_else(|| format!("`tools` is not an array: {tools}"))?;
    let declarations: Vec<&Value> = match shape {
        ApiShape::Gemini => tools
            .iter()
            .map(|tool| {
                tool["functionDeclarations"]
                    .as_array()
                    .ok_or_else(|| refused(tool))
            })
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .flatten()
            .collect(),
        _ => tools.iter().collect(),
    };
    declarations
        .into_iter()
        .map(|declaration| {
            let name = match shape {
                ApiShape::OpenAiChat if declaration["type"] == "function" => {
                    &declaration["function"]["name"]
                }
                ApiShape::OpenAiResponses if declaration["type"] == "function" => {
                    &declaration["name"]
                }
                ApiShape::Anthropic if declaration["input_schema"].is_object() => {
                    &declaration["name"]
                }
                ApiShape::Gemini => &declaration["name"],
                _ => return Err(refused(declaration)),
            };
            name.as_str()
                .map(str::to_owned)
                .ok_or_else(|| refused(declaration))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_reads_back_the_calls_and_text_it_writes() {
        let arguments = json!({"customer_id": "C-1001", "month": "2026-09"});
        for shape in ApiShape::ALL {
            let response = call_response(shape, "call_1", "list_invoices", &arguments).unwrap();
            let turn = shape.read_response(&response).unwrap();
            assert_eq!(turn.calls.len(), 1, "{shape}");
            assert_eq!(turn.calls[0].name, "list_invoices", "{shape}");
            assert_eq!(turn.calls[0].arguments, arguments, "{shape}");
            let response = text_response(shape, "Refund INV-2026-0918.").unwrap();
            let turn = shape.read_response(&response).unwrap();
            assert!(turn.calls.is_empty());
            assert_eq!(turn.text, "Refund INV-2026-0918.", "{shape}");
        }
    }

    #[test]
    fn declarations_of_another_shape_are_refused() {
        let chat = json!([{"type": "function", "function": {"name": "get_invoice"}}]);
        assert_eq!(
            declared_names(ApiShape::OpenAiChat, &chat).unwrap(),
            ["get_invoice"]
        );
        for shape in [
            ApiShape::Gemini,
            ApiShape::OpenAiResponses,
            ApiShape::Anthropic,
        ] {
            let error = declared_names(shape, &chat).unwrap_err();
            assert!(error.starts_with("not a "), "{shape}: {error}");
        }
    }
}
