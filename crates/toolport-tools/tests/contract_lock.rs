//! Contract pins: every kind of change is found and said in one line, key order does not count,
//! an allowlist narrows what is compared, a lock survives its file, and a lock of format 1 is
//! still read.

use serde_json::{Value, json};
use toolport_tools::ToolDefinition;
use toolport_tools::contract::{ContractChangeKind, ContractLock, Pinned, ToolSchema};
use toolport_tools::schema::MAX_DEPTH;

fn tool(name: &str, input: Value, output: Option<Value>) -> ToolDefinition {
    let mut listed = json!({"name": name, "description": "Does it.", "inputSchema": input});
    if let Some(output) = output {
        listed["outputSchema"] = output;
    }
    serde_json::from_value(listed).unwrap()
}

/// The lines a check of `now` against `pinned` prints.
fn check_lines(pinned: &ContractLock, now: &[ToolDefinition]) -> Vec<String> {
    pinned
        .check(&ContractLock::from_tools(now))
        .iter()
        .map(ToString::to_string)
        .collect()
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
            (
                "reshape".to_owned(),
                ContractChangeKind::OutputSchemaRemoved
            ),
            (
                "retype".to_owned(),
                ContractChangeKind::PropertyRetyped {
                    schema: ToolSchema::Input,
                    path: "a".to_owned(),
                    from: "string".to_owned(),
                    to: "integer".to_owned(),
                }
            ),
        ]
    );
}

#[test]
fn each_change_to_the_input_properties_is_one_line() {
    let pinned = ContractLock::from_tools(&[tool(
        "search",
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "limit": {"type": "integer"},
                "cursor": {"type": "string"},
                "exact": {"type": "boolean"},
                "filter": {"type": "object", "properties": {"since": {"type": "string"}}},
            },
            "required": ["exact"],
        }),
        None,
    )]);
    let now = tool(
        "search",
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "maxLength": 200},
                "limit": {"type": "string"},
                "exact": {"type": "boolean"},
                "filter": {
                    "type": "object",
                    "properties": {"since": {"type": ["string", "null"]}, "until": {}},
                    "required": ["until"],
                },
                "page": {"type": "integer"},
                "tenant": {"type": "string"},
            },
            "required": ["query", "tenant"],
        }),
        None,
    );
    assert_eq!(
        check_lines(&pinned, &[now]),
        [
            "search: input property `cursor` removed",
            "search: input property `page` added",
            "search: input property `tenant` added as required",
            "search: input property `filter.until` added as required",
            "search: input property `filter.since` retyped from string to string or null",
            "search: input property `limit` retyped from integer to string",
            "search: input property `query` changed in `maxLength`",
            "search: input property `query` became required",
            "search: input property `exact` is no longer required",
        ]
    );
}

#[test]
fn an_output_schema_added_removed_or_changed_is_said() {
    let object = json!({"type": "object"});
    let report = json!({
        "type": "object",
        "properties": {"hits": {"type": "array"}, "total": {"type": "integer"}},
        "required": ["hits"],
    });
    let pinned = ContractLock::from_tools(&[
        tool("gains", object.clone(), None),
        tool("loses", object.clone(), Some(report.clone())),
        tool("reshapes", object.clone(), Some(report.clone())),
    ]);
    let reshaped = json!({
        "type": "object",
        "properties": {"hits": {"type": "object"}},
        "required": ["hits"],
    });
    let now = [
        tool("gains", object.clone(), Some(report.clone())),
        tool("loses", object.clone(), None),
        tool("reshapes", object.clone(), Some(reshaped)),
    ];
    assert_eq!(
        check_lines(&pinned, &now),
        [
            "gains: output schema added",
            "loses: output schema removed",
            "reshapes: output property `total` removed",
            "reshapes: output property `hits` retyped from array to object",
        ]
    );
}

#[test]
fn a_change_outside_the_properties_names_its_keywords() {
    let pinned = ContractLock::from_tools(&[tool("search", json!({"type": "object"}), None)]);
    let now = tool(
        "search",
        json!({"type": "object", "additionalProperties": false, "$defs": {}}),
        None,
    );
    assert_eq!(
        check_lines(&pinned, &[now]),
        ["search: the input schema changed in `$defs`, `additionalProperties`"]
    );
    let open = json!({"type": "object", "properties": {"any": true}});
    let closed = json!({"type": "object", "properties": {"any": false}});
    let pinned_open = ContractLock::from_tools(&[tool("search", open, None)]);
    assert_eq!(
        check_lines(&pinned_open, &[tool("search", closed, None)]),
        ["search: input property `any` changed"]
    );
    let mut described = tool("search", json!({"type": "object"}), None);
    described.description = Some("Searches, and deletes what it finds.".into());
    assert_eq!(
        check_lines(&pinned, &[described]),
        ["search: the description changed"]
    );
}

#[test]
fn nested_properties_are_compared_a_bounded_depth_down() {
    // Each level is a property `p` of the one above; the innermost is retyped.
    let nested = |innermost: &str| {
        let mut schema = json!({"type": innermost});
        for _ in 0..MAX_DEPTH + 50 {
            schema = json!({"type": "object", "properties": {"p": schema}});
        }
        schema
    };
    let pinned = ContractLock::from_tools(&[tool("deep", nested("string"), None)]);
    let changes = pinned.check(&ContractLock::from_tools(&[tool(
        "deep",
        nested("integer"),
        None,
    )]));
    let deepest_compared = vec!["p"; MAX_DEPTH].join(".");
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(
        changes[0].kind,
        ContractChangeKind::KeywordsChanged {
            schema: ToolSchema::Input,
            path: Some(deepest_compared),
            keywords: vec!["properties".to_owned()],
        }
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
    let pinned = ContractLock::from_tools(&[tool(
        "search",
        json!({"type": "object", "properties": {"q": {"type": "string"}}}),
        Some(json!({"type": "object"})),
    )])
    .with_allowlist(["search".to_owned()]);
    let written = pinned.to_json();
    let file: Value = serde_json::from_str(&written).unwrap();
    assert_eq!(file["format"], 2);
    assert_eq!(file["tools"]["search"]["description"], "Does it.");
    assert_eq!(
        file["tools"]["search"]["input_schema"]["properties"]["q"],
        json!({"type": "string"})
    );
    assert_eq!(ContractLock::from_json(&written).unwrap(), pinned);
}

/// A lock as the format-1 version wrote it for `tool("search", {"type": "object"}, None)`.
const FORMAT_1_LOCK: &str = r#"{
  "format": 1,
  "tools": {
    "search": {
      "input_schema": "sha256:a2c799262a3ce3c19ef5cdd983bf3d12b43ab3c426227091b909dcb7054738c0",
      "description": "sha256:fe2bef68ee88e3e5e7c8730d61bb1875cf541c4838a66f854f92447af1e1c30b"
    }
  }
}
"#;

#[test]
fn a_format_1_lock_is_read_and_says_only_that_a_schema_changed() {
    let pinned = ContractLock::from_json(FORMAT_1_LOCK).unwrap();
    assert!(matches!(
        pinned.tools["search"].input_schema,
        Pinned::Sha256(_)
    ));
    let object = json!({"type": "object"});
    assert!(check_lines(&pinned, &[tool("search", object.clone(), None)]).is_empty());

    let retyped = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let mut described = tool("search", retyped, Some(object.clone()));
    described.description = Some("Searches.".into());
    assert_eq!(
        check_lines(&pinned, &[described]),
        [
            "search: the description changed",
            "search: the input schema changed (the lock keeps only its sha256, not what changed)",
            "search: output schema added",
        ]
    );
    // Written again, it stays in format 1: it has nothing to write in format 2.
    assert_eq!(pinned.to_json(), FORMAT_1_LOCK);
}

#[test]
fn a_newer_format_is_refused_by_name() {
    let error = ContractLock::from_json(r#"{"format": 3, "tools": {}}"#).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("its format 3 is not one this version reads (1 or 2)"),
        "{error}"
    );
}
