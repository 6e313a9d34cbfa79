//! The child sees only a minimal environment unless it inherits everything on request, and
//! gets its arguments as written, through no shell.

mod common;

use rmcp::transport::Transport;
use toolport_stdio::StdioServer;

use common::{eventually, receive};

/// Runs a script that reports variables on stderr, and returns the stderr lines.
async fn report_env(server: StdioServer) -> Vec<String> {
    let mut transport = server.spawn().unwrap();
    assert!(
        receive(&mut transport).await.is_none(),
        "the script prints nothing on stdout"
    );
    let diagnostics = transport.diagnostics();
    assert!(eventually(2.0, || diagnostics.exit_status().is_some()).await);
    diagnostics.stderr_tail()
}

const SCRIPT: &str = r#"echo "CARGO=${CARGO:-unset}" >&2; echo "MINE=${MINE:-unset}" >&2; echo "PATH=${PATH:+set}" >&2"#;

#[tokio::test]
async fn the_parent_environment_stays_out_by_default() {
    assert!(
        std::env::var_os("CARGO").is_some(),
        "cargo sets CARGO for tests"
    );
    let lines = report_env(
        StdioServer::new("sh")
            .args(["-c", SCRIPT])
            .env("MINE", "mine"),
    )
    .await;
    assert_eq!(lines, ["CARGO=unset", "MINE=mine", "PATH=set"]);
}

#[tokio::test]
async fn inherit_env_passes_everything() {
    let server = StdioServer::new("sh")
        .args(["-c", SCRIPT])
        .env("MINE", "mine")
        .inherit_env(true);
    let lines = report_env(server).await;
    assert_ne!(lines[0], "CARGO=unset");
    assert_eq!(lines[1..], ["MINE=mine", "PATH=set"]);
}

#[tokio::test]
async fn cwd_sets_the_working_directory() {
    let server = StdioServer::new("sh").args(["-c", "pwd >&2"]).cwd("/tmp");
    let mut transport = server.spawn().unwrap();
    assert!(receive(&mut transport).await.is_none());
    assert_eq!(transport.diagnostics().stderr_tail(), ["/tmp"]);
    transport.close().await.unwrap();
}

#[tokio::test]
async fn arguments_reach_the_child_as_written_and_no_shell_reads_them() {
    // Shell syntax that a command line run through a shell would expand or run.
    let hostile = "$(echo ran) `echo ran`; echo ran > pwned";
    let script = r#"printf '%s\n' "$1" >&2"#;
    let lines = report_env(StdioServer::new("sh").args(["-c", script, "server", hostile])).await;
    assert_eq!(lines, [hostile]);
}
