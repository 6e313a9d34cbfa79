//! A file changed on disk, applied as a diff: only the servers that were added, removed or
//! changed start, stop or restart; a bad entry fails alone; saving and loading round-trips.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use toolport_manager::{ManagerError, McpServerManager, ServerStatus};

mod common;
use common::fixture_command;

/// An `mcp.json` whose servers are fixture modes with their arguments.
fn file(servers: &[(&str, &[&str])]) -> String {
    let command = fixture_command();
    let servers: serde_json::Map<String, serde_json::Value> = servers
        .iter()
        .map(|(id, args)| {
            (
                (*id).to_owned(),
                json!({"command": command, "args": args, "note": id}),
            )
        })
        .collect();
    serde_json::to_string_pretty(&json!({"mcpServers": servers})).unwrap()
}

#[tokio::test]
async fn reload_restarts_only_what_changed() {
    let dir = common::scratch_dir("reload");
    let path = dir.join("mcp.json");
    std::fs::write(
        &path,
        file(&[
            ("kept", &["tasks", "--lifetime-secs", "60"]),
            ("changed", &["tasks", "--lifetime-secs", "60"]),
            ("removed", &["tasks", "--lifetime-secs", "60"]),
        ]),
    )
    .unwrap();
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .load(&path)
        .unwrap()
        .build();
    assert!(manager.start_all().await.all_started());
    let kept_before = manager.toolset("kept").unwrap();
    let changed_before = manager.toolset("changed").unwrap();

    std::fs::write(
        &path,
        file(&[
            ("kept", &["tasks", "--lifetime-secs", "60"]),
            ("changed", &["lab", "--lifetime-secs", "60"]),
            ("added", &["tasks", "--lifetime-secs", "60"]),
        ]),
    )
    .unwrap();
    let report = manager.reload(&path).await.unwrap();
    assert_eq!(report.added, ["added"]);
    assert_eq!(report.removed, ["removed"]);
    assert_eq!(report.changed, ["changed"]);
    assert_eq!(report.unchanged, ["kept"]);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert!(
        Arc::ptr_eq(&kept_before, &manager.toolset("kept").unwrap()),
        "the unchanged server kept its session"
    );
    assert!(!Arc::ptr_eq(
        &changed_before,
        &manager.toolset("changed").unwrap()
    ));
    assert_eq!(manager.ids(), ["kept", "changed", "added"]);
    assert_eq!(manager.status("added"), Some(ServerStatus::Running));
    assert!(
        manager.tool("echo", None).await.is_ok(),
        "changed runs the lab now"
    );
    manager.shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn reload_starts_a_fixed_server_and_ignores_a_cosmetic_change() {
    let dir = common::scratch_dir("fixed");
    let path = dir.join("mcp.json");
    std::fs::write(
        &path,
        file(&[
            ("broken", &["exit-during-init"]),
            ("kept", &["tasks", "--lifetime-secs", "60"]),
        ]),
    )
    .unwrap();
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .load(&path)
        .unwrap()
        .build();
    assert_eq!(manager.start_all().await.started(), 1);
    let kept_before = manager.toolset("kept").unwrap();

    let mut fixed: serde_json::Value = serde_json::from_str(&file(&[
        ("broken", &["tasks", "--lifetime-secs", "60"]),
        ("kept", &["tasks", "--lifetime-secs", "60"]),
    ]))
    .unwrap();
    fixed["mcpServers"]["kept"]["note"] = json!("only a note changed");
    std::fs::write(&path, fixed.to_string()).unwrap();
    let report = manager.reload(&path).await.unwrap();
    assert_eq!(report.changed, ["broken"]);
    assert_eq!(report.unchanged, ["kept"]);
    assert_eq!(
        manager.status("broken"),
        Some(ServerStatus::Running),
        "the fixed entry runs"
    );
    assert!(Arc::ptr_eq(&kept_before, &manager.toolset("kept").unwrap()));
    manager.save().unwrap();
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["mcpServers"]["kept"]["note"], "only a note changed");
    manager.shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_bad_entry_fails_alone_and_a_required_one_fails_the_start() {
    let command = fixture_command();
    let text = json!({"mcpServers": {
        "good": {"command": command, "args": ["tasks", "--lifetime-secs", "60"]},
        "unset": {"command": command, "args": ["tasks"], "env": {"TOKEN": "${TOOLPORT_TEST_UNSET_TOKEN}"}},
        "broken": {"command": ["not", "a", "string"], "required": true},
        "crashes": {"command": command, "args": ["exit-during-init"]}
    }});
    let config = toolport_manager::McpConfig::parse(&text.to_string(), "mcp.json").unwrap();
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .config(config)
        .startup_timeout(Duration::from_secs(10))
        .build();
    let report = manager.start_all().await;
    assert_eq!(report.started(), 1);
    let failures: Vec<String> = report.failures().map(ToString::to_string).collect();
    assert_eq!(failures.len(), 3, "{failures:?}");
    assert!(failures[0].starts_with("server `unset`: `env.TOKEN`: the environment variable `TOOLPORT_TEST_UNSET_TOKEN` is not set"), "{}", failures[0]);
    assert!(
        failures[1].starts_with("server `crashes` did not start"),
        "{}",
        failures[1]
    );
    assert!(
        failures[1].contains("fatal: database unreachable"),
        "the stderr tail says why: {}",
        failures[1]
    );
    assert_eq!(failures[2], "server `broken`: `command` must be a string");
    let required = report.check_required().unwrap_err();
    assert!(
        matches!(&required, ManagerError::RequiredFailed { server, source } if server == "broken" && matches!(**source, ManagerError::Config(_))),
        "{required}"
    );
    assert!(required.is_permanent(), "a broken entry stays broken");
    assert_eq!(
        manager.managed_tools(None).await.unwrap().len(),
        3,
        "the good server serves"
    );
    manager.shutdown().await;
}

#[tokio::test]
async fn runtime_changes_save_and_load_back() {
    let dir = common::scratch_dir("roundtrip");
    let path = dir.join("mcp.json");
    std::fs::write(
        &path,
        file(&[("tasks", &["tasks", "--lifetime-secs", "60"])]),
    )
    .unwrap();
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .load(&path)
        .unwrap()
        .build();
    manager
        .add(
            "lab",
            toolport_manager::ServerConfig::stdio(fixture_command())
                .args(["lab"])
                .disabled(true),
        )
        .unwrap();
    manager.disable("tasks").await.unwrap();
    manager.save().unwrap();
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["mcpServers"]["tasks"]["disabled"], true);
    assert_eq!(
        saved["mcpServers"]["tasks"]["note"], "tasks",
        "unknown fields survive"
    );
    assert_eq!(saved["mcpServers"]["lab"]["args"], json!(["lab"]));

    let reloaded = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .load(&path)
        .unwrap()
        .build();
    assert_eq!(reloaded.ids(), ["tasks", "lab"]);
    assert_eq!(reloaded.config("lab"), manager.config("lab"));
    assert_eq!(reloaded.status("tasks"), Some(ServerStatus::Disabled));
    manager.shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
