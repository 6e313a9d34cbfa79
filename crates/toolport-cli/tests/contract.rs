//! `toolport lock` and `toolport check` against the demo: a pin that matches, a changed tool
//! that fails the check with a readable line, an allowlist kept in the lock, and a missing lock.

mod common;

use std::path::{Path, PathBuf};

use common::{failure_line, stdout, toolport};
use serde_json::Value;

/// A lock path of its own for each test, in the target directory.
fn lock_path(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{name}-{}.lock", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn lock(path: &Path, extra: &[&str]) {
    let mut args = vec!["lock", "--out", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = toolport(&args);
    assert!(output.status.success(), "{output:?}");
}

fn check(path: &Path) -> std::process::Output {
    toolport(&["check", "--lock", path.to_str().unwrap()])
}

#[test]
fn a_fresh_lock_matches_the_server() {
    let path = lock_path("fresh");
    lock(&path, &[]);
    let pinned: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let names: Vec<&String> = pinned["tools"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["add_task", "complete_task", "list_tasks"]);
    assert!(
        pinned["tools"]["add_task"]["input_schema"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    let output = check(&path);
    assert!(output.status.success(), "{output:?}");
}

#[test]
fn a_changed_tool_fails_the_check_and_is_named() {
    let path = lock_path("changed");
    lock(&path, &[]);
    let mut pinned: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    pinned["tools"]["add_task"]["description"] = "sha256:0".into();
    pinned["tools"]["gone_tool"] = pinned["tools"]["list_tasks"].clone();
    std::fs::write(&path, pinned.to_string()).unwrap();

    let output = check(&path);
    assert_eq!(
        stdout(&output),
        "add_task: the description changed\n\
         gone_tool: removed: the lock pins it, the server no longer lists it\n"
    );
    let line = failure_line(&output);
    assert!(line.starts_with("toolport: 2 changes against "), "{line}");
}

#[test]
fn the_locks_allowlist_is_what_check_compares() {
    let path = lock_path("allow");
    lock(&path, &["--allow", "list_tasks"]);
    let pinned: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(pinned["allow"], serde_json::json!(["list_tasks"]));
    assert_eq!(pinned["tools"].as_object().unwrap().len(), 1);
    assert!(check(&path).status.success());
}

#[test]
fn a_missing_lock_is_one_line() {
    let path = lock_path("missing");
    let line = failure_line(&check(&path));
    assert!(
        line.starts_with("toolport: cannot read the lock "),
        "{line}"
    );
    assert!(line.contains("No such file"), "the cause is named: {line}");
}
