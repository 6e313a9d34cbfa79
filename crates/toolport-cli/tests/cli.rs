//! The `toolport` command as a user runs it: output, exit status, and one clear stderr line for
//! every kind of bad input.

mod common;

use std::process::Command;

use common::{failure_line, stdout, toolport, toolport_async};
use serde_json::{Value, json};
use toolport_testkit::{HttpFixtureServer, LabServer, LegacySseFixtureServer, TaskTracker};

#[test]
fn tools_lists_the_demo_server() {
    let output = toolport(&["tools"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for name in ["list_tasks", "add_task", "complete_task"] {
        assert!(text.contains(name), "{text}");
    }
}

#[test]
fn tools_json_keeps_the_server_fields() {
    let output = toolport(&["tools", "--json"]);
    assert!(output.status.success());
    let tools: Value = serde_json::from_slice(&output.stdout).unwrap();
    let complete = tools
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "complete_task")
        .unwrap();
    assert_eq!(
        complete["inputSchema"]["properties"]["task_id"]["pattern"],
        "^T-\\d+$"
    );
    assert!(complete["outputSchema"].is_object());
    assert!(complete["description"].is_string());
}

#[test]
fn tools_allow_filters_and_fails_on_a_missing_name() {
    let output = toolport(&["tools", "--json", "--allow", "list_tasks"]);
    let tools: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(tools.as_array().unwrap().len(), 1);

    let line = failure_line(&toolport(&["tools", "--allow", "list_tasks,delete_task"]));
    assert!(line.contains("delete_task"), "{line}");
}

#[test]
fn call_prints_the_mapped_value() {
    let output = toolport(&["call", "list_tasks", r#"{"status": "open"}"#, "--json"]);
    assert!(output.status.success());
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["count"], 2);
}

#[test]
fn call_raw_prints_the_result_as_received() {
    let output = toolport(&["call", "list_tasks", "--raw"]);
    assert!(output.status.success());
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["structuredContent"]["count"], 3);
    assert!(value["content"].is_array());
}

#[test]
fn call_with_the_adk_java_mapping() {
    let output = toolport(&["call", "list_tasks", "--json", "--mapping", "adk-java"]);
    assert!(output.status.success());
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["text_output"][0]["count"], 3);
}

#[test]
fn a_tool_error_exits_2_and_still_prints_the_result() {
    let output = toolport(&["call", "complete_task", r#"{"task_id": "T-9"}"#, "--json"]);
    assert_eq!(output.status.code(), Some(2));
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        value,
        json!({"error": "No task with ID T-9. Call list_tasks to see the valid IDs."})
    );
}

#[test]
fn malformed_argument_json_is_one_clear_line() {
    let line = failure_line(&toolport(&["call", "list_tasks", "{status: open}"]));
    assert!(line.contains("the arguments are not valid JSON"), "{line}");
}

#[test]
fn an_unknown_tool_names_the_tools_on_offer() {
    let line = failure_line(&toolport(&["call", "delete_everything"]));
    assert!(line.contains("unknown tool `delete_everything`"), "{line}");
    assert!(line.contains("list_tasks"), "{line}");
}

#[test]
fn a_command_that_is_not_found() {
    let line = failure_line(&toolport(&["tools", "--", "no-such-mcp-server-xyz"]));
    assert!(
        line.contains("command not found: `no-such-mcp-server-xyz`"),
        "{line}"
    );
}

#[test]
fn a_server_that_exits_during_initialize_shows_its_stderr() {
    let script = "read request; echo 'fatal: database unreachable' >&2; exit 1";
    let line = failure_line(&toolport(&["tools", "--", "sh", "-c", script]));
    assert!(line.contains("failed to initialize"), "{line}");
    assert!(line.contains("fatal: database unreachable"), "{line}");
}

#[test]
fn a_server_that_prints_garbage_on_stdout() {
    let script = "echo 'Starting server on port 8080...'; sleep 20";
    let line = failure_line(&toolport(&[
        "tools",
        "--timeout-ms",
        "1000",
        "--",
        "sh",
        "-c",
        script,
    ]));
    assert!(line.contains("Starting server on port 8080"), "{line}");
}

#[test]
fn a_server_that_hangs_is_bounded_by_the_timeout() {
    // The command returns (a hang would fail the test run), and says which bound expired.
    let output = toolport(&["tools", "--timeout-ms", "500", "--", "sleep", "20"]);
    let line = failure_line(&output);
    assert!(
        line.contains("did not answer initialize within 500 ms"),
        "{line}"
    );
}

#[test]
fn the_timeout_can_come_from_the_environment() {
    let output = Command::new(env!("CARGO_BIN_EXE_toolport"))
        .args(["tools", "--", "sleep", "20"])
        .env("TOOLPORT_TIMEOUT_MS", "300")
        .output()
        .unwrap();
    let line = failure_line(&output);
    assert!(line.contains("within 300 ms"), "{line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn url_speaks_streamable_http_with_headers_and_a_bearer_token() {
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    server.require_bearer("s3cret");
    let url = server.url();

    let output = toolport_async(
        &[
            "call",
            "add",
            r#"{"a": 2, "b": 3}"#,
            "--json",
            "--url",
            &url,
            "-H",
            "X-Team: tools",
            "--bearer-env",
            "LAB_TOKEN",
        ],
        &[("LAB_TOKEN", "s3cret")],
    )
    .await;

    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value, json!({"sum": 5}));
    let posts: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|request| request.method == "POST")
        .collect();
    assert!(!posts.is_empty());
    assert!(
        posts
            .iter()
            .all(|request| request.header("x-team") == Some("tools"))
    );
    assert!(
        posts
            .iter()
            .all(|request| request.header("authorization") == Some("Bearer s3cret"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_is_one_clear_line() {
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    server.require_bearer("s3cret");
    let url = server.url();

    let output = toolport_async(
        &["tools", "--url", &url, "--bearer-env", "LAB_TOKEN"],
        &[("LAB_TOKEN", "wrong")],
    )
    .await;

    let line = failure_line(&output);
    assert!(line.contains("unauthorized (HTTP 401)"), "{line}");
    assert!(!line.contains("wrong"), "the token never shows: {line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn url_speaks_legacy_sse() {
    let server = LegacySseFixtureServer::start(TaskTracker::new)
        .await
        .unwrap();
    let url = server.url();

    let output = toolport_async(
        &["tools", "--url", &url, "--transport", "sse", "--json"],
        &[],
    )
    .await;

    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let tools: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(tools.as_array().unwrap().len(), 3);
}

#[test]
fn remote_options_are_checked() {
    let line = failure_line(&toolport(&[
        "tools",
        "--url",
        "http://127.0.0.1:9/mcp",
        "-H",
        "no colon",
    ]));
    assert!(line.contains("expected 'Name: value'"), "{line}");

    let output = Command::new(env!("CARGO_BIN_EXE_toolport"))
        .args([
            "tools",
            "--url",
            "http://127.0.0.1:9/mcp",
            "--bearer-env",
            "TOOLPORT_TEST_UNSET_VAR",
        ])
        .env_remove("TOOLPORT_TEST_UNSET_VAR")
        .output()
        .unwrap();
    let line = failure_line(&output);
    assert!(
        line.contains("TOOLPORT_TEST_UNSET_VAR: the variable is not set"),
        "{line}"
    );

    let line = failure_line(&toolport(&["tools", "--url", "ftp://127.0.0.1/mcp"]));
    assert!(line.contains("unsupported URL scheme"), "{line}");
}

#[test]
fn an_unreachable_url_is_one_clear_line() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let line = failure_line(&toolport(&["tools", "--url", &url, "--timeout-ms", "2000"]));
    assert!(line.contains(&url) && line.contains("refused"), "{line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_oauth_runs_the_flow_and_says_which_step_failed() {
    // The server asks for a token and publishes no authorization server: the flow falls back
    // to the server's own `/register`, which does not exist, before any browser is needed.
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    server.require_bearer("never-issued");
    let url = server.url();
    let token_file = std::env::temp_dir().join(format!("toolport-cli-{}.json", std::process::id()));
    let token_file = token_file.to_string_lossy().into_owned();

    let output = toolport_async(
        &[
            "tools",
            "--url",
            &url,
            "--auth",
            "oauth",
            "--token-file",
            &token_file,
        ],
        &[],
    )
    .await;

    let line = failure_line(&output);
    assert!(line.contains("authorization failed"), "{line}");
    assert!(line.contains("/register"), "{line}");
    assert!(
        !std::path::Path::new(&token_file).exists(),
        "no tokens, no file"
    );
}

#[test]
fn a_client_secret_is_read_from_the_environment_only() {
    let output = toolport(&[
        "tools",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--auth",
        "oauth",
        "--client-id",
        "my-app",
        "--client-secret-env",
        "TOOLPORT_TEST_UNSET_SECRET",
    ]);
    let line = failure_line(&output);
    assert!(
        line.contains("--client-secret-env TOOLPORT_TEST_UNSET_SECRET: the variable is not set"),
        "{line}"
    );
}
