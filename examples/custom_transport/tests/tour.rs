//! The example's behaviours, each against its own server through `UnixSocket`: a round trip,
//! an oversized answer that fails its call naming the limit while the connection goes on, a
//! line that is not JSON-RPC skipped and quoted by the diagnostics, a tool run as a
//! 2025-11-25 task, the server's clean stop, and the tour as CI runs it.

use std::future::Future;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use custom_transport::{NOISE, Server};
use serde_json::{Value, json};
use tokio::process::Command;
use toolport::model::{CallToolRequestParams, CallToolResult, ProtocolVersion};
use toolport::stdio::StdioServer;
use toolport::{CallOptions, McpSession, SessionError, TaskPolicy};

/// A bound that only a hung test reaches: every wait below is on an event.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// `future`'s output, or a panic naming `what` if it hangs.
async fn bounded<F: Future>(what: &str, future: F) -> F::Output {
    tokio::time::timeout(HANG_GUARD, future)
        .await
        .unwrap_or_else(|_| panic!("{what} hung for {HANG_GUARD:?}"))
}

/// The directory of `test`'s server: its own, as tests run at once in one process.
fn dir_of(test: &str) -> PathBuf {
    std::env::temp_dir().join(format!("custom-transport-{}-{test}", std::process::id()))
}

/// Calls `tool` with `arguments`, a JSON object.
async fn call(
    session: &McpSession,
    tool: &str,
    arguments: Value,
) -> Result<CallToolResult, SessionError> {
    let Value::Object(arguments) = arguments else {
        panic!("the arguments of {tool} must be an object");
    };
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
    bounded(tool, session.call_tool(params, CallOptions::default())).await
}

/// The text of the result's first block.
fn text_of(result: &CallToolResult) -> &str {
    let text = result.content.iter().find_map(|block| block.as_text());
    text.map_or("", |text| text.text.as_str())
}

/// How many times `server` was sent `method`.
fn count(server: &Server, method: &str) -> usize {
    let received = server.methods_received();
    received.iter().filter(|sent| *sent == method).count()
}

#[tokio::test]
async fn echo_answers_with_its_text_over_the_socket() {
    let server = Server::start(dir_of("echo")).unwrap();
    let session = McpSession::new(server.connector());

    let result = call(&session, "echo", json!({"text": "hello, socket"}))
        .await
        .unwrap();
    assert_eq!(text_of(&result), "hello, socket");
    assert_ne!(result.is_error, Some(true));
    assert_eq!(
        session.protocol_version(),
        Some(ProtocolVersion::V_2025_11_25)
    );
    session.close().await;
}

#[tokio::test]
async fn an_oversized_answer_fails_its_call_naming_the_limit_and_the_connection_goes_on() {
    let server = Server::start(dir_of("huge")).unwrap();
    let session = McpSession::new(server.connector());

    let error = call(&session, "huge", json!({})).await.unwrap_err();
    let SessionError::Rpc { error: rpc, .. } = &error else {
        panic!("not the transport's JSON-RPC error: {error:?}");
    };
    assert_eq!(rpc.code.0, -32603, "{error}");
    let limit = format!(
        "limit of {} bytes for one stream message",
        StdioServer::MAX_MESSAGE_BYTES
    );
    assert!(error.to_string().contains(&limit), "{error}");

    let result = call(&session, "echo", json!({"text": "after"}))
        .await
        .unwrap();
    assert_eq!(text_of(&result), "after");
    assert!(session.is_connected());
    assert_eq!(
        count(&server, "initialize"),
        1,
        "the session connected again"
    );
    session.close().await;
}

#[tokio::test]
async fn the_noisy_line_is_skipped_and_quoted_by_the_session_diagnostics() {
    let server = Server::start(dir_of("noisy")).unwrap();
    let session = McpSession::new(server.connector());
    bounded("connect", session.connect()).await.unwrap();
    assert_eq!(session.failure_details(), None);

    let result = call(&session, "noisy", json!({})).await.unwrap();
    assert_eq!(text_of(&result), "a quiet answer after a noisy line");
    assert_eq!(
        session.failure_details(),
        Some(format!(
            "server wrote a line that is not JSON-RPC: {NOISE:?}"
        ))
    );
    // Skipped, not fatal: the connection goes on.
    let result = call(&session, "echo", json!({"text": "still"})).await;
    assert_eq!(text_of(&result.unwrap()), "still");
    assert_eq!(count(&server, "initialize"), 1);
    session.close().await;
}

#[tokio::test]
async fn the_task_tool_completes_through_the_2025_11_25_task_flow() {
    let server = Server::start(dir_of("task")).unwrap();
    let session = McpSession::new(server.connector());
    let tools = bounded("tools/list", session.list_tools()).await.unwrap();
    assert!(tools.iter().any(|tool| tool.name == "write_report"));
    assert!(session.runs_as_task("write_report"));
    assert!(!session.runs_as_task("echo"));

    let before = server.methods_received().len();
    let result = call(&session, "write_report", json!({"topic": "tides"}))
        .await
        .unwrap();
    assert_eq!(
        text_of(&result),
        "A report on tides, written as task report-1."
    );
    assert_eq!(
        server.methods_received()[before..],
        ["tools/call", "tasks/get", "tasks/result"]
    );
    session.close().await;
}

#[tokio::test]
async fn the_task_tool_is_refused_to_a_session_that_does_not_offer_tasks() {
    let server = Server::start(dir_of("no-tasks")).unwrap();
    let session = McpSession::builder(server.connector())
        .tasks(TaskPolicy::not_offered())
        .build();
    bounded("tools/list", session.list_tools()).await.unwrap();
    assert!(!session.runs_as_task("write_report"));

    let error = call(&session, "write_report", json!({"topic": "tides"}))
        .await
        .unwrap_err();
    assert!(error.to_string().contains("runs only as a task"), "{error}");
    assert!(!server.methods_received().iter().any(|m| m == "tasks/get"));
    session.close().await;
}

#[tokio::test]
async fn the_server_serves_one_connection_after_another() {
    let server = Server::start(dir_of("sequential")).unwrap();
    for text in ["first", "second"] {
        let session = McpSession::new(server.connector());
        let result = call(&session, "echo", json!({"text": text})).await.unwrap();
        assert_eq!(text_of(&result), text);
        session.close().await;
    }
    assert_eq!(count(&server, "initialize"), 2);
}

#[tokio::test]
async fn dropping_the_server_ends_its_connection_and_removes_its_socket_and_directory() {
    let dir = dir_of("drop");
    let server = Server::start(&dir).unwrap();
    assert!(server.socket().starts_with(&dir) && server.socket().exists());
    let session = McpSession::new(server.connector());
    bounded("connect", session.connect()).await.unwrap();

    drop(server);
    assert!(!dir.exists(), "{} is left behind", dir.display());
    // The serving task is gone with the connection it held: nothing answers.
    let ping = bounded("ping", session.ping()).await;
    assert!(ping.is_err(), "{ping:?}");
    session.close().await;
}

#[tokio::test]
async fn the_tour_prints_one_line_per_behaviour_and_exits_0() {
    let tour = Command::new(env!("CARGO_BIN_EXE_custom_transport"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let pid = tour.id().unwrap();
    let output = bounded("the tour", tour.wait_with_output()).await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    for shown in [
        "over a Unix socket",
        "connected on 2025-11-25; tools: echo, huge, noisy, write_report",
        "echo -> over a socket",
        "huge -> an error at once: ",
        "echo after it, on the same connection -> still here",
        NOISE,
        "(tools/call -> tasks/get -> tasks/result) -> A report on sockets",
        "closed: the connection was closed",
    ] {
        assert!(stdout.contains(shown), "{shown:?} is not in:\n{stdout}");
    }
    let dir = std::env::temp_dir().join(format!("custom-transport-{pid}"));
    assert!(!dir.exists(), "{} is left behind", dir.display());
}
