//! The `toolport-fixture faulty` mode as a real child process: it commits the faults its tools
//! name, and writes what it did in its ledger.

use std::path::PathBuf;
use std::process::Stdio;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;
use toolport_fixtures::FaultLedger;
use toolport_testkit::bounded;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;

/// Runs `toolport-fixture faulty` with `args`, writes `lines` to its stdin, closes it, and
/// returns every message it wrote to stdout.
async fn exchange(args: &[&str], lines: &[String]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolport-fixture"))
        .arg("faulty")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn toolport-fixture");
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }
    drop(stdin);
    let mut stdout = String::new();
    let mut pipe = child.stdout.take().unwrap();
    bounded("stdout", pipe.read_to_string(&mut stdout))
        .await
        .unwrap();
    let status = bounded("the fixture to exit", child.wait()).await.unwrap();
    assert!(status.success(), "{status}");
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A fresh ledger under cargo's temporary directory for tests, named after `test`.
fn fresh_ledger(test: &str) -> (FaultLedger, String) {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("faulty-fixture-{test}-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let shown = path.to_str().unwrap().to_owned();
    (FaultLedger::new(path), shown)
}

fn call(id: u64, tool: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}})
    .to_string()
}

fn text(message: &Value) -> &str {
    message["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
}

#[tokio::test]
async fn faulty_commits_the_faults_its_tools_name_and_writes_them_down() {
    let (ledger, path) = fresh_ledger("faults");
    let lines = [
        INITIALIZE.to_owned(),
        call(2, "charge", json!({"note": "a"})),
        call(3, "swap_with_next", json!({})),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}).to_string(),
        call(5, "answer_under_previous_id", json!({"text": "stale"})),
        call(6, "hang", json!({})),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 6}})
            .to_string(),
        call(7, "answer_only_under_unknown_id", json!({})),
    ];
    let messages = exchange(&["--ledger", &path], &lines).await;

    let ids: Vec<&Value> = messages.iter().map(|message| &message["id"]).collect();
    assert_eq!(
        ids,
        [
            &json!(1),
            &json!(2),
            &json!(3),
            &json!(4),
            &json!(4),
            &json!("never-sent")
        ]
    );
    assert_eq!(text(&messages[1]), "charged a");
    assert!(
        messages[2]["result"]["tools"].is_array(),
        "the list went to the call"
    );
    assert_eq!(text(&messages[3]), "the answer to swap_with_next");
    assert_eq!(text(&messages[4]), "stale", "answered under the list's id");
    assert_eq!(
        ledger.entries(),
        [
            "started",
            "charged a",
            "holding 3",
            "hanging 6",
            "cancelled 6"
        ]
    );
}

#[tokio::test]
async fn faulty_hangs_in_initialize_for_the_first_starts_only() {
    let (ledger, path) = fresh_ledger("hang");
    let args = ["--ledger", path.as_str(), "--hang-initialize-starts", "1"];
    let lines = [
        INITIALIZE.to_owned(),
        call(2, "echo", json!({"text": "hi"})),
    ];

    assert_eq!(exchange(&args, &lines).await, Vec::<Value>::new());
    let answered = exchange(&args, &lines).await;
    assert_eq!(answered[0]["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(text(&answered[1]), "hi");
    assert_eq!(
        ledger.entries(),
        ["started", "hanging in initialize", "started"]
    );
}
