//! Error lines echo what the user typed (the URL, never its secrets) and say each cause once.

mod common;

use common::{RETRY_NOTICE, failure_line, toolport};

/// A port on 127.0.0.1 that nothing listens on.
fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn a_url_that_is_no_url_is_quoted_once() {
    let line = failure_line(&toolport(&["tools", "--url", "notaurl"]));
    assert_eq!(line.matches("`notaurl`").count(), 1, "{line}");
    assert!(
        line.contains("invalid server URL: relative URL without a base"),
        "{line}"
    );
}

#[test]
fn an_unsupported_scheme_is_named_and_the_url_quoted_once() {
    let line = failure_line(&toolport(&["tools", "--url", "ftp://127.0.0.1/mcp"]));
    assert_eq!(line.matches("ftp://127.0.0.1/mcp").count(), 1, "{line}");
    assert!(line.contains("unsupported URL scheme `ftp`"), "{line}");
}

#[test]
fn credentials_in_the_url_are_refused_without_showing_them() {
    let line = failure_line(&toolport(&[
        "tools",
        "--url",
        "http://me:hunter2@127.0.0.1:9/mcp",
    ]));
    assert!(line.contains("`http://127.0.0.1:9/mcp`"), "{line}");
    assert!(line.contains("credentials in the server URL"), "{line}");
    assert!(!line.contains("hunter2") && !line.contains("me:"), "{line}");
}

#[test]
fn a_legacy_sse_url_nobody_listens_on_says_the_cause_once() {
    let url = format!("http://127.0.0.1:{}/sse", closed_port());
    let line = failure_line(&toolport(&["tools", "--url", &url, "--transport", "sse"]));
    assert_eq!(line.matches(url.as_str()).count(), 1, "{line}");
    assert!(
        line.contains(&format!("cannot connect to `{url}` over legacy SSE")),
        "{line}"
    );
    assert!(line.contains("Connection refused"), "{line}");
    for noise in ["could not reach", "client error"] {
        assert!(!line.contains(noise), "{noise:?} in {line}");
    }
}

#[test]
fn a_streamable_http_url_nobody_listens_on_says_the_cause_once() {
    let url = format!("http://127.0.0.1:{}/mcp", closed_port());
    let line = failure_line(&toolport(&["tools", "--url", &url]));
    assert_eq!(line.matches(url.as_str()).count(), 1, "{line}");
    assert_eq!(line.matches("Connection refused").count(), 1, "{line}");
    for noise in ["could not reach", "client error"] {
        assert!(!line.contains(noise), "{noise:?} in {line}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_url_that_is_not_a_streamable_http_endpoint_gets_a_hint() {
    // server-everything's legacy SSE endpoint, as a user pastes it.
    use toolport_fixtures::{HttpFixtureServer, LabServer};
    use toolport_integration_tests::RemotePeer;

    let legacy = RemotePeer::server_everything("sse").await;
    let output = common::toolport_async(&["tools", "--url", &legacy.url("/sse")], &[]).await;
    let line = failure_line(&output);
    assert!(
        line.contains("is this a legacy SSE endpoint? try `--transport sse`"),
        "{line}"
    );

    let streamable = HttpFixtureServer::start(LabServer::new).await.unwrap();
    let elsewhere = streamable.url().replace("/mcp", "/api");
    let output = common::toolport_async(&["tools", "--url", &elsewhere], &[]).await;
    let line = failure_line(&output);
    assert!(
        line.contains("Streamable HTTP servers usually serve `/mcp`"),
        "{line}"
    );
    streamable.stop().await;
}

#[test]
fn a_server_that_crashes_as_it_starts_is_started_again_and_that_is_said_once() {
    let fixture = toolport_fixtures::fixture_binary();
    let output = toolport(&["tools", "--", fixture.to_str().unwrap(), "exit-during-init"]);
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert_eq!(
        lines[0],
        "toolport: the session did not start; trying again on a fresh connection, 4 attempts in all (a stdio server is started anew for each)"
    );
    assert!(lines[0].starts_with(RETRY_NOTICE));
    assert!(
        failure_line(&output)
            .ends_with("(server exited with status 1; stderr: fatal: database unreachable)"),
        "the last attempt's error says why: {stderr}"
    );
}
