//! A tool call that times out is cancelled on a real server before the command exits, in
//! `call` and in `batch`: the server, written with the official Python SDK, logs each call it
//! starts and each cancellation it receives.

mod common;

use std::ffi::OsString;
use std::path::Path;

use common::toolport_with_stdin;

/// A fresh log file for the server to write, in the target directory.
fn log_file(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("{name}-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// `toolport <args> -- <the hang server writing to log>`, with `stdin`.
fn with_hang_server(args: &[&str], log: &Path, stdin: &str) -> std::process::Output {
    let server = toolport_integration_tests::python_hang_server_command(log);
    let server: Vec<String> = server
        .iter()
        .map(|part: &OsString| part.to_string_lossy().into_owned())
        .collect();
    let mut line: Vec<&str> = args.to_vec();
    line.push("--");
    line.extend(server.iter().map(String::as_str));
    toolport_with_stdin(&line, stdin)
}

/// The command's bound, which also bounds the Python server's start-up and `initialize`: a
/// loaded machine can take seconds to import the SDK.
const TIMEOUT_MS: &str = "8000";

fn logged(log: &Path) -> String {
    std::fs::read_to_string(log).unwrap_or_default()
}

#[test]
fn call_cancels_a_timed_out_tool_on_the_server_before_it_exits() {
    let log = log_file("call");
    let output = with_hang_server(
        &["call", "hang", "--json", "--timeout-ms", TIMEOUT_MS],
        &log,
        "",
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("timed out after {TIMEOUT_MS} ms")),
        "{stderr}"
    );
    let seen = logged(&log);
    assert!(
        seen.contains("started"),
        "the call reached the server: {seen:?}"
    );
    assert!(
        seen.contains("cancelled"),
        "the server received the cancellation: {seen:?}"
    );
}

#[test]
fn batch_cancels_each_timed_out_call_before_the_next_line() {
    let log = log_file("batch");
    let lines = "hang {}\nhang {}\n";
    let output = with_hang_server(&["batch", "--timeout-ms", TIMEOUT_MS], &log, lines);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.matches("timed out").count(), 2, "{stdout}");
    let seen: Vec<String> = logged(&log)
        .lines()
        .map(|line| line.split(' ').next().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(seen, ["started", "cancelled", "started", "cancelled"]);
}
