//! Listing and calling over stdio against a task tracker written with the official Python SDK.

use toolport::McpToolset;
use toolport::model::ProtocolVersion;
use toolport_integration_tests::{exercise_task_tracker, python_task_tracker_stdio};

#[tokio::test]
async fn lists_calls_and_keeps_state_across_calls() {
    let toolset = McpToolset::builder(python_task_tracker_stdio())
        // The tracker keeps a book per MCP session, which 2026-07-28 no longer has.
        .session(|session| session.protocol_version(ProtocolVersion::V_2025_11_25))
        .allow(["list_tasks", "add_task", "complete_task"])
        .strict(true)
        .build()
        .await
        .unwrap();
    exercise_task_tracker(&toolset).await;
    toolset.close().await;
}
