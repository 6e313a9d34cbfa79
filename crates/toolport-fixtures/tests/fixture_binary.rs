//! The `toolport-fixture` binary as a real child process, in each of its modes.

mod common;

use std::process::{ExitStatus, Stdio};

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ProtocolVersion};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

use common::{call, client_config, only_text};
use toolport_testkit::bounded;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;

fn fixture(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_toolport-fixture"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn toolport-fixture")
}

async fn exit_status(child: &mut Child) -> ExitStatus {
    bounded("the fixture to exit", child.wait()).await.unwrap()
}

async fn stderr_of(child: &mut Child) -> String {
    let mut stderr = String::new();
    let mut pipe = child.stderr.take().unwrap();
    bounded("stderr", pipe.read_to_string(&mut stderr))
        .await
        .unwrap();
    stderr
}

#[tokio::test]
async fn tasks_serves_over_stdio_and_exits_when_stdin_closes() {
    let mut child = fixture(&["tasks"]);
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let client = bounded("initialize", client_config().serve(transport))
        .await
        .unwrap();
    let info = client.peer_info().unwrap();
    assert_eq!(info.protocol_version, ProtocolVersion::V_2025_11_25);
    assert_eq!(
        info.server_info.as_ref().unwrap().name,
        "toolport-task-tracker"
    );

    let result = call(&client, "complete_task", json!({"task_id": "T-9"})).await;
    assert_eq!(
        only_text(&result),
        "No task with ID T-9. Call list_tasks to see the valid IDs."
    );

    bounded("close", client.cancel()).await.unwrap();
    assert!(exit_status(&mut child).await.success());
}

#[tokio::test]
async fn lab_crash_exits_with_status_3() {
    let mut child = fixture(&["lab"]);
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let client = bounded("initialize", client_config().serve(transport))
        .await
        .unwrap();
    let crashed = bounded(
        "crash",
        client.call_tool(CallToolRequestParams::new("crash")),
    )
    .await;
    assert!(crashed.is_err(), "crash answered: {crashed:?}");
    assert_eq!(exit_status(&mut child).await.code(), Some(3));
    assert!(
        stderr_of(&mut child)
            .await
            .contains("exiting with status 3")
    );
}

#[tokio::test]
async fn exit_during_init_reads_the_request_then_fails() {
    let mut child = fixture(&["exit-during-init"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{INITIALIZE}\n").as_bytes())
        .await
        .unwrap();
    assert_eq!(exit_status(&mut child).await.code(), Some(1));
    assert_eq!(stderr_of(&mut child).await, "fatal: database unreachable\n");
    let mut stdout = String::new();
    let mut pipe = child.stdout.take().unwrap();
    pipe.read_to_string(&mut stdout).await.unwrap();
    assert_eq!(stdout, "");
}

#[tokio::test]
async fn garbage_prints_a_log_line_to_stdout() {
    let mut child = fixture(&["garbage"]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    bounded("the garbage line", stdout.read_line(&mut line))
        .await
        .unwrap();
    assert_eq!(line, "Starting server on port 8080...\n");

    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{INITIALIZE}\n").as_bytes())
        .await
        .unwrap();
    drop(stdin);
    assert!(exit_status(&mut child).await.success());
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).await.unwrap();
    assert_eq!(rest, "");
}

#[tokio::test]
async fn hang_never_answers_and_exits_when_stdin_closes() {
    let mut child = fixture(&["hang"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{INITIALIZE}\n").as_bytes())
        .await
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut byte = [0u8; 1];
    let answered = tokio::time::timeout(
        std::time::Duration::from_millis(300),
        stdout.read(&mut byte),
    )
    .await;
    assert!(answered.is_err(), "hang wrote to stdout");
    drop(stdin);
    assert!(exit_status(&mut child).await.success());
}

#[tokio::test]
async fn every_mode_stops_by_itself() {
    let mut children: Vec<_> = ["tasks", "lab", "hang", "garbage", "exit-during-init"]
        .into_iter()
        .map(|mode| {
            let mut child = fixture(&[mode, "--lifetime-secs", "1"]);
            // Keep stdin open: only the lifetime can end the process.
            let stdin = child.stdin.take().unwrap();
            (child, stdin)
        })
        .collect();
    for (child, _stdin) in &mut children {
        exit_status(child).await;
    }
}

#[tokio::test]
async fn an_unknown_mode_is_a_usage_error() {
    let mut child = fixture(&["bogus"]);
    assert_eq!(exit_status(&mut child).await.code(), Some(2));
    assert!(
        stderr_of(&mut child)
            .await
            .starts_with("usage: toolport-fixture")
    );
}
