//! Contract pins: every kind of change is found, key order does not count, an allowlist
//! narrows what is compared, and a lock survives its file.

use serde_json::{Value, json};
use toolport_tools::ToolDefinition;
use toolport_tools::contract::{ContractChangeKind, ContractLock};

fn tool(name: &str, input: Value, output: Option<Value>) -> ToolDefinition {
    let mut listed = json!({"name": name, "description": "Does it.", "inputSchema": input});
    if let Some(output) = output {
        listed["outputSchema"] = output;
    }
    serde_json::from_value(listed).unwrap()
}

#[test]
fn every_kind_of_change_is_found_by_tool() {
    let object = json!({"type": "object"});
    let pinned = ContractLock::from_tools(&[
        tool("keep", object.clone(), None),
        tool("drop", object.clone(), None),
        tool(
            "retype",
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            None,
        ),
        tool("reshape", object.clone(), Some(object.clone())),
    ]);
    let now = ContractLock::from_tools(&[
        tool("keep", object.clone(), None),
        tool(
            "retype",
            json!({"type": "object", "properties": {"a": {"type": "integer"}}}),
            None,
        ),
        tool("reshape", object.clone(), None),
        tool("new", object.clone(), None),
    ]);
    let changes: Vec<(String, ContractChangeKind)> = pinned
        .check(&now)
        .into_iter()
        .map(|change| (change.tool, change.kind))
        .collect();
    assert_eq!(
        changes,
        [
            ("drop".to_owned(), ContractChangeKind::Removed),
            ("new".to_owned(), ContractChangeKind::Added),
            ("reshape".to_owned(), ContractChangeKind::OutputSchema),
            ("retype".to_owned(), ContractChangeKind::InputSchema),
        ]
    );
}

#[test]
fn key_order_is_not_a_change() {
    let a: Value =
        serde_json::from_str(r#"{"type":"object","required":["q"],"properties":{"q":{}}}"#)
            .unwrap();
    let b: Value =
        serde_json::from_str(r#"{"properties":{"q":{}},"required":["q"],"type":"object"}"#)
            .unwrap();
    let pinned = ContractLock::from_tools(&[tool("search", a, None)]);
    assert!(
        pinned
            .check(&ContractLock::from_tools(&[tool("search", b, None)]))
            .is_empty()
    );
}

#[test]
fn an_allowlist_compares_only_its_tools_on_both_sides() {
    let object = json!({"type": "object"});
    let pinned = ContractLock::from_tools(&[
        tool("kept", object.clone(), None),
        tool("other", object.clone(), None),
        tool("gone", object.clone(), None),
    ]);
    // The server filtered by the allowlist lists `kept` alone.
    let now = ContractLock::from_tools(&[tool("kept", object.clone(), None)]);
    let narrowed = pinned.clone().with_allowlist(["kept".to_owned()]);
    assert!(narrowed.check(&now).is_empty());
    let changes = pinned
        .with_allowlist(["kept".to_owned(), "gone".to_owned()])
        .check(&now);
    assert_eq!(
        changes[0].to_string(),
        "gone: removed: the lock pins it, the server no longer lists it"
    );
    assert_eq!(changes.len(), 1);
}

#[test]
fn a_lock_reads_back_as_written() {
    let pinned = ContractLock::from_tools(&[tool("search", json!({"type": "object"}), None)])
        .with_allowlist(["search".to_owned()]);
    let read = ContractLock::from_json(&pinned.to_json()).unwrap();
    assert_eq!(read, pinned);
}
