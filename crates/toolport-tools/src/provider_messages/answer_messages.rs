//! Writing a turn's answers as each API's next request takes them: the results, and the
//! images and audio where the API accepts them.

use serde_json::{Map, Value, json};

use super::media::{Placement, place};
use super::{ApiShape, ToolAnswer};

impl ApiShape {
    /// The messages that answer a turn's calls, to append to the conversation after the
    /// model's [`messages`](super::ModelTurn::messages). Each answer's value goes as the
    /// model reads it: a string as its text, any other value as compact JSON (the size its
    /// [`OutputBudget`](crate::OutputBudget) bounds), or, for Gemini, inside the response
    /// object. Media go where the API takes them:
    ///
    /// - **Gemini**: one `user` content of a `functionResponse` part per answer (`{"output":
    ///   value}`, or for an error the `{"error": …}` value), then, for each answer with
    ///   media, a text part naming the call and its media as `inlineData` parts.
    /// - **Chat Completions**: a `role: "tool"` message per answer, its content the text;
    ///   the media, which a tool message cannot hold, follow in one `user` message, each
    ///   answer's after a text part naming the call (`image_url`, `input_audio`).
    /// - **Responses API**: a `function_call_output` item per answer, its `output` the text;
    ///   the images follow in one `user` message item (`input_image`), each answer's after an
    ///   `input_text` naming the call.
    /// - **Anthropic**: one `user` message of a `tool_result` block per answer, with
    ///   `"is_error": true` for an error; its content is the text, or, with media, a `text`
    ///   block and `image` blocks.
    ///
    /// Media an API does not take (audio but for Gemini and Chat Completions' WAV and MP3,
    /// images other than PNG, JPEG, GIF and WebP but for Gemini) are left out, and a note in
    /// their place tells the model so. Resources are in the value already.
    pub fn answer_messages(self, answers: &[ToolAnswer]) -> Vec<Value> {
        match self {
            Self::Gemini => gemini(answers),
            Self::OpenAiChat => chat(answers),
            Self::OpenAiResponses => responses(answers),
            Self::Anthropic => anthropic(answers),
        }
    }

    /// The media of `answer` as this API takes them.
    fn media(self, answer: &ToolAnswer) -> Vec<Placement> {
        let parts = answer.output.parts.iter();
        parts.filter_map(|part| place(self, part)).collect()
    }
}

fn gemini(answers: &[ToolAnswer]) -> Vec<Value> {
    let mut parts: Vec<Value> = answers
        .iter()
        .map(|answer| {
            let output = &answer.output;
            let response = match &output.value {
                Value::Object(error) if output.is_error && error.contains_key("error") => {
                    output.value.clone()
                }
                value if output.is_error => json!({ "error": value }),
                value => json!({ "output": value }),
            };
            let mut function_response = Map::new();
            if let Some(id) = &answer.call.id {
                function_response.insert("id".to_owned(), json!(id));
            }
            function_response.insert("name".to_owned(), json!(answer.call.name));
            function_response.insert("response".to_owned(), response);
            json!({ "functionResponse": function_response })
        })
        .collect();
    for answer in answers {
        let media = ApiShape::Gemini.media(answer);
        if media.is_empty() {
            continue;
        }
        parts.push(json!({ "text": media_label(answer) }));
        parts.extend(media.into_iter().map(|placement| match placement {
            Placement::Block(block) => block,
            Placement::LeftOut(note) => json!({ "text": note }),
        }));
    }
    vec![json!({"role": "user", "parts": parts})]
}

fn chat(answers: &[ToolAnswer]) -> Vec<Value> {
    let mut messages: Vec<Value> = answers
        .iter()
        .map(|answer| {
            json!({
                "role": "tool",
                "tool_call_id": answer.call.id,
                "content": model_text(&answer.output.value),
            })
        })
        .collect();
    let media = media_content(
        ApiShape::OpenAiChat,
        answers,
        |text| json!({"type": "text", "text": text}),
    );
    if !media.is_empty() {
        messages.push(json!({"role": "user", "content": media}));
    }
    messages
}

fn responses(answers: &[ToolAnswer]) -> Vec<Value> {
    let mut items: Vec<Value> = answers
        .iter()
        .map(|answer| {
            json!({
                "type": "function_call_output",
                "call_id": answer.call.id,
                "output": model_text(&answer.output.value),
            })
        })
        .collect();
    let media = media_content(
        ApiShape::OpenAiResponses,
        answers,
        |text| json!({"type": "input_text", "text": text}),
    );
    if !media.is_empty() {
        items.push(json!({"type": "message", "role": "user", "content": media}));
    }
    items
}

fn anthropic(answers: &[ToolAnswer]) -> Vec<Value> {
    let blocks: Vec<Value> = answers
        .iter()
        .map(|answer| {
            let text = model_text(&answer.output.value);
            let media = ApiShape::Anthropic.media(answer);
            let content = if media.is_empty() {
                json!(text)
            } else {
                let mut content = vec![json!({"type": "text", "text": text})];
                content.extend(media.into_iter().map(|placement| match placement {
                    Placement::Block(block) => block,
                    Placement::LeftOut(note) => json!({"type": "text", "text": note}),
                }));
                Value::Array(content)
            };
            let mut block = json!({
                "type": "tool_result",
                "tool_use_id": answer.call.id,
                "content": content,
            });
            if answer.output.is_error {
                block["is_error"] = json!(true);
            }
            block
        })
        .collect();
    vec![json!({"role": "user", "content": blocks})]
}

/// The content of the user message that carries the answers' media for an OpenAI API: for
/// each answer with media, a text part naming the call, then its media; `text` makes a text
/// part in the API's form.
fn media_content(
    shape: ApiShape,
    answers: &[ToolAnswer],
    text: impl Fn(String) -> Value,
) -> Vec<Value> {
    let mut content = Vec::new();
    for answer in answers {
        let media = shape.media(answer);
        if media.is_empty() {
            continue;
        }
        content.push(text(media_label(answer)));
        content.extend(media.into_iter().map(|placement| match placement {
            Placement::Block(block) => block,
            Placement::LeftOut(note) => text(note),
        }));
    }
    content
}

/// The words that tell the model which call the media after them came from.
fn media_label(answer: &ToolAnswer) -> String {
    let call = &answer.call;
    match &call.id {
        Some(id) => format!("Media returned by {} (call {id}):", call.name),
        None => format!("Media returned by {}:", call.name),
    }
}

/// What the model reads of a value as text: a string as it is, anything else as compact JSON.
fn model_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider_messages::FunctionCall;
    use crate::{MediaPart, ToolOutput};

    /// The answer to call `call_1` of `clip`, which returned an Ogg clip beside its value.
    fn answer_with_ogg() -> ToolAnswer {
        let ogg = MediaPart::Audio {
            mime_type: "audio/ogg".to_owned(),
            data: "T2dn".to_owned(),
        };
        ToolAnswer {
            call: FunctionCall {
                id: Some("call_1".to_owned()),
                name: "clip".to_owned(),
                arguments: json!({}),
            },
            output: ToolOutput::value(json!("recorded")).with_parts(vec![ogg]),
        }
    }

    const NOTE: &str = "(An audio/ogg audio clip was left out: the {} API does not take it here.)";

    #[test]
    fn anthropic_says_in_the_tool_result_what_it_left_out() {
        let messages = ApiShape::Anthropic.answer_messages(&[answer_with_ogg()]);
        assert_eq!(
            messages[0]["content"][0]["content"],
            json!([
                {"type": "text", "text": "recorded"},
                {"type": "text", "text": NOTE.replace("{}", "anthropic")},
            ])
        );
    }

    #[test]
    fn chat_completions_says_after_the_tool_messages_what_it_left_out() {
        let messages = ApiShape::OpenAiChat.answer_messages(&[answer_with_ogg()]);
        assert_eq!(messages[0]["content"], "recorded");
        assert_eq!(
            messages[1],
            json!({"role": "user", "content": [
                {"type": "text", "text": "Media returned by clip (call call_1):"},
                {"type": "text", "text": NOTE.replace("{}", "openai-chat")},
            ]})
        );
    }

    #[test]
    fn gemini_takes_the_clip_inline() {
        let messages = ApiShape::Gemini.answer_messages(&[answer_with_ogg()]);
        let parts = &messages[0]["parts"];
        assert_eq!(parts[0]["functionResponse"]["id"], "call_1");
        assert_eq!(
            parts[2],
            json!({"inlineData": {"mimeType": "audio/ogg", "data": "T2dn"}})
        );
    }
}
