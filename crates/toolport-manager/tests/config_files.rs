//! `mcp.json` as Claude, Cursor, Cline and VS Code write it: both forms, every field, the
//! errors of a broken file and of a bad entry, and a save that keeps what it does not read.

use std::num::NonZeroUsize;
use std::time::Duration;

use toolport_manager::{
    ConfigError, ConfigForm, McpConfig, McpServerManager, RestartPolicy, ServerConfig,
    TransportConfig,
};

mod common;

const CLAUDE: &str = r#"{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "files": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem", "${HOME}/notes"],
      "env": {"API_KEY": "sk-live-123", "LOG": "${LOG_LEVEL:-warn}"},
      "cwd": "/srv",
      "autoApprove": ["read_file"],
      "timeout": 30,
      "startupTimeout": 2.5,
      "maxConcurrentCalls": 4,
      "restart": {"maxAttempts": 2, "backoffMs": 100},
      "includeTools": ["read_file", "write_file"],
      "excludeTools": ["write_file"],
      "required": true,
      "icon": "folder"
    },
    "docs": {"type": "http", "url": "https://docs.example/mcp", "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}},
    "legacy": {"type": "sse", "url": "http://127.0.0.1:9/sse", "disabled": true, "restart": "never"},
    "cline": {"command": "cline-server", "alwaysAllow": ["ping"]}
  }
}"#;

#[test]
fn the_mcp_servers_form_reads_every_field() {
    let config = McpConfig::parse(CLAUDE, "claude.json").unwrap();
    assert_eq!(config.form(), ConfigForm::McpServers);
    assert_eq!(config.errors().count(), 0);
    let ids: Vec<&str> = config.servers().map(|(id, _)| id).collect();
    assert_eq!(ids, ["files", "docs", "legacy", "cline"]);

    let files = config.server("files").unwrap();
    let TransportConfig::Stdio {
        command,
        args,
        env,
        cwd,
    } = &files.transport
    else {
        panic!("files is a stdio server: {files:?}");
    };
    assert_eq!(command, "npx");
    assert_eq!(args[2], "${HOME}/notes", "kept unexpanded");
    assert_eq!(env[0].0, "API_KEY");
    assert_eq!(env[0].1.expose(), "sk-live-123");
    assert_eq!(cwd.as_deref(), Some("/srv"));
    assert_eq!(files.auto_approve, ["read_file"]);
    assert_eq!(files.timeout, Some(Duration::from_secs(30)));
    assert_eq!(files.startup_timeout, Some(Duration::from_millis(2_500)));
    assert_eq!(files.max_concurrent_calls, NonZeroUsize::new(4));
    assert_eq!(files.restart.max_attempts, 2);
    assert_eq!(files.restart.backoff, Duration::from_millis(100));
    assert!(files.required);
    assert!(files.offers("read_file"));
    assert!(
        !files.offers("write_file"),
        "excludeTools beats includeTools"
    );
    assert!(!files.offers("delete_file"), "not in includeTools");

    let docs = config.server("docs").unwrap();
    assert_eq!(docs.transport.kind(), "http");
    let legacy = config.server("legacy").unwrap();
    assert_eq!(legacy.transport.kind(), "sse");
    assert!(legacy.disabled);
    assert_eq!(legacy.restart, RestartPolicy::NEVER);
    assert_eq!(config.server("cline").unwrap().auto_approve, ["ping"]);
}

#[test]
fn the_vs_code_servers_form_is_read_by_the_same_parser() {
    let text = r#"{
      "inputs": [{"type": "promptString", "id": "token", "password": true}],
      "servers": {
        "github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"},
        "memory": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"], "env": {"HOME": "${env:HOME}"}}
      }
    }"#;
    let config = McpConfig::parse(text, ".vscode/mcp.json").unwrap();
    assert_eq!(config.form(), ConfigForm::Servers);
    assert_eq!(config.servers().count(), 2);
    assert_eq!(config.server("memory").unwrap().transport.kind(), "stdio");
    let saved = config.to_json_string();
    assert!(saved.starts_with("{\n  \"inputs\""), "{saved}");
    assert!(saved.contains("\"servers\""));
}

#[test]
fn a_broken_file_gets_its_line_and_column() {
    let text = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n  }\n}\n";
    let error = McpConfig::parse(text, "mcp.json").unwrap_err();
    let ConfigError::Syntax { line, column, .. } = &error else {
        panic!("{error:?}");
    };
    assert_eq!((*line, *column), (3, 26), "{error}");
    assert_eq!(error.to_string(), "mcp.json:3:26: trailing comma");

    let error = McpConfig::parse(r#"{"tools": {}}"#, "mcp.json").unwrap_err();
    assert!(
        error.to_string().contains("no `mcpServers` object"),
        "{error}"
    );
}

#[test]
fn a_bad_entry_is_named_and_the_others_are_read() {
    let text = r#"{"mcpServers": {
        "ok": {"command": "server"},
        "both": {"command": "a", "url": "http://b"},
        "env": {"command": "a", "env": {"TOKEN": 7}},
        "restart": {"command": "a", "restart": {"maxAttemps": 3}},
        "empty": {}
    }}"#;
    let config = McpConfig::parse(text, "mcp.json").unwrap();
    assert_eq!(config.servers().count(), 1);
    let errors: Vec<String> = config.errors().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "server `both`: has both `command` and `url`; give `type` to say which, or drop one",
            "server `env`: `env.TOKEN` must be a string",
            "server `restart`: `restart.maxAttemps` is not a restart setting (maxAttempts, backoffMs, maxBackoffMs, stableAfterMs)",
            "server `empty`: needs `command` (a server started over stdio) or `url` (a remote server)",
        ]
    );
}

#[test]
fn a_custom_transport_keeps_its_own_fields_hides_their_values_and_saves_them_back() {
    let text = r#"{"mcpServers": {
        "chat": {"type": "websocket", "url": "wss://chat.example/mcp",
                 "headers": {"Authorization": "Bearer sk-live-789"}, "timeout": 30}
    }}"#;
    let config = McpConfig::parse(text, "mcp.json").unwrap();
    let chat = config.server("chat").unwrap();
    assert_eq!(chat.transport.kind(), "websocket");
    assert_eq!(chat.timeout, Some(std::time::Duration::from_secs(30)));
    let fields: Vec<&str> = chat.other_fields().keys().map(String::as_str).collect();
    assert_eq!(
        fields,
        ["url", "headers"],
        "a custom transport's own fields"
    );
    let debug = format!("{chat:?}");
    assert!(!debug.contains("sk-live-789"), "{debug}");
    assert!(debug.contains("headers"), "{debug}");

    let saved = McpConfig::parse(&config.to_json_string(), "saved.json").unwrap();
    assert_eq!(saved.server("chat"), config.server("chat"));
    let changed = chat.clone().other_field("url", "wss://chat.example/v2");
    let mut config = config;
    config.set("chat", changed.clone());
    let saved = McpConfig::parse(&config.to_json_string(), "saved.json").unwrap();
    assert_eq!(saved.server("chat"), Some(&changed));
}

#[test]
fn secrets_never_reach_debug_output_or_errors() {
    let config = McpConfig::parse(CLAUDE, "claude.json").unwrap();
    let debug = format!("{config:?}");
    assert!(!debug.contains("sk-live-123"), "{debug}");
    let manager = McpServerManager::builder().config(config).build();
    assert!(!format!("{manager:?}").contains("sk-live-123"));
    let bad = McpConfig::parse(
        r#"{"mcpServers": {"x": {"command": "a", "env": {"TOKEN": ["sk-live-456"]}}}}"#,
        "mcp.json",
    )
    .unwrap();
    let error = bad.errors().next().unwrap().to_string();
    assert!(!error.contains("sk-live-456"), "{error}");
}

#[test]
fn a_save_keeps_unknown_fields_key_order_and_references() {
    let dir = common::scratch_dir("save");
    let path = dir.join("mcp.json");
    std::fs::write(&path, CLAUDE).unwrap();
    let manager = McpServerManager::builder().load(&path).unwrap().build();
    manager.save().unwrap();
    let saved = std::fs::read_to_string(&path).unwrap();
    let reread: serde_json::Value = serde_json::from_str(&saved).unwrap();
    let original: serde_json::Value = serde_json::from_str(CLAUDE).unwrap();
    assert_eq!(reread, original, "an unchanged file saves as itself");
    let keys = |value: &serde_json::Value| -> Vec<String> {
        value["mcpServers"]["files"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(keys(&reread), keys(&original), "the key order is kept");

    let mut config = McpConfig::load(&path).unwrap();
    let files = config.server("files").unwrap().clone().disabled(true);
    config.set("files", files);
    config.set("new", ServerConfig::sse("http://127.0.0.1:1/sse"));
    assert!(config.remove("cline"));
    config.save(&path).unwrap();
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let files = &saved["mcpServers"]["files"];
    assert_eq!(files["disabled"], true);
    assert_eq!(files["icon"], "folder", "unknown fields stay");
    assert_eq!(files["env"]["LOG"], "${LOG_LEVEL:-warn}");
    assert_eq!(saved["globalShortcut"], "Ctrl+Space");
    assert_eq!(saved["mcpServers"]["new"]["type"], "sse");
    assert!(saved["mcpServers"].get("cline").is_none());
    let ids: Vec<&String> = saved["mcpServers"].as_object().unwrap().keys().collect();
    assert_eq!(ids, ["files", "docs", "legacy", "new"]);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name())
        .collect();
    assert_eq!(leftovers, ["mcp.json"], "no temporary file is left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_entry_replaced_whole_keeps_the_fields_toolport_does_not_read() {
    let text = r#"{"mcpServers": {"a": {"command": "x", "envFile": ".env", "autoApprove": ["one"], "alwaysAllow": ["two"]}}}"#;
    let mut config = McpConfig::parse(text, "mcp.json").unwrap();
    assert_eq!(config.server("a").unwrap().auto_approve, ["one", "two"]);
    let saved: serde_json::Value = serde_json::from_str(&config.to_json_string()).unwrap();
    assert_eq!(
        saved["mcpServers"]["a"]["autoApprove"],
        serde_json::json!(["one", "two"]),
        "both spellings' names are kept"
    );
    let reread = McpConfig::parse(&config.to_json_string(), "mcp.json").unwrap();
    assert_eq!(reread.server("a"), config.server("a"));

    config.set("a", ServerConfig::stdio("y"));
    let saved: serde_json::Value = serde_json::from_str(&config.to_json_string()).unwrap();
    assert_eq!(
        saved["mcpServers"]["a"],
        serde_json::json!({"command": "y", "envFile": ".env"})
    );
}

#[test]
fn max_concurrent_calls_is_saved_and_refused_unless_a_whole_number_above_0() {
    let mut config = McpConfig::parse(r#"{"mcpServers": {}}"#, "mcp.json").unwrap();
    let limited = ServerConfig::stdio("server").max_concurrent_calls(NonZeroUsize::new(3).unwrap());
    config.set("limited", limited.clone());
    let saved: serde_json::Value = serde_json::from_str(&config.to_json_string()).unwrap();
    assert_eq!(
        saved["mcpServers"]["limited"],
        serde_json::json!({"command": "server", "maxConcurrentCalls": 3})
    );
    let reread = McpConfig::parse(&config.to_json_string(), "mcp.json").unwrap();
    assert_eq!(reread.server("limited"), Some(&limited));

    let text = r#"{"mcpServers": {
        "zero": {"command": "a", "maxConcurrentCalls": 0},
        "negative": {"command": "a", "maxConcurrentCalls": -2},
        "fraction": {"command": "a", "maxConcurrentCalls": 2.5},
        "text": {"command": "a", "maxConcurrentCalls": "4"}
    }}"#;
    let config = McpConfig::parse(text, "mcp.json").unwrap();
    assert_eq!(config.servers().count(), 0);
    let errors: Vec<String> = config.errors().map(ToString::to_string).collect();
    let expected: Vec<String> = ["zero", "negative", "fraction", "text"]
        .iter()
        .map(|id| format!("server `{id}`: `maxConcurrentCalls` must be a whole number, at least 1"))
        .collect();
    assert_eq!(errors, expected);
}
