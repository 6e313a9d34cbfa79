//! `custom_transport`: a transport of your own, toured. It starts the example's server on a
//! Unix socket in a directory of its own under the system's temporary one, connects a session
//! through [`UnixSocket`](custom_transport::UnixSocket), lists the tools and calls each,
//! printing one line per behaviour, and closes. It checks what it shows, and exits 1 with the
//! reason when something is not as it should be. Offline; its longest step is the server's
//! 16 MiB answer.

use std::process::ExitCode;

use anyhow::{Context as _, bail, ensure};
use custom_transport::{NOISE, Server};
use serde_json::{Value, json};
use toolport::model::{CallToolRequestParams, CallToolResult};
use toolport::{CallOptions, McpSession, SessionError};

/// Runs the tour; on failure, prints `custom_transport: ` and the reason to stderr and exits 1.
#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("custom_transport: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The tour, against a server whose directory is removed when it stops.
async fn run() -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("custom-transport-{}", std::process::id()));
    let server =
        Server::start(&dir).with_context(|| format!("starting the server in {}", dir.display()))?;
    let session = McpSession::new(server.connector());
    let toured = tour(&session, &server).await;
    let exit = session.close().await;
    drop(server);
    toured?;
    println!("closed: {exit}");
    ensure!(!dir.exists(), "{} is left behind", dir.display());
    Ok(())
}

/// Each behaviour, one line each.
async fn tour(session: &McpSession, server: &Server) -> anyhow::Result<()> {
    println!("server: {}", session.target());

    let tools = session.list_tools().await.context("listing the tools")?;
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    let version = session.protocol_version().context("no live connection")?;
    println!("connected on {version}; tools: {}", names.join(", "));
    ensure!(
        names == ["echo", "huge", "noisy", "write_report"],
        "unexpected tools {names:?}"
    );

    let echoed = text_of(&call(session, "echo", json!({"text": "over a socket"})).await?);
    println!("echo -> {echoed}");
    ensure!(echoed == "over a socket", "echo answered {echoed:?}");

    let Err(oversized) = call(session, "huge", json!({})).await else {
        bail!("the huge answer reached the session");
    };
    let limit = toolport::stdio::StdioServer::MAX_MESSAGE_BYTES;
    let message = oversized.to_string();
    println!("huge -> an error at once: {message}");
    ensure!(
        message.contains(&format!("limit of {limit} bytes")),
        "the error does not name the limit"
    );
    let again = text_of(&call(session, "echo", json!({"text": "still here"})).await?);
    println!("echo after it, on the same connection -> {again}");
    ensure!(again == "still here", "echo answered {again:?}");
    let handshakes = count(server, "initialize");
    ensure!(
        handshakes == 1,
        "{handshakes} handshakes: the session connected again"
    );

    let quiet = text_of(&call(session, "noisy", json!({})).await?);
    let quoted = session.failure_details().unwrap_or_default();
    println!("noisy -> {quiet}; the diagnostics quote the line skipped: {quoted}");
    ensure!(quoted.contains(NOISE), "the noisy line is not quoted");

    ensure!(
        session.runs_as_task("write_report"),
        "no task for write_report"
    );
    let before = server.methods_received().len();
    let report = text_of(&call(session, "write_report", json!({"topic": "sockets"})).await?);
    let flow = server.methods_received()[before..].join(" -> ");
    println!("write_report, a 2025-11-25 task ({flow}) -> {report}");
    ensure!(
        flow.starts_with("tools/call -> tasks/get") && flow.ends_with("tasks/result"),
        "not the task flow: {flow}"
    );
    Ok(())
}

/// Calls `tool` with `arguments`.
async fn call(
    session: &McpSession,
    tool: &str,
    arguments: Value,
) -> Result<CallToolResult, SessionError> {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    if let Value::Object(arguments) = arguments {
        params = params.with_arguments(arguments);
    }
    session.call_tool(params, CallOptions::default()).await
}

/// The text of the result's first block, or `""`.
fn text_of(result: &CallToolResult) -> String {
    let text = result.content.iter().find_map(|block| block.as_text());
    text.map(|text| text.text.clone()).unwrap_or_default()
}

/// How many times the server was sent `method`.
fn count(server: &Server, method: &str) -> usize {
    let received = server.methods_received();
    received.iter().filter(|sent| *sent == method).count()
}
