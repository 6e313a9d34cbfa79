//! The whole stack over the `toolport-fixture` binary as a real child process: a crash is
//! detected and the next use reconnects, and no child outlives its toolset, closed or merely
//! dropped, not even (on Linux) a daemon that left the server's process group.

use std::time::{Duration, Instant};

use serde_json::json;
use toolport::stdio::StdioServer;
use toolport::{McpToolset, ServerExit, SessionError, ToolError};
use toolport_fixtures::{processes_with, wait_until_gone};

/// The `toolport-fixture` binary serving `mode` over stdio.
fn fixture(mode: &str) -> StdioServer {
    StdioServer::new(env!("CARGO_BIN_EXE_toolport-fixture")).arg(mode)
}

#[tokio::test]
async fn a_crashed_server_is_reported_and_replaced_on_next_use() {
    let toolset = McpToolset::builder(fixture("lab").args(["--lifetime-secs", "101"]))
        .build()
        .await
        .unwrap();
    let tools = toolset.tools(None).await.unwrap();
    let tool = |name: &str| {
        tools
            .iter()
            .find(|tool| tool.name() == name)
            .unwrap()
            .clone()
    };

    let error = tool("crash").call(json!({}), None).await.unwrap_err();
    let ToolError::Session(SessionError::OutcomeUncertain { details, .. }) = &error else {
        panic!("expected an uncertain outcome, got {error}");
    };
    let details = details.as_deref().unwrap_or_default();
    assert!(details.contains("exited with status 3"), "{details}");

    let echoed = tool("echo")
        .call(json!({"text": "again"}), None)
        .await
        .unwrap();
    assert_eq!(echoed.value, json!({"text": "again"}));
    toolset.close().await;
    assert_eq!(
        wait_until_gone(&["toolport-fixture", "101"]).await,
        Vec::<u32>::new()
    );
}

#[tokio::test]
async fn close_stops_the_child() {
    let toolset = McpToolset::builder(fixture("tasks").args(["--lifetime-secs", "102"]))
        .build()
        .await
        .unwrap();
    toolset.tools(None).await.unwrap();
    assert_eq!(processes_with(&["toolport-fixture", "102"]).len(), 1);

    toolset.close().await;

    assert_eq!(
        processes_with(&["toolport-fixture", "102"]),
        Vec::<u32>::new(),
        "the child has exited and been reaped when close returns"
    );
}

#[tokio::test]
async fn dropping_the_toolset_without_close_stops_the_child() {
    let toolset = McpToolset::builder(fixture("tasks").args(["--lifetime-secs", "103"]))
        .build()
        .await
        .unwrap();
    toolset.tools(None).await.unwrap();
    assert_eq!(processes_with(&["toolport-fixture", "103"]).len(), 1);

    drop(toolset);

    assert_eq!(
        wait_until_gone(&["toolport-fixture", "103"]).await,
        Vec::<u32>::new()
    );
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn close_ends_a_daemon_the_server_started() {
    let toolset = McpToolset::builder(fixture("tasks").args(["--daemon-secs", "1105"]))
        .build()
        .await
        .unwrap();
    toolset.tools(None).await.unwrap();
    assert_eq!(
        processes_with(&["sleep 1105"]).len(),
        1,
        "started before serving"
    );

    toolset.close().await;

    assert_eq!(wait_until_gone(&["sleep 1105"]).await, Vec::<u32>::new());
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn dropping_the_toolset_ends_a_daemon_the_server_started() {
    let toolset = McpToolset::builder(fixture("tasks").args(["--daemon-secs", "1106"]))
        .build()
        .await
        .unwrap();
    toolset.tools(None).await.unwrap();
    assert_eq!(
        processes_with(&["sleep 1106"]).len(),
        1,
        "started before serving"
    );

    drop(toolset);

    assert_eq!(wait_until_gone(&["sleep 1106"]).await, Vec::<u32>::new());
}

#[test]
fn a_child_does_not_outlive_its_runtime() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let toolset = runtime.block_on(async {
        let toolset = McpToolset::builder(fixture("tasks").args(["--lifetime-secs", "104"]))
            .build()
            .await
            .unwrap();
        toolset.tools(None).await.unwrap();
        toolset
    });
    assert_eq!(processes_with(&["toolport-fixture", "104"]).len(), 1);

    drop(runtime);
    drop(toolset);

    let deadline = Instant::now() + Duration::from_secs(10);
    while !processes_with(&["toolport-fixture", "104"]).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        processes_with(&["toolport-fixture", "104"]),
        Vec::<u32>::new()
    );
}

#[tokio::test]
async fn close_reports_how_the_server_ended() {
    let polite = McpToolset::builder(fixture("tasks")).build().await.unwrap();
    polite.connect().await.unwrap();
    let exit = polite.close().await;
    assert!(
        matches!(exit, ServerExit::Exited(status) if status.success()),
        "{exit}"
    );
    assert!(exit.is_clean());

    // A server that lingers after its stdin closes: the shell waits on a sleep.
    let script = format!("{} tasks; sleep 30", env!("CARGO_BIN_EXE_toolport-fixture"));
    let stubborn = StdioServer::new("sh")
        .args(["-c", &script])
        .close_grace(Duration::from_millis(200));
    let lingering = McpToolset::builder(stubborn).build().await.unwrap();
    lingering.connect().await.unwrap();
    let exit = lingering.close().await;
    assert_eq!(
        exit,
        ServerExit::Terminated {
            grace: Duration::from_millis(200)
        }
    );
    assert!(!exit.is_clean());
    assert_eq!(lingering.close().await, ServerExit::NotConnected);
}
