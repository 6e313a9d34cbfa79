//! The tools offered: each API's request form of the declarations the toolset computes for its
//! provider, and model-facing names mapped back to the tools.

use std::sync::Arc;

use serde_json::{Value, json};
use toolport_tools::provider_messages::{ApiShape, MessageError, OfferedTools};
use toolport_tools::{McpToolset, Tool};

use crate::fakes::{FakeTool, Log, lab_tools};

/// The request's `tools` in `shape`, from a toolset's own declarations for its provider.
fn request_tools(shape: ApiShape, functions: Vec<Value>) -> Value {
    match shape {
        ApiShape::Gemini => json!([{"functionDeclarations": functions}]),
        ApiShape::OpenAiResponses => functions
            .into_iter()
            .map(|mut function| {
                let mut flat = function["function"].take();
                flat["type"] = json!("function");
                flat
            })
            .collect(),
        _ => Value::Array(functions),
    }
}

async fn own_declarations(toolset: &McpToolset) -> Vec<Value> {
    let tools = toolset.mcp_tools(None).await.unwrap();
    let functions = tools
        .iter()
        .map(|tool| tool.function_declaration().cloned());
    functions.collect::<Option<_>>().unwrap()
}

#[tokio::test]
async fn the_declarations_are_the_toolsets_own_in_the_requests_form() {
    for shape in ApiShape::ALL {
        let (fitted, tools) = lab_tools(Some(shape.provider())).await;
        let expected = request_tools(shape, own_declarations(&fitted).await);
        let offered = OfferedTools::new(shape, tools).unwrap();
        assert_eq!(offered.declarations(), expected, "{shape}");
        // A toolset fitted to no provider is declared alike.
        let (unfitted, tools) = lab_tools(None).await;
        let offered = OfferedTools::new(shape, tools).unwrap();
        assert_eq!(offered.declarations(), expected, "{shape}, unfitted");
        fitted.close().await;
        unfitted.close().await;
    }
}

#[test]
fn the_responses_api_declares_flat_function_tools() {
    let log = Log::default();
    let add = FakeTool::echoing("add", Value::Null, &log);
    let offered = OfferedTools::new(ApiShape::OpenAiResponses, [add]).unwrap();
    let declared = &offered.declarations()[0];
    assert_eq!(declared["type"], "function");
    assert_eq!(declared["name"], "add");
    assert_eq!(declared["strict"], true);
    assert!(declared.get("function").is_none(), "{declared}");
}

#[tokio::test]
async fn a_sanitized_or_shortened_name_reaches_its_tool() {
    let log = Log::default();
    let long_name = format!("reports.{}", "quarterly_".repeat(8));
    let tools: Vec<Arc<dyn Tool>> = vec![
        FakeTool::echoing("get.user", Value::Null, &log),
        FakeTool::echoing(&long_name, Value::Null, &log),
    ];
    let offered = OfferedTools::new(ApiShape::Gemini, tools).unwrap();
    let declared: Vec<String> = offered.declarations()[0]["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|declaration| declaration["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(declared[0], "get_user");
    assert_eq!(declared[1].len(), 64, "{}", declared[1]);
    assert!(
        declared[1].starts_with("reports_quarterly_"),
        "{}",
        declared[1]
    );
    assert_eq!(offered.tool("get_user").unwrap().name(), "get.user");

    let parts: Vec<Value> = declared
        .iter()
        .map(|name| json!({"functionCall": {"name": name, "args": {}}}))
        .collect();
    let response = json!({"candidates": [{"content": {"role": "model", "parts": parts}}]});
    let calls = ApiShape::Gemini.read_response(&response).unwrap().calls;
    let answers = offered.call_all(&calls, None).await.unwrap();
    assert_eq!(answers[0].output.value, json!({"tool": "get.user"}));
    assert_eq!(answers[1].output.value, json!({"tool": long_name}));
    let gemini = ApiShape::Gemini.answer_messages(&answers);
    assert_eq!(
        gemini[0]["parts"][0]["functionResponse"]["name"], "get_user",
        "the answer names the call as the model wrote it"
    );
}

#[test]
fn two_tools_of_one_name_are_refused() {
    let log = Log::default();
    let tools = [
        FakeTool::echoing("search", Value::Null, &log),
        FakeTool::echoing("search", Value::Null, &log),
    ];
    let error = OfferedTools::new(ApiShape::Anthropic, tools).unwrap_err();
    assert!(
        matches!(&error, MessageError::DuplicateTool { name } if name == "search"),
        "{error}"
    );
}
