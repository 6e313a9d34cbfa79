//! `toolport call --progress` against `@modelcontextprotocol/server-everything`, whose
//! `trigger-long-running-operation` reports each step.

mod common;

use common::{failure_line, toolport};
use toolport_integration_tests::peer;

#[test]
fn each_progress_report_is_a_line_on_stderr() {
    let server = peer(
        "TOOLPORT_SERVER_EVERYTHING",
        "node/node_modules/.bin/mcp-server-everything",
    );
    let server = server.to_str().unwrap();
    let args = [
        "call",
        "trigger-long-running-operation",
        "duration:=0.3",
        "steps:=3",
        "--progress",
        "--",
        server,
        "stdio",
    ];
    let output = toolport(&args);
    assert!(output.status.success(), "{}", failure_line(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let reports: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("toolport: progress"))
        .collect();
    assert_eq!(
        reports,
        [
            "toolport: progress 1/3",
            "toolport: progress 2/3",
            "toolport: progress 3/3"
        ],
        "{stderr}"
    );

    // Without --progress, nothing is said of it.
    let without: Vec<&str> = args
        .iter()
        .copied()
        .filter(|arg| *arg != "--progress")
        .collect();
    let quiet = toolport(&without);
    assert!(quiet.status.success(), "{}", failure_line(&quiet));
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("progress"));
}
