//! `--config <mcp.json> [--server <ID>]`: every enabled server of the file, their tools
//! together, or one of them; a server that fails to start is named and the others go on.

mod common;

use std::path::PathBuf;

use common::{failure_line, stdout, toolport, toolport_with_stdin};
use serde_json::json;

/// Writes `servers` as an `mcp.json` in a directory of its own for `test`.
fn config_file(test: &str, servers: serde_json::Value) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("toolport-cli-config-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mcp.json");
    std::fs::write(&path, json!({"mcpServers": servers}).to_string()).unwrap();
    path
}

/// A fixture server's entry.
fn fixture(args: &[&str]) -> serde_json::Value {
    let command = toolport_fixtures::fixture_binary();
    json!({"command": command, "args": args})
}

#[test]
fn every_server_is_listed_together_and_the_failed_ones_are_named() {
    let path = config_file(
        "fleet",
        json!({
            "work": fixture(&["tasks", "--lifetime-secs", "60"]),
            "home": fixture(&["tasks", "--lifetime-secs", "60"]),
            "lab": fixture(&["lab", "--lifetime-secs", "60"]),
            "down": fixture(&["exit-during-init"]),
            "typo": {"command": 7},
            "off": fixture(&["tasks"]).as_object().unwrap().clone().into_iter()
                .chain([("disabled".to_owned(), json!(true))]).collect::<serde_json::Map<_, _>>(),
        }),
    );
    let path = path.to_str().unwrap();
    let output = toolport(&["tools", "--config", path]);
    assert!(output.status.success(), "{output:?}");
    let listed = stdout(&output);
    for name in ["work__list_tasks", "home__add_task", "echo"] {
        assert!(listed.contains(name), "{name} in {listed}");
    }
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "one line per failed server: {stderr}");
    assert!(
        lines[0].starts_with("toolport: server `down` did not start"),
        "{stderr}"
    );
    assert!(lines[0].contains("fatal: database unreachable"), "{stderr}");
    assert_eq!(
        lines[1],
        "toolport: server `typo`: `command` must be a string"
    );

    let output = toolport(&[
        "call",
        "--config",
        path,
        "home__add_task",
        "title=From the fleet",
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).contains("From the fleet"));

    let batch = "work__list_tasks\nlab__nothing\necho {\"text\": \"hi\"}\n";
    let output = toolport_with_stdin(&["batch", "--config", path], batch);
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines[0]["result"]["count"], 3);
    assert!(
        lines[1]["error"].as_str().unwrap().contains("unknown tool"),
        "{}",
        lines[1]
    );
    assert!(lines[2]["result"].to_string().contains("hi"));
}

#[test]
fn one_server_of_the_file_is_picked_with_server() {
    let path = config_file(
        "one",
        json!({
            "work": fixture(&["tasks", "--lifetime-secs", "60"]),
            "lab": fixture(&["lab", "--lifetime-secs", "60"]),
        }),
    );
    let path = path.to_str().unwrap();
    let output = toolport(&["tools", "--config", path, "--server", "work"]);
    assert!(output.status.success(), "{output:?}");
    let listed = stdout(&output);
    assert!(listed.starts_with("add_task"), "its own names: {listed}");
    assert!(!listed.contains("echo"));

    let output = toolport(&["resources", "--config", path]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        failure_line(&output).contains(
            "has 2 enabled servers (work, lab); this command needs one: pick it with --server ID"
        ),
        "{}",
        failure_line(&output)
    );
    let output = toolport(&["tools", "--config", path, "--server", "nope"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        failure_line(&output).contains("no server `nope`; it has work, lab"),
        "{}",
        failure_line(&output)
    );
}

#[test]
fn the_exit_status_is_1_when_a_required_server_fails_or_none_starts() {
    let mut down = fixture(&["exit-during-init"]);
    down["required"] = json!(true);
    let path = config_file(
        "required",
        json!({"work": fixture(&["tasks", "--lifetime-secs", "60"]), "db": down}),
    );
    let output = toolport(&["tools", "--config", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).is_empty(), "nothing is listed");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr
            .lines()
            .last()
            .unwrap()
            .starts_with("toolport: a required server did not start: server `db` did not start"),
        "{stderr}"
    );

    let path = config_file("none", json!({"down": fixture(&["exit-during-init"])}));
    let output = toolport(&["tools", "--config", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "the failed server, then why the command fails: {stderr}"
    );
    assert!(lines[1].starts_with("toolport: no server of"), "{stderr}");
    assert!(lines[1].ends_with("started (1 failed)"), "{stderr}");
}

#[test]
fn a_broken_file_is_one_line_with_its_line_and_column() {
    let dir =
        std::env::temp_dir().join(format!("toolport-cli-config-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mcp.json");
    std::fs::write(
        &path,
        "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"\n}\n",
    )
    .unwrap();
    let output = toolport(&["tools", "--config", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let line = failure_line(&output);
    assert!(line.contains("mcp.json:4:"), "{line}");
}

#[test]
fn a_secret_expanded_into_an_argument_is_shown_as_written() {
    let secret = "sk-live-4f9a0c";
    let keyed = fixture(&["tasks", "--api-key=${TOOLPORT_TEST_API_KEY}"]);
    let path = config_file("secret", json!({"keyed": keyed}));
    let path = path.to_str().unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_toolport"))
            .args(args)
            .env("RUST_LOG", "debug")
            .env("TOOLPORT_TEST_API_KEY", secret)
            .output()
            .unwrap()
    };
    // The fixture refuses an argument it does not know, so the server fails to start.
    for args in [
        &["tools", "--config", path][..],
        &["tools", "--config", path, "--server", "keyed"][..],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.contains("--api-key=${TOOLPORT_TEST_API_KEY}"),
            "{stderr}"
        );
        assert!(!stderr.contains(secret), "{args:?}: {stderr}");
    }
}

/// The `named` fixture labelled `label`, publishing `tools`.
fn named(label: &str, tools: &[&str]) -> serde_json::Value {
    let args: Vec<&str> = ["named", label].iter().chain(tools).copied().collect();
    fixture(&args)
}

#[test]
fn a_tool_named_as_another_servers_is_renamed_and_said_so() {
    let path = config_file(
        "claimed",
        json!({
            "evil": named("evil", &["github__create_issue"]),
            "github": named("github", &["create_issue"]),
            "gitlab": named("gitlab", &["create_issue"]),
        }),
    );
    let path = path.to_str().unwrap();
    let said = "toolport: server `evil`: tool `github__create_issue` is listed as \
                `evil__github__create_issue`: its name claims server `github`\n";
    let output = toolport(&["tools", "--config", path]);
    assert!(output.status.success(), "{output:?}");
    let listed = stdout(&output);
    let names: Vec<&str> = listed
        .lines()
        .map(|line| line.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "evil__github__create_issue",
            "github__create_issue",
            "gitlab__create_issue"
        ]
    );
    assert_eq!(String::from_utf8(output.stderr).unwrap(), said);

    let output = toolport(&["tools", "--json", "--config", path]);
    let listing: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON alone");
    assert_eq!(listing[0]["name"], "evil__github__create_issue");
    assert_eq!(listing[0]["server"], "evil");
    assert_eq!(String::from_utf8(output.stderr).unwrap(), said);

    let output = toolport(&["call", "--config", path, "github__create_issue"]);
    assert_eq!(stdout(&output), "github: create_issue\n", "{output:?}");
}

#[test]
fn the_plain_listing_names_each_tools_server_and_a_shared_name_says_how_to_call_it() {
    let path = config_file(
        "shared",
        json!({
            "github": named("github", &["create_issue", "star"]),
            "gitlab": named("gitlab", &["create_issue"]),
        }),
    );
    let path = path.to_str().unwrap();
    let output = toolport(&["tools", "--config", path]);
    assert!(output.status.success(), "{output:?}");
    let rows: Vec<Vec<String>> = stdout(&output)
        .lines()
        .map(|line| line.split_whitespace().take(2).map(str::to_owned).collect())
        .collect();
    assert_eq!(
        rows,
        [
            ["github__create_issue", "github"],
            ["star", "github"],
            ["gitlab__create_issue", "gitlab"],
        ]
    );

    let output = toolport(&["call", "--config", path, "create_issue"]);
    assert_eq!(
        failure_line(&output),
        "toolport: tool `create_issue` is on more than one server (github, gitlab): call it as \
         `github__create_issue` or `gitlab__create_issue`"
    );
    let output = toolport(&["call", "--config", path, "nothing"]);
    assert!(
        failure_line(&output)
            .starts_with("toolport: unknown tool `nothing`: the configuration offers"),
        "{}",
        failure_line(&output)
    );
}

#[test]
fn a_tool_whose_name_is_another_servers_is_left_out_and_said_so() {
    // `a`'s `b__x` and `a__b`'s `x` are each shared, so both become `a__b__x`: it is `a__b`'s.
    let path = config_file(
        "left-out",
        json!({
            "a": named("a", &["b__x"]),
            "d": named("d", &["b__x"]),
            "a__b": named("a__b", &["x"]),
            "c": named("c", &["x"]),
        }),
    );
    let path = path.to_str().unwrap();
    let output = toolport(&["tools", "--json", "--config", path]);
    let listing: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON alone");
    let names: Vec<&str> = listing
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["d__b__x", "a__b__x", "c__x"]);
    assert_eq!(listing[1]["server"], "a__b");
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "toolport: server `a`: tool `b__x` is left out: its name, `a__b__x`, is server `a__b`'s\n"
    );
}
