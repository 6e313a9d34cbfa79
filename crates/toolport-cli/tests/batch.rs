//! `toolport batch`: many calls from stdin in one session, one JSON line each, and a summary
//! that counts every line that failed.

mod common;

use common::{failure_line, stdout, toolport, toolport_with_stdin};
use serde_json::Value;

/// The JSON lines a batch printed.
fn records(output: &std::process::Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn batch_runs_every_line_in_one_session() {
    let input = "add_task {\"title\": \"Tag v1.2\"}\nlist_tasks {}\n";
    let output = toolport_with_stdin(&["batch"], input);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["tool"], "add_task");
    assert_eq!(lines[0]["is_error"], false);
    assert_eq!(
        lines[1]["result"]["count"], 4,
        "the added task is still there"
    );
}

#[test]
fn batch_exits_2_when_any_call_reports_an_error() {
    let input = "list_tasks\ncomplete_task {\"task_id\": \"T-9\"}\n";
    let output = toolport_with_stdin(&["batch", "--json"], input);
    assert_eq!(output.status.code(), Some(2));
    let last: Value = serde_json::from_str(stdout(&output).lines().last().unwrap()).unwrap();
    assert_eq!(last["is_error"], true);
}

#[test]
fn every_failed_line_counts_in_the_summary() {
    let input =
        "complete_task {\"task_id\": \"T-9\"}\ndelete_everything {}\nlist_tasks {status: open}\n";
    let output = toolport_with_stdin(&["batch"], input);
    let line = failure_line(&output);
    assert!(
        line.starts_with("toolport: 3 of 3 calls failed; first: line 1: complete_task reported an error: No task with ID T-9."),
        "{line}"
    );
    let records = records(&output);
    assert_eq!(records.len(), 3);
    assert_eq!(records[0]["is_error"], true, "the tool's own error");
    assert!(records[0].get("error").is_none());
    for (record, cause) in records[1..].iter().zip(["unknown tool", "not valid JSON"]) {
        let error = record["error"].as_str().unwrap();
        assert!(error.contains(cause), "{record}");
        assert!(
            record.get("is_error").is_none() && record.get("result").is_none(),
            "a line that could not be called is not a tool's answer: {record}"
        );
    }
}

#[test]
fn a_line_takes_key_value_pairs_as_call_does_quoted_as_in_a_shell() {
    let input = "add_task title=\"Tag v1.2\" priority=high\nlist_tasks status=open\nadd_task title=\"unclosed\n";
    let output = toolport_with_stdin(&["batch"], input);
    let records = records(&output);
    assert_eq!(records[0]["result"]["title"], "Tag v1.2", "{records:?}");
    assert_eq!(records[0]["result"]["priority"], "high");
    assert!(
        records[1]["result"].to_string().contains("Tag v1.2"),
        "{records:?}"
    );
    assert!(
        records[2]["error"]
            .as_str()
            .is_some_and(|error| error.contains("unclosed quote")),
        "{records:?}"
    );
}

#[test]
fn tool_errors_alone_exit_2_with_the_summary_on_stderr() {
    let input = "list_tasks\ncomplete_task {\"task_id\": \"T-9\"}\n";
    let output = toolport_with_stdin(&["batch"], input);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("toolport: 1 of 2 calls failed; first: line 2:"),
        "{stderr}"
    );
}

#[test]
fn blank_and_comment_lines_are_skipped_and_not_counted() {
    let input = "\n# the open tasks\nlist_tasks {\"status\": \"open\"}\n   \nnope\n";
    let line = failure_line(&toolport_with_stdin(&["batch"], input));
    assert!(
        line.contains("1 of 2 calls failed; first: line 5: unknown tool `nope`"),
        "{line}"
    );
}

#[test]
fn the_help_says_which_lines_are_skipped() {
    let output = toolport(&["batch", "--help"]);
    let help = stdout(&output);
    assert!(help.contains("blank and `#` lines are skipped"), "{help}");
}
