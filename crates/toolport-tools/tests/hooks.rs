//! Before-call and after-call hooks, layers on the call path, over the scripted transport: a
//! denied call and an answered call never reach the server, an approved one does, an after-call
//! hook rewrites what the model reads, and the order they were added in decides who sees what.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};
use toolport_tools::{AfterCallLayer, BeforeCallLayer, Decision, McpToolset, Tool, ToolCall};

use common::{answer_call, call_listed, listed};

#[tokio::test]
async fn a_denied_call_never_reaches_the_server_and_the_model_reads_why() {
    let (call, mut connection, toolset) = call_listed(
        listed("drop_table", Value::Null),
        |builder| {
            builder.layer(BeforeCallLayer::new(|_: &ToolCall| async {
                Decision::deny("drop_table is off today")
            }))
        },
        json!({"table": "users"}),
    )
    .await;
    let output = call.await.unwrap().unwrap();
    assert!(output.is_error);
    assert!(
        output.value.to_string().contains("drop_table is off today"),
        "{}",
        output.value
    );
    assert!(connection.try_recv().is_none(), "no tools/call was sent");
    toolset.close().await;
}

#[tokio::test]
async fn an_answered_call_never_reaches_the_server_and_the_model_reads_the_answer() {
    let after_calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&after_calls);
    let (call, mut connection, toolset) = call_listed(
        listed("weather", Value::Null),
        move |builder| {
            builder
                .layer(BeforeCallLayer::new(|call: &ToolCall| {
                    let city = call.argument("city").cloned();
                    async move {
                        let mut result =
                            CallToolResult::success(vec![ContentBlock::text("sunny, from cache")]);
                        result.structured_content = Some(json!({"city": city, "sky": "sunny"}));
                        Decision::Answer(result)
                    }
                }))
                .layer(AfterCallLayer::new(
                    move |_: &ToolCall, result: CallToolResult| {
                        counted.fetch_add(1, Ordering::SeqCst);
                        async move { result }
                    },
                ))
        },
        json!({"city": "Lyon"}),
    )
    .await;
    let output = call.await.unwrap().unwrap();
    assert!(!output.is_error);
    assert_eq!(output.value, json!({"city": "Lyon", "sky": "sunny"}));
    assert!(connection.try_recv().is_none(), "no tools/call was sent");
    assert_eq!(after_calls.load(Ordering::SeqCst), 0, "an answer is final");
    toolset.close().await;
}

#[tokio::test]
async fn hooks_run_in_order_and_the_first_that_does_not_approve_decides() {
    let asked = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&asked);
    let (call, mut connection, toolset) = call_listed(
        listed("echo", Value::Null),
        move |builder| {
            builder
                .layer(BeforeCallLayer::new(|_: &ToolCall| async {
                    Decision::Approve
                }))
                .layer(BeforeCallLayer::new(|_: &ToolCall| async {
                    Decision::deny("second says no")
                }))
                .layer(BeforeCallLayer::new(move |_: &ToolCall| {
                    counted.fetch_add(1, Ordering::SeqCst);
                    async { Decision::Approve }
                }))
        },
        json!({}),
    )
    .await;
    let output = call.await.unwrap().unwrap();
    assert!(output.value.to_string().contains("second says no"));
    assert_eq!(
        asked.load(Ordering::SeqCst),
        0,
        "the third hook was never asked"
    );
    assert!(connection.try_recv().is_none());
    toolset.close().await;
}

#[tokio::test]
async fn an_approved_call_reaches_the_server_with_the_arguments_the_hook_saw() {
    let seen = Arc::new(std::sync::Mutex::new(None));
    let recorded = Arc::clone(&seen);
    let (call, mut connection, toolset) = call_listed(
        listed("echo", Value::Null),
        move |builder| {
            builder.layer(BeforeCallLayer::new(move |call: &ToolCall| {
                *recorded.lock().unwrap() = call.arguments.clone();
                async { Decision::Approve }
            }))
        },
        json!({"text": "hi"}),
    )
    .await;
    let sent = answer_call(&mut connection, "hi").await;
    call.await.unwrap().unwrap();
    assert_eq!(sent, json!({"text": "hi"}));
    assert_eq!(
        seen.lock().unwrap().clone().map(Value::Object),
        Some(sent),
        "the hook judged what was sent"
    );
    toolset.close().await;
}

#[tokio::test]
async fn an_after_call_hook_rewrites_what_the_model_reads() {
    let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector())
        .layer(AfterCallLayer::new(
            |call: &ToolCall, mut result: CallToolResult| {
                let name = call.name.clone();
                async move {
                    if let Some(content) = result.structured_content.as_mut() {
                        content["checked_by"] = json!(format!("the after hook of {name}"));
                    }
                    result
                }
            },
        ))
        .build()
        .await
        .unwrap();
    let list_tasks = toolset.tool("list_tasks", None).await.unwrap();
    let output = list_tasks.call(json!({}), None).await.unwrap();
    assert_eq!(output.value["checked_by"], "the after hook of list_tasks");
    assert_eq!(output.value["count"], 3);
    toolset.close().await;
}

#[tokio::test]
async fn hooks_are_layers_so_an_after_hook_outside_a_before_hook_sees_its_answer() {
    let (call, mut connection, toolset) = call_listed(
        listed("weather", Value::Null),
        |builder| {
            builder
                .layer(AfterCallLayer::new(
                    |_: &ToolCall, mut result: CallToolResult| async move {
                        result.content.push(ContentBlock::text("(checked)"));
                        result
                    },
                ))
                .layer(BeforeCallLayer::new(|_: &ToolCall| async {
                    Decision::Answer(CallToolResult::success(vec![ContentBlock::text(
                        "sunny, from cache",
                    )]))
                }))
        },
        json!({"city": "Lyon"}),
    )
    .await;
    let output = call.await.unwrap().unwrap();
    let read = output.value.to_string();
    assert!(
        read.contains("sunny, from cache") && read.contains("(checked)"),
        "{read}"
    );
    assert!(connection.try_recv().is_none(), "no tools/call was sent");
    toolset.close().await;
}
