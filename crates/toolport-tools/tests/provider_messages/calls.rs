//! Running one turn's calls: side by side where the tools allow it, one at a time otherwise,
//! answered in the calls' order; tool errors answered, transport failures returned; the
//! output budget and strict mode's added `null`s applied.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::Notify;
use toolport_fixtures::LabServer;
use toolport_testkit::DuplexConnector;
use toolport_tools::provider_messages::{ApiShape, FunctionCall, MessageError, OfferedTools};
use toolport_tools::{McpToolset, OutputBudget, Tool, ToolError, ToolOutput};

use crate::fakes::{FakeTool, Log, listed};

/// The calls of an Anthropic response asking for `calls`, `(name, input)` each, with ids
/// `toolu_1`, `toolu_2`, ...
fn tool_uses(calls: &[(&str, Value)]) -> Vec<FunctionCall> {
    let content: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(index, (name, input))| {
            json!({"type": "tool_use", "id": format!("toolu_{}", index + 1), "name": name, "input": input})
        })
        .collect();
    let response = json!({"role": "assistant", "content": content});
    ApiShape::Anthropic.read_response(&response).unwrap().calls
}

/// A tool that logs, yields to the other calls of its turn three times, and answers.
fn yielding(name: &str, annotations: Value, log: &Log) -> Arc<dyn Tool> {
    FakeTool::answering(listed(name, annotations), log, |_| async {
        for _ in 0..3 {
            tokio::task::yield_now().await;
        }
        Ok(ToolOutput::value(json!("done")))
    })
}

fn offered(tools: Vec<Arc<dyn Tool>>) -> OfferedTools {
    OfferedTools::new(ApiShape::Anthropic, tools).unwrap()
}

#[tokio::test(start_paused = true)]
async fn read_only_calls_overlap_and_are_answered_in_the_calls_order() {
    let log = Log::default();
    let fast_done = Arc::new(Notify::new());
    let slow = FakeTool::answering(listed("slow_read", json!({"readOnlyHint": true})), &log, {
        let fast_done = Arc::clone(&fast_done);
        move |_| {
            let fast_done = Arc::clone(&fast_done);
            async move {
                fast_done.notified().await;
                Ok(ToolOutput::value(json!("slow")))
            }
        }
    });
    let fast = FakeTool::answering(
        listed("fast_read", json!({"idempotentHint": true})),
        &log,
        {
            let fast_done = Arc::clone(&fast_done);
            move |_| {
                fast_done.notify_one();
                async { Ok(ToolOutput::value(json!("fast"))) }
            }
        },
    );
    let offered = offered(vec![slow, fast]);
    let calls = tool_uses(&[("slow_read", json!({})), ("fast_read", json!({}))]);
    // Run one at a time, the slow call would wait for ever: paused time ends that wait.
    let answers = tokio::time::timeout(Duration::from_secs(60), offered.call_all(&calls, None))
        .await
        .expect("the calls overlap")
        .unwrap();
    let values: Vec<&Value> = answers.iter().map(|answer| &answer.output.value).collect();
    assert_eq!(values, [&json!("slow"), &json!("fast")]);
    assert_eq!(answers[0].call.id.as_deref(), Some("toolu_1"));
    assert_eq!(
        log.entries(),
        [
            "start slow_read {}",
            "start fast_read {}",
            "end fast_read",
            "end slow_read"
        ]
    );
}

#[tokio::test]
async fn other_calls_run_alone_in_the_models_order() {
    let log = Log::default();
    let read_only = json!({"readOnlyHint": true});
    let tools = vec![
        yielding("read", read_only, &log),
        yielding("write_a", Value::Null, &log),
        yielding("write_b", json!({"readOnlyHint": false}), &log),
    ];
    let calls = tool_uses(&[
        ("read", json!({"n": 1})),
        ("write_a", json!({})),
        ("read", json!({"n": 2})),
        ("read", json!({"n": 3})),
        ("write_b", json!({})),
    ]);
    let answers = offered(tools).call_all(&calls, None).await.unwrap();
    let ids: Vec<&str> = answers
        .iter()
        .map(|answer| answer.call.id.as_deref().unwrap())
        .collect();
    assert_eq!(ids, ["toolu_1", "toolu_2", "toolu_3", "toolu_4", "toolu_5"]);
    assert_eq!(
        log.entries(),
        [
            "start read {\"n\":1}",
            "end read",
            "start write_a {}",
            "end write_a",
            "start read {\"n\":2}",
            "start read {\"n\":3}",
            "end read",
            "end read",
            "start write_b {}",
            "end write_b",
        ]
    );
}

#[tokio::test]
async fn a_transport_failure_is_returned_and_stops_the_turn() {
    let log = Log::default();
    let lost = FakeTool::answering(listed("charge", Value::Null), &log, |_| async {
        Err(ToolError::Layer("connection reset by peer".into()))
    });
    let after = yielding("notify", Value::Null, &log);
    let calls = tool_uses(&[("charge", json!({})), ("notify", json!({}))]);
    let error = offered(vec![lost, after])
        .call_all(&calls, None)
        .await
        .unwrap_err();
    let MessageError::CallFailed { call, source } = &error else {
        panic!("{error}");
    };
    assert_eq!(call.name, "charge");
    assert!(source.is_outcome_uncertain());
    assert_eq!(
        error.to_string(),
        "the call of charge failed: a layer of the call path failed: connection reset by peer"
    );
    assert_eq!(log.entries(), ["start charge {}", "end charge"]);
}

#[tokio::test]
async fn a_tool_level_error_and_an_unknown_name_are_answers() {
    let log = Log::default();
    let refusing = FakeTool::answering(listed("search", Value::Null), &log, |_| async {
        Err(ToolError::InvalidArguments {
            tool: "search".into(),
            reason: "`query` is required".into(),
        })
    });
    let calls = tool_uses(&[("search", json!({})), ("delete_all", json!({}))]);
    let answers = offered(vec![refusing])
        .call_all(&calls, None)
        .await
        .unwrap();
    assert!(answers.iter().all(|answer| answer.output.is_error));
    assert_eq!(
        answers[0].output.value,
        json!({"error": "invalid arguments for search: `query` is required"})
    );
    assert_eq!(
        answers[1].output.value,
        json!({"error": "There is no tool named delete_all."})
    );
}

#[tokio::test]
async fn the_nulls_strict_mode_added_are_taken_out_of_the_arguments() {
    let log = Log::default();
    let search = FakeTool::answering(
        json!({
            "name": "search",
            "inputSchema": {
                "type": "object",
                "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
                "required": ["query"],
            },
        }),
        &log,
        |_| async { Ok(ToolOutput::value(json!([]))) },
    );
    let offered = OfferedTools::new(ApiShape::OpenAiChat, [search]).unwrap();
    let declared = &offered.declarations()[0]["function"];
    assert_eq!(declared["strict"], true, "{declared}");
    assert_eq!(
        declared["parameters"]["required"],
        json!(["query", "limit"])
    );
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "search", "arguments": "{\"query\":\"refunds\",\"limit\":null}"}},
    ]}}]});
    let calls = ApiShape::OpenAiChat.read_response(&response).unwrap().calls;
    offered.call_all(&calls, None).await.unwrap();
    assert_eq!(log.entries()[0], "start search {\"query\":\"refunds\"}");
}

#[tokio::test]
async fn what_is_sent_is_the_value_the_tools_budget_cut() {
    const BUDGET: usize = 120;
    let text = "word ".repeat(400);
    for shape in ApiShape::ALL {
        let toolset = McpToolset::builder(DuplexConnector::new(LabServer::new))
            .fit_to(shape.provider())
            .output_budget(OutputBudget::bytes(BUDGET))
            .build()
            .await
            .unwrap();
        let offered = OfferedTools::new(shape, toolset.tools(None).await.unwrap()).unwrap();
        let calls = tool_uses(&[("echo", json!({"text": text}))]);
        let answers = offered.call_all(&calls, None).await.unwrap();
        assert_eq!(
            answers[0].output.uncut_value,
            Some(json!({"text": text})),
            "{shape}: the application keeps the whole"
        );
        let messages = shape.answer_messages(&answers);
        let sent = match shape {
            ApiShape::Gemini => {
                messages[0]["parts"][0]["functionResponse"]["response"]["output"].to_string()
            }
            ApiShape::OpenAiChat => messages[0]["content"].as_str().unwrap().to_owned(),
            ApiShape::OpenAiResponses => messages[0]["output"].as_str().unwrap().to_owned(),
            _ => messages[0]["content"][0]["content"]
                .as_str()
                .unwrap()
                .to_owned(),
        };
        assert!(sent.len() <= BUDGET, "{shape}: {sent}");
        assert!(sent.contains("cut"), "{shape}: {sent}");
        toolset.close().await;
    }
}
