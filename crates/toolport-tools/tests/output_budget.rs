//! Output budgets on `McpToolset` against in-process fixture servers: the model's copy is cut,
//! the application keeps the whole result, and a tool's own budget beats the toolset's.

use serde_json::{Value, json};
use toolport_fixtures::LabServer;
use toolport_testkit::{DuplexConnector, task_tracker_connector};
use toolport_tools::{Mapping, McpToolset, OutputBudget, OutputBudgets, ToolOutput};

/// The size of what the model reads: the text of a string, else the compact JSON.
fn model_size(value: &Value) -> usize {
    match value {
        Value::String(text) => text.len(),
        value => serde_json::to_string(value).unwrap().len(),
    }
}

async fn call(toolset: &McpToolset, name: &str, arguments: Value) -> ToolOutput {
    let tool = toolset.tool(name, None).await.unwrap();
    toolport_tools::Tool::call(&*tool, arguments, None)
        .await
        .unwrap()
}

#[tokio::test]
async fn structured_content_over_budget_keeps_whole_tasks_and_the_full_result() {
    let toolset = McpToolset::builder(task_tracker_connector())
        .output_budget(OutputBudget::bytes(600))
        .build()
        .await
        .unwrap();
    for n in 0..30 {
        let title = format!("Task number {n} with a title long enough to matter");
        call(&toolset, "add_task", json!({ "title": title })).await;
    }

    let output = call(&toolset, "list_tasks", json!({})).await;

    assert!(model_size(&output.value) <= 600, "{}", output.value);
    assert!(output.is_cut());
    assert_eq!(
        output.value["count"], 33,
        "small members after a big one stay"
    );
    let tasks = output.value["tasks"].as_array().unwrap();
    let (note, kept) = tasks.split_last().unwrap();
    // Whole tasks, and the first one that did not fit with the members that did.
    let (partial, whole) = kept.split_last().unwrap();
    assert!(!whole.is_empty());
    for (n, task) in whole.iter().enumerate() {
        assert_eq!(task["id"], format!("T-{}", n + 1));
        assert!(
            task["title"].is_string() && task["status"].is_string(),
            "{task}"
        );
    }
    assert_eq!(partial["id"], format!("T-{}", whole.len() + 1));
    assert!(
        partial["…"].as_str().unwrap().contains("members cut"),
        "{partial}"
    );
    let note = note.as_str().unwrap();
    assert!(
        note.starts_with(&format!("[… {} elements cut, ", 33 - kept.len())),
        "{note}"
    );

    let uncut = output.uncut_value.as_ref().unwrap();
    assert_eq!(uncut["tasks"].as_array().unwrap().len(), 33);
    let result = output.result.as_ref().unwrap();
    let structured = result.structured_content.as_ref().unwrap();
    assert_eq!(structured, uncut);
    toolset.close().await;
}

#[tokio::test]
async fn text_over_budget_keeps_head_and_tail_and_the_full_result() {
    let toolset = McpToolset::builder(DuplexConnector::new(LabServer::new))
        .mapping(Mapping::Raw)
        .output_budget(OutputBudget::tokens(100))
        .build()
        .await
        .unwrap();
    let text = format!("BEGIN {} END", "lorem ipsum ".repeat(1_000));

    let output = call(&toolset, "echo", json!({ "text": text })).await;

    assert!(model_size(&output.value) <= 400, "{}", output.value);
    let cut = output.value["content"][0]["text"].as_str().unwrap();
    assert!(cut.starts_with("BEGIN lorem"), "{cut}");
    assert!(cut.ends_with("ipsum  END"), "{cut}");
    assert!(cut.contains(" bytes cut …]"), "{cut}");
    assert!(
        output.value.get("structuredContent").is_none(),
        "structured content is left out whole, not cut: {}",
        output.value
    );
    assert_eq!(
        output.uncut_value.as_ref().unwrap()["content"][0]["text"],
        text
    );
    let result = output.result.as_ref().unwrap();
    assert_eq!(result.structured_content, Some(json!({ "text": text })));
    toolset.close().await;
}

#[tokio::test]
async fn a_tool_budget_beats_the_toolset_budget() {
    let toolset = McpToolset::builder(DuplexConnector::new(LabServer::new))
        .mapping(Mapping::Raw)
        .output_budget(
            OutputBudgets::from(OutputBudget::bytes(100)).tool("echo", OutputBudget::bytes(2_000)),
        )
        .build()
        .await
        .unwrap();
    let echo = toolset.tool("echo", None).await.unwrap();
    assert_eq!(echo.output_budget(), Some(OutputBudget::bytes(2_000)));
    let add = toolset.tool("add", None).await.unwrap();
    assert_eq!(add.output_budget(), Some(OutputBudget::bytes(100)));

    let within = call(&toolset, "echo", json!({"text": "m".repeat(500)})).await;
    assert!(!within.is_cut(), "{}", within.value);
    assert!(model_size(&within.value) > 100);

    let over = call(&toolset, "echo", json!({"text": "m".repeat(5_000)})).await;
    assert!(over.is_cut());
    assert!(model_size(&over.value) <= 2_000, "{}", over.value);
    assert!(model_size(&over.value) > 100, "{}", over.value);
    toolset.close().await;

    let exempt = McpToolset::builder(DuplexConnector::new(LabServer::new))
        .output_budget(
            OutputBudgets::from(OutputBudget::bytes(10)).tool("echo", OutputBudget::unlimited()),
        )
        .build()
        .await
        .unwrap();
    let output = call(&exempt, "echo", json!({"text": "n".repeat(5_000)})).await;
    assert!(!output.is_cut());
    assert_eq!(output.value, json!({"text": "n".repeat(5_000)}));
    exempt.close().await;
}

#[tokio::test]
async fn without_a_budget_nothing_is_cut_and_the_result_is_kept() {
    let toolset = McpToolset::builder(DuplexConnector::new(LabServer::new))
        .build()
        .await
        .unwrap();
    assert_eq!(
        toolset.tool("echo", None).await.unwrap().output_budget(),
        None
    );
    let output = call(&toolset, "echo", json!({"text": "x".repeat(100_000)})).await;
    assert!(!output.is_cut());
    assert_eq!(output.uncut_value, None);
    assert_eq!(output.value["text"].as_str().unwrap().len(), 100_000);
    assert!(output.result.is_some());
    toolset.close().await;
}
