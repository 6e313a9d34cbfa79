//! `toolport search QUERY`: the tools ranked for a need, over the demo, a fleet of `--config`
//! and the reference `server-everything`; and `tools --search`, what an agent with tool search
//! offers its model.

mod common;

use std::path::PathBuf;

use common::{failure_line, stdout, toolport, toolport_async};
use serde_json::{Value, json};
use toolport_integration_tests::peer;

/// The ranking `toolport search --json` printed.
fn ranked(args: &[&str]) -> Vec<Value> {
    let mut command = vec!["search", "--json"];
    command.extend(args);
    let output = toolport(&command);
    assert!(output.status.success(), "{}", failure_line(&output));
    serde_json::from_slice(&output.stdout).expect("stdout is a JSON array")
}

fn names(ranking: &[Value]) -> Vec<&str> {
    ranking
        .iter()
        .map(|hit| hit["name"].as_str().unwrap())
        .collect()
}

/// An `mcp.json` of two fixture servers, `work` (tasks) and `lab`.
fn fleet_file() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolport-cli-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mcp.json");
    let server = |kind: &str| json!({"command": toolport_fixtures::fixture_binary(), "args": [kind, "--lifetime-secs", "60"]});
    let servers = json!({"mcpServers": {"work": server("tasks"), "lab": server("lab")}});
    std::fs::write(&path, servers.to_string()).unwrap();
    path
}

#[test]
fn the_demos_tools_come_best_first_with_their_scores() {
    let ranking = ranked(&["create a new task", "--limit", "2"]);
    assert_eq!(names(&ranking).len(), 2, "{ranking:?}");
    assert_eq!(names(&ranking)[0], "add_task");
    assert_eq!(ranking[0]["server"], Value::Null, "one server has no id");
    let scores: Vec<f64> = ranking
        .iter()
        .map(|hit| hit["score"].as_f64().unwrap())
        .collect();
    assert!(scores[0] > scores[1], "{scores:?}");

    let output = toolport(&["search", "mark it finished"]);
    assert!(output.status.success(), "{}", failure_line(&output));
    let first = stdout(&output).lines().next().unwrap().to_owned();
    assert!(first.starts_with("complete_task "), "{first}");
    assert!(first.ends_with("Marks the task with the given ID as done and returns it."));
}

#[test]
fn a_fleets_tools_are_ranked_together_with_their_servers() {
    let path = fleet_file();
    let path = path.to_str().unwrap();
    let ranking = ranked(&["sum of two integers", "--config", path]);
    assert_eq!(ranking[0]["name"], "add", "{ranking:?}");
    assert_eq!(ranking[0]["server"], "lab");
    let ranking = ranked(&["create a task", "--config", path]);
    assert_eq!(ranking[0]["name"], "add_task", "{ranking:?}");
    assert_eq!(ranking[0]["server"], "work");

    let output = toolport(&["search", "repeat my words", "--config", path]);
    let first = stdout(&output).lines().next().unwrap().to_owned();
    let columns: Vec<&str> = first.split_whitespace().take(2).collect();
    assert_eq!(columns, ["echo", "lab"], "{first}");
}

#[test]
fn tools_with_search_offer_the_pinned_tools_and_the_search_tool() {
    let output = toolport(&["tools", "--search", "--pin", "list_tasks"]);
    assert!(output.status.success(), "{}", failure_line(&output));
    let offered: Vec<String> = stdout(&output)
        .lines()
        .map(|line| line.split_whitespace().next().unwrap().to_owned())
        .collect();
    assert_eq!(offered, ["list_tasks", "search_tools"]);

    let output = toolport(&["tools", "--search", "--json"]);
    let declarations: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(declarations.len(), 1);
    assert_eq!(declarations[0]["name"], "search_tools");
    assert_eq!(declarations[0]["inputSchema"]["required"], json!(["query"]));

    let output = toolport(&["tools", "--search", "--provider", "anthropic"]);
    let declarations: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(declarations[0]["name"], "search_tools");
    assert!(
        declarations[0]["input_schema"].is_object(),
        "{declarations:?}"
    );

    let output = toolport(&["tools", "--search", "--pin", "list_taks"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        failure_line(&output).contains("list_taks"),
        "{}",
        failure_line(&output)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_everythings_tools_are_found_in_other_words() {
    let server = peer(
        "TOOLPORT_SERVER_EVERYTHING",
        "node/node_modules/.bin/mcp-server-everything",
    );
    let search = |query: &'static str| {
        let server = server.to_str().unwrap().to_owned();
        async move {
            let args = ["search", "--json", query, "--", &server, "stdio"];
            let output = toolport_async(&args, &[]).await;
            assert!(output.status.success(), "{}", failure_line(&output));
            let ranking: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
            ranking[0]["name"].as_str().unwrap().to_owned()
        }
    };
    assert_eq!(search("add up 2 and 3").await, "get-sum");
    assert_eq!(search("print the environment variables").await, "get-env");
    assert_eq!(search("repeat back what I say").await, "echo");
}
