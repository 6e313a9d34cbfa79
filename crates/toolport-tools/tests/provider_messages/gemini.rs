//! The Gemini API: `functionCall` parts read, `functionResponse` parts written, media as
//! `inlineData` parts of the same content.

use serde_json::{Value, json};
use toolport_tools::provider_messages::{ApiShape, MessageError};

use crate::fakes::{calls, lab};

const SHAPE: ApiShape = ApiShape::Gemini;

/// A `generateContent` response with a thought summary, text, and two calls.
fn response() -> Value {
    json!({
        "candidates": [{
            "content": {
                "role": "model",
                "parts": [
                    {"text": "The user wants the image and a sum.", "thought": true},
                    {"text": "Fetching both."},
                    {"functionCall": {"name": "get_image", "args": {}}, "thoughtSignature": "CiQBjz1rX2w="},
                    {"functionCall": {"name": "add", "args": {"a": 2, "b": 3}}},
                ],
            },
            "finishReason": "STOP",
            "index": 0,
        }],
        "usageMetadata": {"promptTokenCount": 212, "candidatesTokenCount": 31, "totalTokenCount": 243},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "yQZzaOjJB5bDnvgPpYvUgQs",
    })
}

#[test]
fn a_response_gives_its_content_text_and_calls() {
    let response = response();
    let turn = SHAPE.read_response(&response).unwrap();
    assert_eq!(
        turn.messages,
        [response["candidates"][0]["content"].clone()]
    );
    assert_eq!(
        turn.text, "Fetching both.",
        "thought summaries are left out"
    );
    let calls: Vec<(&str, &Value)> = turn
        .calls
        .iter()
        .map(|call| (call.name.as_str(), &call.arguments))
        .collect();
    assert_eq!(
        calls,
        [("get_image", &json!({})), ("add", &json!({"a": 2, "b": 3}))]
    );
    assert!(turn.calls.iter().all(|call| call.id.is_none()));
}

#[test]
fn a_blocked_prompt_is_unreadable_and_says_why() {
    let blocked = json!({"promptFeedback": {"blockReason": "SAFETY"}});
    let error = SHAPE.read_response(&blocked).unwrap_err();
    assert!(matches!(error, MessageError::Unreadable { .. }));
    assert_eq!(
        error.to_string(),
        "the gemini response cannot be read: no candidate: the prompt was blocked (\"SAFETY\")"
    );
}

#[tokio::test]
async fn answers_are_function_responses_then_the_media_inline() {
    let (toolset, offered) = lab(SHAPE).await;
    let mut calls = calls(SHAPE, &response());
    calls.extend(crate::fakes::calls(
        SHAPE,
        &json!({"candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"id": "c-3", "name": "crash", "args": {}}},
            {"functionCall": {"name": "refund", "args": {}}},
        ]}}]}),
    ));
    let answers = offered.call_all(&calls, None).await.unwrap();
    let [content] = &SHAPE.answer_messages(&answers)[..] else {
        panic!("one content");
    };
    assert_eq!(content["role"], "user");
    let parts = content["parts"].as_array().unwrap();
    assert_eq!(
        parts[0],
        json!({"functionResponse": {"name": "get_image", "response": {"output": {"content": "1 image attached"}}}})
    );
    assert_eq!(
        parts[1],
        json!({"functionResponse": {"name": "add", "response": {"output": {"sum": 5}}}})
    );
    let crash = &parts[2]["functionResponse"];
    assert_eq!(crash["id"], "c-3", "the call's id comes back");
    assert!(
        crash["response"]["error"]
            .as_str()
            .unwrap()
            .contains("crash()"),
        "{crash}"
    );
    assert_eq!(
        parts[3]["functionResponse"]["response"],
        json!({"error": "There is no tool named refund."})
    );
    assert_eq!(parts[4], json!({"text": "Media returned by get_image:"}));
    assert_eq!(parts[5]["inlineData"]["mimeType"], "image/png");
    assert!(
        parts[5]["inlineData"]["data"]
            .as_str()
            .unwrap()
            .starts_with("iVBOR")
    );
    assert_eq!(parts.len(), 6);
    toolset.close().await;
}
