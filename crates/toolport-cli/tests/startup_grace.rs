//! A slow or hung server in an `mcp.json`: the command says what it waits for, goes on
//! without an optional server after the start-up grace, says when one joins late, and waits
//! for a server only when the tool it calls can only be on it.

mod common;

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{stdout, toolport};
use serde_json::json;

/// Writes `servers` as an `mcp.json` in a directory of its own for `test`.
fn config_file(test: &str, servers: serde_json::Value) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "toolport-cli-startup-{test}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mcp.json");
    std::fs::write(&path, json!({"mcpServers": servers}).to_string()).unwrap();
    path
}

/// A fixture server's entry, with `fields` added.
fn fixture(args: &[&str], fields: serde_json::Value) -> serde_json::Value {
    let mut entry = json!({"command": toolport_fixtures::fixture_binary(), "args": args});
    entry
        .as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    entry
}

/// The task tracker, marked `required` so that the command always waits for it.
fn required_tasks() -> serde_json::Value {
    fixture(
        &["tasks", "--lifetime-secs", "120"],
        json!({"required": true}),
    )
}

#[test]
fn a_hung_optional_server_holds_the_others_back_only_for_the_grace() {
    // Its start-up timeout is far beyond the test's own: waiting for it would fail the test.
    let hung = fixture(
        &["hang", "--lifetime-secs", "600"],
        json!({"startupTimeout": 600}),
    );
    let path = config_file("hung", json!({"work": required_tasks(), "hung": hung}));

    let output = toolport(&["tools", "--config", path.to_str().unwrap()]);

    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).contains("add_task"), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("toolport: waiting for `hung` (1 s)…"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "toolport: `hung` has not started after 2 s; going on without it (mark it \"required\" to wait for it)"
        ),
        "{stderr}"
    );
}

#[test]
fn a_prefixed_name_waits_for_its_servers_start_and_says_why_it_failed() {
    // It times out after the grace has passed, whatever the machine's load.
    let hung = fixture(
        &["hang", "--lifetime-secs", "120"],
        json!({"startupTimeout": 4}),
    );
    let path = config_file("prefixed", json!({"work": required_tasks(), "hung": hung}));

    let output = toolport(&["call", "--config", path.to_str().unwrap(), "hung__anything"]);

    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains(
            "toolport: `hung__anything` can only be on `hung`, which is still starting: waiting for it"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("server `hung` did not start within 4000 ms"),
        "{stderr}"
    );
}

#[test]
fn a_server_that_joins_late_is_named_and_its_tools_are_offered() {
    let slow = fixture(
        &[
            "tasks",
            "--lifetime-secs",
            "120",
            "--start-delay-ms",
            "4000",
        ],
        json!({}),
    );
    let path = config_file("late", json!({"work": required_tasks(), "slow": slow}));
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolport"))
        .args(["batch", "--config", path.to_str().unwrap()])
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("joined late") {
        let before = said.len();
        stderr.read_line(&mut said).unwrap();
        assert!(said.len() > before, "stderr ended early: {said}");
    }
    assert!(
        said.contains("toolport: `slow` has not started after 2 s"),
        "{said}"
    );
    assert!(said.contains("toolport: `slow` joined late ("), "{said}");

    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"slow__list_tasks\n").unwrap();
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let line: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(line["tool"], "slow__list_tasks", "{line}");
    assert_eq!(line["result"]["count"], 3, "{line}");
}

#[test]
fn with_no_server_up_after_the_grace_the_command_waits_for_those_starting() {
    let slow = fixture(
        &[
            "tasks",
            "--lifetime-secs",
            "120",
            "--start-delay-ms",
            "3000",
        ],
        json!({}),
    );
    let path = config_file("only-slow", json!({"slow": slow}));

    let output = toolport(&["tools", "--config", path.to_str().unwrap()]);

    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).contains("add_task"), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("toolport: waiting for `slow` (1 s)…"),
        "{stderr}"
    );
    assert!(!stderr.contains("going on without it"), "{stderr}");
}
