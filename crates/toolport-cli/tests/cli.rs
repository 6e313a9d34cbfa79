//! The `toolport` command as a user runs it: output, exit status, and one clear stderr line for
//! every kind of bad input.

mod common;

use std::process::Command;

use common::{failure_line, stdout, toolport, toolport_async};
use serde_json::{Value, json};
use toolport_fixtures::{HttpFixtureServer, LabServer, LegacySseFixtureServer};

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
    let server = LegacySseFixtureServer::start(toolport_testkit::TaskTracker::new)
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

/// A server on 127.0.0.1 that answers as many requests as `answers` gives it (each on a
/// connection of its own, in order) with those JSON documents, given its base URL; the base URL,
/// and the thread that returns the requests as they came (head and body).
fn scripted_endpoint(
    answers: impl FnOnce(&str) -> Vec<Value>,
) -> (String, std::thread::JoinHandle<Vec<String>>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let answers = answers(&base);
    let thread = std::thread::spawn(move || {
        let mut requests = Vec::new();
        for answer in answers {
            let answer = answer.to_string();
            let (mut stream, _) = listener.accept().unwrap();
            let mut request = Vec::new();
            let mut buffer = [0; 4096];
            loop {
                let read = stream.read(&mut buffer).unwrap();
                request.extend_from_slice(&buffer[..read]);
                let text = String::from_utf8_lossy(&request).into_owned();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text[..end]
                        .lines()
                        .find_map(|line| {
                            let (name, value) = line.split_once(':')?;
                            name.eq_ignore_ascii_case("content-length")
                                .then(|| value.trim().parse::<usize>().unwrap())
                        })
                        .unwrap_or(0);
                    if request.len() >= end + 4 + length || read == 0 {
                        break;
                    }
                }
            }
            write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                answer.len()
            )
            .unwrap();
            requests.push(String::from_utf8(request).unwrap());
        }
        requests
    });
    (base, thread)
}

/// A token answer with the Bearer `token`.
fn token_answer(token: &str) -> Value {
    json!({ "access_token": token, "token_type": "Bearer", "expires_in": 3600 })
}

/// A token endpoint on 127.0.0.1 that answers one request with the Bearer `token`; its URL,
/// and the thread that returns the request as it came (head and form).
fn one_token_endpoint(token: &str) -> (String, std::thread::JoinHandle<String>) {
    let answer = token_answer(token);
    let (base, thread) = scripted_endpoint(|_| vec![answer]);
    let thread = std::thread::spawn(move || thread.join().unwrap().remove(0));
    (format!("{base}/token"), thread)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_client_credentials_gets_a_token_with_the_secret_from_the_environment() {
    use base64::Engine as _;
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    server.require_bearer("cc-token");
    let (token_url, token_request) = one_token_endpoint("cc-token");
    let url = server.url();

    let output = toolport_async(
        &[
            "tools",
            "--url",
            &url,
            "--auth",
            "client-credentials",
            "--client-id",
            "my-app",
            "--client-secret-env",
            "TOOLPORT_TEST_CC_SECRET",
            "--token-url",
            &token_url,
            "--scope",
            "tools:read",
        ],
        &[("TOOLPORT_TEST_CC_SECRET", "cc-secret")],
    )
    .await;

    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let request = token_request.join().unwrap();
    let (head, form) = request.split_once("\r\n\r\n").unwrap();
    let basic = base64::engine::general_purpose::STANDARD.encode("my-app:cc-secret");
    assert!(
        head.lines().any(|line| line
            .split_once(':')
            .is_some_and(|(name, value)| name.eq_ignore_ascii_case("authorization")
                && value.trim() == format!("Basic {basic}"))),
        "{head}"
    );
    let form: Vec<&str> = form.split('&').collect();
    for field in ["grant_type=client_credentials", "scope=tools%3Aread"] {
        assert!(form.contains(&field), "{form:?}");
    }
    assert!(
        !form.iter().any(|field| field.contains("cc-secret")),
        "{form:?}"
    );
}

#[test]
fn auth_client_credentials_needs_a_secret_variable() {
    let output = toolport(&[
        "tools",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--auth",
        "client-credentials",
        "--client-id",
        "my-app",
    ]);
    let line = failure_line(&output);
    assert!(
        line.contains("--auth client-credentials needs --client-secret-env"),
        "{line}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_client_credentials_send_the_secret_to_no_issuer_the_user_did_not_give() {
    // The server publishes no metadata: unpinned, it would be its own authorization server.
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    server.require_bearer("never-issued");
    let url = server.url();
    let origin = format!("http://127.0.0.1:{}", server.port());

    let output = toolport_async(
        &[
            "tools",
            "--url",
            &url,
            "--auth",
            "client-credentials",
            "--client-id",
            "my-app",
            "--client-secret-env",
            "TOOLPORT_TEST_CC_SECRET",
        ],
        &[("TOOLPORT_TEST_CC_SECRET", "cc-secret")],
    )
    .await;

    let line = failure_line(&output);
    assert!(line.contains(&format!("--issuer {origin}")), "{line}");
    assert!(!line.contains("cc-secret"), "{line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_client_credentials_get_their_token_from_the_issuer_given() {
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    server.require_bearer("cc-token");
    let (issuer, requests) = scripted_endpoint(|base| {
        vec![
            json!({
                "issuer": base,
                "token_endpoint": format!("{base}/token"),
                "token_endpoint_auth_methods_supported": ["client_secret_basic"],
            }),
            token_answer("cc-token"),
        ]
    });

    let output = toolport_async(
        &[
            "tools",
            "--url",
            &server.url(),
            "--auth",
            "client-credentials",
            "--client-id",
            "my-app",
            "--client-secret-env",
            "TOOLPORT_TEST_CC_SECRET",
            "--issuer",
            &issuer,
        ],
        &[("TOOLPORT_TEST_CC_SECRET", "cc-secret")],
    )
    .await;

    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let requests = requests.join().unwrap();
    assert!(
        requests[0].starts_with("GET /.well-known/oauth-authorization-server "),
        "{}",
        requests[0]
    );
    assert!(requests[1].starts_with("POST /token "), "{}", requests[1]);
    assert!(
        requests[1].contains("grant_type=client_credentials"),
        "{}",
        requests[1]
    );
}

#[test]
fn an_issuer_needs_an_auth_mode() {
    let output = toolport(&[
        "tools",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--issuer",
        "https://auth.example.com",
    ]);
    let line = failure_line(&output);
    assert!(
        line.contains("--issuer is for --auth oauth or --auth client-credentials"),
        "{line}"
    );
}

#[test]
fn the_server_options_are_taken_before_the_subcommand_as_after_it() {
    let before = toolport(&[
        "--protocol",
        "2025-11-25",
        "--json",
        "tools",
        "--allow",
        "add_task",
    ]);
    let after = toolport(&[
        "tools",
        "--protocol",
        "2025-11-25",
        "--json",
        "--allow",
        "add_task",
    ]);
    assert!(before.status.success(), "{before:?}");
    assert_eq!(stdout(&before), stdout(&after));

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let line = failure_line(&toolport(&["--url", &url, "--no-proxy", "tools"]));
    assert!(line.contains(&url), "the URL reached the command: {line}");

    let line = failure_line(&toolport(&["--bogus", "tools"]));
    assert!(line.contains("unexpected argument '--bogus'"), "{line}");
}
