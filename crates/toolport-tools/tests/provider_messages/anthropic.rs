//! Anthropic's Messages API: `tool_use` blocks read, `tool_result` blocks written, images
//! inside them, errors flagged `is_error`.

use serde_json::{Value, json};
use toolport_tools::provider_messages::{
    ANTHROPIC_TOOL_SEARCH_BETA, ApiShape, MessageError, OfferedTools,
};

use crate::fakes::{FakeTool, Log, calls, lab};

const SHAPE: ApiShape = ApiShape::Anthropic;

/// A message whose content holds text and `tool_use` blocks: `(id, name, input)` each.
fn response(tool_uses: &[(&str, &str, Value)]) -> Value {
    let mut content = vec![json!({"type": "text", "text": "I'll look that up."})];
    content.extend(tool_uses.iter().map(
        |(id, name, input)| json!({"type": "tool_use", "id": id, "name": name, "input": input}),
    ));
    json!({
        "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": content,
        "stop_reason": "tool_use",
        "stop_sequence": null,
        "usage": {"input_tokens": 412, "output_tokens": 96},
    })
}

#[test]
fn a_response_gives_an_assistant_message_text_and_calls() {
    let response = response(&[("toolu_01A09q90qw", "add", json!({"a": 2, "b": 3}))]);
    let turn = SHAPE.read_response(&response).unwrap();
    assert_eq!(
        turn.messages,
        [json!({"role": "assistant", "content": response["content"]})]
    );
    assert_eq!(turn.text, "I'll look that up.");
    assert_eq!(turn.calls[0].id.as_deref(), Some("toolu_01A09q90qw"));
    assert_eq!(turn.calls[0].arguments, json!({"a": 2, "b": 3}));
}

#[tokio::test]
async fn tool_results_hold_their_images_and_flag_errors() {
    let (toolset, offered) = lab(SHAPE).await;
    let calls = calls(
        SHAPE,
        &response(&[
            ("toolu_1", "get_image", json!({})),
            ("toolu_2", "add", json!({"a": 2, "b": 3})),
            ("toolu_3", "crash", json!({})),
            ("toolu_4", "issue_refund", json!({})),
        ]),
    );
    let answers = offered.call_all(&calls, None).await.unwrap();
    let [message] = &SHAPE.answer_messages(&answers)[..] else {
        panic!("one message");
    };
    assert_eq!(message["role"], "user");
    let results = message["content"].as_array().unwrap();
    let image = &results[0];
    assert_eq!(image["tool_use_id"], "toolu_1");
    assert_eq!(
        image["content"][0],
        json!({"type": "text", "text": "{\"content\":\"1 image attached\"}"})
    );
    assert_eq!(image["content"][1]["type"], "image");
    assert_eq!(
        image["content"][1]["source"]["media_type"], "image/png",
        "{image}"
    );
    assert_eq!(
        results[1],
        json!({"type": "tool_result", "tool_use_id": "toolu_2", "content": "{\"sum\":5}"})
    );
    assert_eq!(results[2]["is_error"], true);
    assert_eq!(
        results[3],
        json!({
            "type": "tool_result",
            "tool_use_id": "toolu_4",
            "content": "{\"error\":\"There is no tool named issue_refund.\"}",
            "is_error": true,
        })
    );
    toolset.close().await;
}

/// With Anthropic's own tool search, every tool but the loaded ones is declared
/// `defer_loading`, the search tool comes last, and a call of a tool the search found (after
/// the API's `server_tool_use` and `tool_search_tool_result` blocks) reaches its tool; another
/// API has no such search.
#[tokio::test]
async fn the_native_tool_search_defers_all_but_the_loaded_tools() {
    let log = Log::default();
    let tools = ["add", "echo", "sleep"].map(|name| FakeTool::echoing(name, Value::Null, &log));
    let offered = OfferedTools::new(SHAPE, tools.clone())
        .unwrap()
        .with_native_tool_search(["add", "not_offered"])
        .unwrap();
    let declarations = offered.declarations();
    let deferred: Vec<(&str, bool)> = declarations.as_array().unwrap()[..3]
        .iter()
        .map(|d| (d["name"].as_str().unwrap(), d["defer_loading"] == true))
        .collect();
    assert_eq!(deferred, [("add", false), ("echo", true), ("sleep", true)]);
    assert_eq!(
        declarations[3],
        json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
    );
    assert_eq!(ANTHROPIC_TOOL_SEARCH_BETA, "advanced-tool-use-2025-11-20");

    let mut found = response(&[("toolu_02", "echo", json!({"text": "hi"}))]);
    let content = found["content"].as_array_mut().unwrap();
    content.insert(1, json!({"type": "server_tool_use", "id": "srvtoolu_01", "name": "tool_search_tool_bm25", "input": {"query": "repeat text"}}));
    content.insert(2, json!({"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_01", "content": {"type": "tool_search_tool_search_result", "tool_references": [{"type": "tool_reference", "tool_name": "echo"}]}}));
    let turn = SHAPE.read_response(&found).unwrap();
    assert_eq!(
        turn.messages[0]["content"], found["content"],
        "the search's blocks are kept"
    );
    assert_eq!(turn.calls.len(), 1);
    let answers = offered.call_all(&turn.calls, None).await.unwrap();
    assert_eq!(answers[0].output.value, json!({"tool": "echo"}));

    for shape in [
        ApiShape::Gemini,
        ApiShape::OpenAiChat,
        ApiShape::OpenAiResponses,
    ] {
        let refused = OfferedTools::new(shape, tools.clone())
            .unwrap()
            .with_native_tool_search(["add"]);
        assert!(
            matches!(refused, Err(MessageError::NoNativeToolSearch { shape: s }) if s == shape),
            "{shape}"
        );
    }
}
