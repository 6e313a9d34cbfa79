//! A tool's arguments on the command line: one JSON object, or `key=value` pairs typed by the
//! tool's input schema, and `key:=<json>` for raw JSON.

mod common;

use common::{failure_line, stdout, toolport, toolport_async};
use serde_json::{Value, json};
use toolport_fixtures::{HttpFixtureServer, LabServer};

#[test]
fn key_value_pairs_call_the_demo() {
    let output = toolport(&[
        "call",
        "add_task",
        "title=Tag v1.2",
        "priority=high",
        "--json",
    ]);
    assert!(output.status.success(), "{}", stdout(&output));
    let task: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        task,
        json!({"id": "T-4", "title": "Tag v1.2", "priority": "high", "status": "open"})
    );
}

#[test]
fn a_string_property_stays_a_string() {
    let output = toolport(&["call", "add_task", "title=42", "--json"]);
    let task: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(task["title"], "42");
}

#[test]
fn raw_json_and_one_object_still_work() {
    let output = toolport(&["call", "list_tasks", "status:=\"done\"", "--json"]);
    let list: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(list["count"], 1);
    let output = toolport(&["call", "list_tasks", r#"{"status": "done"}"#, "--json"]);
    let list: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(list["count"], 1);
}

#[test]
fn a_word_that_is_no_pair_is_one_clear_line() {
    let line = failure_line(&toolport(&["call", "add_task", "title"]));
    assert!(
        line.contains("`title`: expected key=value, key:=<json> or one JSON object"),
        "{line}"
    );
    let line = failure_line(&toolport(&["call", "add_task", "title=a", "title=b"]));
    assert!(line.contains("`title` is given twice"), "{line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn integers_are_parsed_by_the_schema_and_a_bad_one_names_its_key() {
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    let url = server.url();

    let output = toolport_async(&["call", "add", "a=2", "b=3", "--json", "--url", &url], &[]).await;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let sum: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(sum, json!({"sum": 5}));

    let output = toolport_async(&["call", "add", "a=two", "b=3", "--url", &url], &[]).await;
    let line = failure_line(&output);
    assert!(
        line.contains("`a`: expected an integer, got `two`"),
        "{line}"
    );
}

#[test]
fn the_help_shows_both_forms() {
    let help = stdout(&toolport(&["call", "--help"]));
    assert!(help.contains("key=value"), "{help}");
    assert!(help.contains("key:=<json>"), "{help}");
    assert!(help.contains(r#"title="Tag v1.2" priority=high"#), "{help}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arguments_that_break_the_input_schema_never_reach_the_server() {
    let server = HttpFixtureServer::start(LabServer::new).await.unwrap();
    let url = server.url();
    let wrong_type =
        toolport_async(&["call", "add", "a:=\"two\"", "b:=3", "--url", &url], &[]).await;
    let line = failure_line(&wrong_type);
    assert!(
        line.contains("invalid arguments for add") && line.contains("a"),
        "{line}"
    );
    let missing = toolport_async(&["call", "add", "a:=2", "--url", &url], &[]).await;
    let line = failure_line(&missing);
    assert!(line.contains("missing properties 'b'"), "{line}");
    let calls = server
        .requests()
        .iter()
        .filter(|request| request.header("mcp-method") == Some("tools/call"))
        .count();
    assert_eq!(calls, 0, "no call was sent");
    server.stop().await;
}
