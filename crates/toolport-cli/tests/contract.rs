//! `toolport lock` and `toolport check`, against the demo and against a fixture server whose
//! tools change between the lock and the check: a pin that matches, a changed tool that fails
//! the check with a readable line for each change, an allowlist that narrows what is compared,
//! a lock of format 1, and a missing lock.

mod common;

use std::path::{Path, PathBuf};

use common::{failure_line, stdout, toolport};
use serde_json::{Value, json};

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
    assert_eq!(pinned["format"], 2);
    let add_task = &pinned["tools"]["add_task"];
    assert_eq!(add_task["input_schema"]["type"], "object");
    assert!(add_task["description"].as_str().unwrap().starts_with("Add"));
    let output = check(&path);
    assert!(output.status.success(), "{output:?}");
}

#[test]
fn a_changed_tool_fails_the_check_and_is_named() {
    let path = lock_path("changed");
    lock(&path, &[]);
    let mut pinned: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    pinned["tools"]["add_task"]["description"] = "Adds a task.".into();
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

/// `args`, then `--` and `toolport-fixture` with `server`'s arguments.
fn against_fixture(args: &[&str], server: &[&str]) -> std::process::Output {
    let fixture = toolport_fixtures::fixture_binary();
    let mut full = args.to_vec();
    full.push("--");
    full.push(fixture.to_str().unwrap());
    full.extend_from_slice(server);
    toolport(&full)
}

#[test]
fn an_allowlist_given_to_check_compares_only_its_tools() {
    let path = lock_path("allow-narrows");
    let path_arg = path.to_str().unwrap();
    let output = against_fixture(
        &["lock", "--out", path_arg],
        &["named", "L", "alpha", "beta"],
    );
    assert!(output.status.success(), "{output:?}");

    // The server no longer lists `beta`, which the allowlist leaves out.
    let output = against_fixture(
        &["check", "--lock", path_arg, "--allow", "alpha"],
        &["named", "L", "alpha", "gamma"],
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(stdout(&output), "");
}

#[test]
fn an_allowed_tool_the_server_dropped_is_removed() {
    let path = lock_path("allow-dropped");
    let path_arg = path.to_str().unwrap();
    let output = against_fixture(
        &["lock", "--out", path_arg, "--allow", "alpha,beta"],
        &["named", "L", "alpha", "beta", "gamma"],
    );
    assert!(output.status.success(), "{output:?}");

    for extra in [&[][..], &["--allow", "beta"]] {
        let mut args = vec!["check", "--lock", path_arg];
        args.extend_from_slice(extra);
        let output = against_fixture(&args, &["named", "L", "alpha", "gamma"]);
        assert_eq!(
            stdout(&output),
            "beta: removed: the lock pins it, the server no longer lists it\n",
            "{extra:?}"
        );
        let line = failure_line(&output);
        assert!(line.starts_with("toolport: 1 change against "), "{line}");
    }
}

#[test]
fn an_allowed_name_neither_pinned_nor_listed_is_an_error() {
    let path = lock_path("allow-unknown");
    let path_arg = path.to_str().unwrap();
    let output = against_fixture(&["lock", "--out", path_arg], &["named", "L", "alpha"]);
    assert!(output.status.success(), "{output:?}");
    let output = against_fixture(
        &["check", "--lock", path_arg, "--allow", "alpha,alhpa"],
        &["named", "L", "alpha"],
    );
    assert_eq!(stdout(&output), "");
    let line = failure_line(&output);
    assert_eq!(
        line,
        format!("toolport: no tool named `alhpa` in {path_arg} or on the server")
    );
}

/// The `search` tool, as `toolport-fixture defined` takes it, with `limit` of type
/// `limit_type`, the given `required` and output schema.
fn search_tool(limit_type: &str, required: &[&str], output: Option<Value>) -> String {
    let mut tool = json!({
        "name": "search",
        "description": "Searches the tasks.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "limit": {"type": limit_type},
                "filter": {"type": "object", "properties": {"since": {"type": "string"}}},
            },
            "required": required,
        },
    });
    if let Some(output) = output {
        tool["outputSchema"] = output;
    }
    json!([tool]).to_string()
}

#[test]
fn a_changed_schema_says_what_changed() {
    let path = lock_path("schema");
    let path_arg = path.to_str().unwrap();
    let before = search_tool("integer", &[], None);
    let output = against_fixture(&["lock", "--out", path_arg], &["defined", &before]);
    assert!(output.status.success(), "{output:?}");
    let output = against_fixture(&["check", "--lock", path_arg], &["defined", &before]);
    assert!(output.status.success(), "{output:?}");

    let after = search_tool(
        "string",
        &["query"],
        Some(json!({"type": "object", "properties": {"hits": {"type": "array"}}})),
    );
    let output = against_fixture(&["check", "--lock", path_arg], &["defined", &after]);
    assert_eq!(
        stdout(&output),
        "search: input property `limit` retyped from integer to string\n\
         search: input property `query` became required\n\
         search: output schema added\n"
    );
    let line = failure_line(&output);
    assert!(line.starts_with("toolport: 3 changes against "), "{line}");
}

/// A lock as the format-1 version wrote it for `toolport-fixture named L alpha`: sha256s of
/// the canonical input schema `{"type":"object"}` and of the description.
const FORMAT_1_LOCK: &str = r#"{
  "format": 1,
  "tools": {
    "alpha": {
      "input_schema": "sha256:a2c799262a3ce3c19ef5cdd983bf3d12b43ab3c426227091b909dcb7054738c0",
      "description": "sha256:c385f8f98d83804bd7e5e67732d9e7d4810db8ccafef4f602b6a0b083faf5ec6"
    }
  }
}
"#;

#[test]
fn a_format_1_lock_is_still_checked() {
    let path = lock_path("format-1");
    let path_arg = path.to_str().unwrap();
    std::fs::write(&path, FORMAT_1_LOCK).unwrap();
    let output = against_fixture(&["check", "--lock", path_arg], &["named", "L", "alpha"]);
    assert!(output.status.success(), "{output:?}");

    let changed = json!([{
        "name": "alpha",
        "description": "Answers `L: alpha`.",
        "inputSchema": {"type": "object", "properties": {"label": {"type": "string"}}},
    }])
    .to_string();
    let output = against_fixture(&["check", "--lock", path_arg], &["defined", &changed]);
    assert_eq!(
        stdout(&output),
        "alpha: the input schema changed (the lock keeps only its sha256, not what changed)\n"
    );
    let line = failure_line(&output);
    assert!(
        line.ends_with(
            "a lock of format 1 that keeps only a sha256 of each schema: run `toolport lock` \
             again to record the schemas, so that a check says what changed in them"
        ),
        "{line}"
    );
}
