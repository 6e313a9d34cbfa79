//! `-v`/`--verbose`: logs on stderr, in colour only when stderr is a terminal, and says which
//! protocol version the connection speaks.

mod common;

use common::{toolport, toolport_async};
use toolport::model::ProtocolVersion;
use toolport_fixtures::{HttpFixtureServer, LabServer, fixture_binary};

#[test]
fn verbose_logs_to_a_pipe_without_colour() {
    let output = toolport(&["-v", "tools"]);
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("session closed"),
        "the session's log: {stderr}"
    );
    assert!(
        !stderr.contains('\u{1b}'),
        "no escape codes in a pipe: {stderr:?}"
    );
    assert!(
        !stderr.contains("task cancelled"),
        "a normal end is not logged as a cancellation: {stderr}"
    );
}

#[test]
fn rust_log_chooses_what_is_logged_and_a_bad_one_is_said_once() {
    let run = |directives: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_toolport"))
            .arg("tools")
            .env("RUST_LOG", directives)
            .output()
            .unwrap()
    };
    let output = run("toolport_session=debug");
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("session closed"), "{stderr}");
    assert!(
        !stderr.contains("rmcp::service"),
        "only the target asked for: {stderr}"
    );

    let output = run("toolport=loud");
    assert!(output.status.success(), "the command still runs");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("toolport: RUST_LOG `toolport=loud` is ignored:")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_picks_the_version_and_verbose_shows_the_one_spoken() {
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    let url = server.url();
    let runs = [
        ("2025-11-25", "2025-11-25"),
        ("2026-07-28", "2026-07-28"),
        ("auto", "2026-07-28"),
    ];
    for (asked, spoken) in runs {
        let args = ["-v", "tools", "--url", &url, "--protocol", asked];
        let output = toolport_async(&args, &[]).await;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        let connected = format!("protocol={spoken}");
        assert!(stderr.contains(&connected), "--protocol {asked}: {stderr}");
    }
    let posts_with_method = server
        .requests()
        .iter()
        .filter(|request| request.header("mcp-method") == Some("tools/list"))
        .count();
    assert_eq!(
        posts_with_method, 2,
        "only the runs on 2026-07-28 send Mcp-Method"
    );
    server.stop().await;
}

#[test]
fn protocol_auto_falls_back_for_the_demo_server() {
    // The demo server knows no `server/discover`, so the negotiation falls back.
    let output = toolport(&["-v", "tools", "--protocol", "auto"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("protocol=2025-11-25"), "{stderr}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("list_tasks"));
}

/// Checks that `--verbose` said why the negotiation fell back, and to what.
fn says_it_fell_back(output: &std::process::Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "the server refused `server/discover` at 2026-07-28: it serves only 2024-11-05, \
             2025-03-26, 2025-06-18, 2025-11-25 (code -32022); connected with `initialize` instead"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("protocol=2025-11-25"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_falls_back_for_a_server_that_serves_only_older_versions_and_says_why() {
    let fixture = fixture_binary();
    let fixture = fixture.to_str().unwrap();
    let over_stdio = toolport_async(&["-v", "tools", "--", fixture, "lab-2025"], &[]).await;
    says_it_fell_back(&over_stdio);

    let server =
        HttpFixtureServer::start(|| LabServer::new().serving_up_to(&ProtocolVersion::V_2025_11_25))
            .await
            .unwrap();
    let over_http = toolport_async(&["-v", "tools", "--url", &server.url()], &[]).await;
    says_it_fell_back(&over_http);

    let pinned = toolport_async(
        &["tools", "--url", &server.url(), "--protocol", "2026-07-28"],
        &[],
    )
    .await;
    let stderr = String::from_utf8_lossy(&pinned.stderr);
    assert!(!pinned.status.success());
    assert!(
        stderr.contains("does not serve protocol version 2026-07-28; it serves 2024-11-05")
            && stderr.contains("`--protocol auto`"),
        "{stderr}"
    );
    server.stop().await;
}
