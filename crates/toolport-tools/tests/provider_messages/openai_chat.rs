//! OpenAI's Chat Completions: `tool_calls` read, `role: "tool"` messages written, media in a
//! user message after them.

use serde_json::{Value, json};
use toolport_tools::provider_messages::ApiShape;

use crate::fakes::{calls, lab};

const SHAPE: ApiShape = ApiShape::OpenAiChat;

/// A chat completion whose message asks for `tool_calls`: `(id, name, arguments)` each.
fn response(tool_calls: &[(&str, &str, &str)]) -> Value {
    let tool_calls: Vec<Value> = tool_calls
        .iter()
        .map(|(id, name, arguments)| {
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
        })
        .collect();
    json!({
        "id": "chatcmpl-BvKd0fJ2mQx8Rw",
        "object": "chat.completion",
        "created": 1753120415,
        "model": "gpt-4.1-2025-04-14",
        "choices": [{
            "index": 0,
            "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": tool_calls,
                "refusal": null,
                "annotations": [],
            },
            "logprobs": null,
            "finish_reason": "tool_calls",
        }],
        "usage": {"prompt_tokens": 187, "completion_tokens": 52, "total_tokens": 239},
        "service_tier": "default",
    })
}

#[test]
fn a_response_gives_its_message_and_calls_with_parsed_arguments() {
    let response = response(&[
        ("call_Jd3kXmz", "get_image", "{}"),
        ("call_Q8pLw2", "add", "{\"a\":2,\"b\":3}"),
    ]);
    let turn = SHAPE.read_response(&response).unwrap();
    assert_eq!(turn.messages, [response["choices"][0]["message"].clone()]);
    assert_eq!(turn.text, "");
    assert_eq!(turn.calls[0].id.as_deref(), Some("call_Jd3kXmz"));
    assert_eq!(turn.calls[1].name, "add");
    assert_eq!(turn.calls[1].arguments, json!({"a": 2, "b": 3}));
}

#[test]
fn an_answer_is_text_without_calls() {
    let answer = json!({"choices": [{"message": {"role": "assistant", "content": "It is 5."}}]});
    let turn = SHAPE.read_response(&answer).unwrap();
    assert!(turn.calls.is_empty());
    assert_eq!(turn.text, "It is 5.");
}

#[tokio::test]
async fn tool_messages_come_in_order_and_the_media_after_them() {
    let (toolset, offered) = lab(SHAPE).await;
    let calls = calls(
        SHAPE,
        &response(&[
            ("call_1", "get_image", "{}"),
            ("call_2", "add", "{\"a\":2,\"b\":3}"),
            ("call_3", "crash", "{}"),
            ("call_4", "issue_refund", "{}"),
        ]),
    );
    let answers = offered.call_all(&calls, None).await.unwrap();
    let messages = SHAPE.answer_messages(&answers);
    assert_eq!(messages.len(), 5);
    let tool_messages: Vec<(&Value, &Value)> = messages[..4]
        .iter()
        .map(|message| {
            assert_eq!(message["role"], "tool");
            (&message["tool_call_id"], &message["content"])
        })
        .collect();
    assert_eq!(
        tool_messages[..2],
        [
            (
                &json!("call_1"),
                &json!("{\"content\":\"1 image attached\"}")
            ),
            (&json!("call_2"), &json!("{\"sum\":5}")),
        ]
    );
    assert!(tool_messages[2].1.as_str().unwrap().contains("\"error\""));
    assert_eq!(
        tool_messages[3].1,
        &json!("{\"error\":\"There is no tool named issue_refund.\"}")
    );
    let media = &messages[4];
    assert_eq!(media["role"], "user");
    assert_eq!(
        media["content"][0],
        json!({"type": "text", "text": "Media returned by get_image (call call_1):"})
    );
    assert_eq!(media["content"][1]["type"], "image_url");
    let url = media["content"][1]["image_url"]["url"].as_str().unwrap();
    assert!(url.starts_with("data:image/png;base64,iVBOR"), "{url}");
    toolset.close().await;
}

#[tokio::test]
async fn arguments_that_are_not_json_are_answered_without_a_call() {
    let (toolset, offered) = lab(SHAPE).await;
    let calls = calls(SHAPE, &response(&[("call_1", "add", "{\"a\": 2,")]));
    assert_eq!(calls[0].arguments, json!("{\"a\": 2,"));
    let answers = offered.call_all(&calls, None).await.unwrap();
    assert!(answers[0].output.is_error);
    assert_eq!(
        answers[0].output.value,
        json!({"error": "The arguments of add must be a JSON object; they were \"{\\\"a\\\": 2,\"."})
    );
    toolset.close().await;
}
