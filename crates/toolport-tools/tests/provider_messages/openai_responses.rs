//! OpenAI's Responses API: `function_call` items read, `function_call_output` items written,
//! images in a user message item after them.

use serde_json::{Value, json};
use toolport_tools::provider_messages::ApiShape;

use crate::fakes::{calls, lab};

const SHAPE: ApiShape = ApiShape::OpenAiResponses;

/// A response whose output holds a reasoning item, a message and two function calls.
fn response() -> Value {
    json!({
        "id": "resp_68a1c0f2e4d88190a3",
        "object": "response",
        "created_at": 1755431154,
        "status": "completed",
        "model": "gpt-5-2025-08-07",
        "output": [
            {"id": "rs_68a1c0f3", "type": "reasoning", "summary": []},
            {
                "id": "msg_68a1c0f4",
                "type": "message",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Fetching both.", "annotations": []}],
            },
            {
                "id": "fc_68a1c0f5",
                "type": "function_call",
                "status": "completed",
                "call_id": "call_kR2mW9",
                "name": "get_image",
                "arguments": "{}",
            },
            {
                "id": "fc_68a1c0f6",
                "type": "function_call",
                "status": "completed",
                "call_id": "call_Tn4pZ1",
                "name": "add",
                "arguments": "{\"a\":2,\"b\":3}",
            },
        ],
        "usage": {"input_tokens": 201, "output_tokens": 77, "total_tokens": 278},
    })
}

#[test]
fn a_response_gives_its_output_items_text_and_calls() {
    let response = response();
    let turn = SHAPE.read_response(&response).unwrap();
    assert_eq!(turn.messages, response["output"].as_array().unwrap()[..]);
    assert_eq!(turn.text, "Fetching both.");
    let calls: Vec<(Option<&str>, &str, &Value)> = turn
        .calls
        .iter()
        .map(|call| (call.id.as_deref(), call.name.as_str(), &call.arguments))
        .collect();
    assert_eq!(
        calls,
        [
            (Some("call_kR2mW9"), "get_image", &json!({})),
            (Some("call_Tn4pZ1"), "add", &json!({"a": 2, "b": 3})),
        ]
    );
}

#[test]
fn a_function_call_without_a_call_id_is_unreadable() {
    let broken = json!({"output": [{"type": "function_call", "name": "add", "arguments": "{}"}]});
    let error = SHAPE.read_response(&broken).unwrap_err().to_string();
    assert!(
        error.starts_with("the openai-responses response cannot be read: a function_call without a string `call_id`"),
        "{error}"
    );
}

#[tokio::test]
async fn outputs_are_text_and_the_images_follow_as_input_images() {
    let (toolset, offered) = lab(SHAPE).await;
    let answers = offered
        .call_all(&calls(SHAPE, &response()), None)
        .await
        .unwrap();
    let items = SHAPE.answer_messages(&answers);
    assert_eq!(
        items[..2],
        [
            json!({"type": "function_call_output", "call_id": "call_kR2mW9", "output": "{\"content\":\"1 image attached\"}"}),
            json!({"type": "function_call_output", "call_id": "call_Tn4pZ1", "output": "{\"sum\":5}"}),
        ]
    );
    let media = &items[2];
    assert_eq!(
        (&media["type"], &media["role"]),
        (&json!("message"), &json!("user"))
    );
    assert_eq!(
        media["content"][0],
        json!({"type": "input_text", "text": "Media returned by get_image (call call_kR2mW9):"})
    );
    assert_eq!(media["content"][1]["type"], "input_image");
    let url = media["content"][1]["image_url"].as_str().unwrap();
    assert!(url.starts_with("data:image/png;base64,"), "{url}");
    assert_eq!(items.len(), 3);
    toolset.close().await;
}
