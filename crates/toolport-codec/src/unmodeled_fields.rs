//! Reading what rmcp's model drops out of an `initialize` result and each `tools/list` page
//! (2025-11-25 tasks, each listed tool's unmodeled fields), into core's [`UnmodeledFields`].

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use toolport_core::{TaskSupport, UnmodeledFields};

/// The members of a tool that rmcp's `Tool` keeps.
const MODELED_TOOL_FIELDS: [&str; 8] = [
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "_meta",
];

/// The members of a tool's `annotations` that rmcp's `ToolAnnotations` keeps.
const MODELED_ANNOTATIONS: [&str; 5] = [
    "title",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// The members of an icon that rmcp's `Icon` keeps.
const MODELED_ICON_FIELDS: [&str; 4] = ["src", "mimeType", "sizes", "theme"];

/// Reads the `capabilities.tasks` of an `initialize` result (its JSON text) into `known`.
pub(crate) fn learn_initialize(known: &UnmodeledFields, result: &str) {
    #[derive(Deserialize)]
    struct Initialized {
        capabilities: Capabilities,
    }
    #[derive(Deserialize)]
    struct Capabilities {
        tasks: Option<Tasks>,
    }
    #[derive(Deserialize)]
    struct Tasks {
        requests: Option<Requests>,
    }
    #[derive(Deserialize)]
    struct Requests {
        tools: Option<Tools>,
    }
    #[derive(Deserialize)]
    struct Tools {
        call: Option<serde::de::IgnoredAny>,
    }
    let runs_tool_calls = serde_json::from_str::<Initialized>(result)
        .ok()
        .and_then(|initialized| initialized.capabilities.tasks?.requests?.tools?.call)
        .is_some();
    known.record_runs_tool_calls(runs_tool_calls);
}

/// Reads a `tools/list` page (its JSON text) into `known`: each tool's unmodeled fields, and
/// its `execution.taskSupport`, which `known` keeps if the server runs tool calls as tasks.
pub(crate) fn learn_tools(known: &UnmodeledFields, result: &str) {
    #[derive(Deserialize)]
    struct Page<'a> {
        #[serde(borrow)]
        tools: Vec<HashMap<String, &'a RawValue>>,
    }
    let Ok(page) = serde_json::from_str::<Page<'_>>(result) else {
        return;
    };
    // Most servers run no tool call as a task: their tools' `execution` is not read.
    let runs_tool_calls = known.runs_tool_calls();
    known.record_listed_tools(page.tools.iter().filter_map(|members| {
        let name = members
            .get("name")
            .and_then(|name| serde_json::from_str::<String>(name.get()).ok())?;
        let support = if runs_tool_calls {
            task_support(members.get("execution").copied())
        } else {
            TaskSupport::Forbidden
        };
        Some((name, support, unmodeled(members)))
    }));
}

/// What a tool's `execution` says of tasks.
fn task_support(execution: Option<&RawValue>) -> TaskSupport {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Execution {
        task_support: Option<String>,
    }
    let execution = execution.and_then(|raw| serde_json::from_str::<Execution>(raw.get()).ok());
    match execution.and_then(|e| e.task_support).as_deref() {
        Some("required") => TaskSupport::Required,
        Some("optional") => TaskSupport::Optional,
        _ => TaskSupport::Forbidden,
    }
}

/// The members of one listed tool that rmcp's `Tool` drops, parsed, in the order of their
/// names.
fn unmodeled(members: &HashMap<String, &RawValue>) -> Map<String, Value> {
    let mut unmodeled: Vec<(String, Value)> = members
        .iter()
        .filter(|(key, raw)| match key.as_str() {
            "annotations" => has_unmodeled_members(raw, &MODELED_ANNOTATIONS),
            "icons" => serde_json::from_str::<Vec<&RawValue>>(raw.get()).is_ok_and(|icons| {
                icons
                    .iter()
                    .any(|icon| has_unmodeled_members(icon, &MODELED_ICON_FIELDS))
            }),
            key => !MODELED_TOOL_FIELDS.contains(&key),
        })
        .filter_map(|(key, raw)| Some((key.clone(), serde_json::from_str(raw.get()).ok()?)))
        .collect();
    // Most tools have none, so only what is kept is sorted.
    unmodeled.sort_unstable_by(|(a, _), (b, _)| a.cmp(b));
    unmodeled.into_iter().collect()
}

/// Whether `raw` is an object with a member outside `modeled`.
fn has_unmodeled_members(raw: &RawValue, modeled: &[&str]) -> bool {
    serde_json::from_str::<HashMap<String, serde::de::IgnoredAny>>(raw.get())
        .is_ok_and(|members| members.keys().any(|key| !modeled.contains(&key.as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_that_runs_tool_calls_as_tasks_says_which_tools() {
        let known = UnmodeledFields::default();
        learn_initialize(
            &known,
            r#"{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"s","version":"1"}}"#,
        );
        learn_tools(
            &known,
            r#"{"tools":[{"name":"slow","execution":{"taskSupport":"required"}},{"name":"either","execution":{"taskSupport":"optional"}},{"name":"quick","inputSchema":{}}]}"#,
        );
        assert!(known.runs_tool_calls());
        assert_eq!(known.support_of("slow"), TaskSupport::Required);
        assert_eq!(known.support_of("either"), TaskSupport::Optional);
        assert_eq!(known.support_of("quick"), TaskSupport::Forbidden);
        assert_eq!(known.support_of("unlisted"), TaskSupport::Forbidden);
        assert!(known.has_listed("quick") && !known.has_listed("unlisted"));
    }

    #[test]
    fn each_tool_keeps_the_fields_rmcp_drops_and_only_those() {
        let known = UnmodeledFields::default();
        learn_tools(
            &known,
            r#"{"tools":[
                {"name":"research","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"},"x-cost":3},
                {"name":"plain","title":"Plain","inputSchema":{},"annotations":{"readOnlyHint":true},"icons":[{"src":"a.png"}]},
                {"name":"hinted","inputSchema":{},"annotations":{"readOnlyHint":true,"costHint":"high"}},
                {"name":"themed","inputSchema":{},"icons":[{"src":"a.png","shade":"dark"}]}
            ]}"#,
        );
        let fields = known.tool_fields("research").unwrap();
        assert_eq!(
            Value::Object(fields),
            serde_json::json!({"execution": {"taskSupport": "optional"}, "x-cost": 3})
        );
        assert_eq!(known.tool_fields("plain"), None);
        assert_eq!(
            Value::Object(known.tool_fields("hinted").unwrap()),
            serde_json::json!({"annotations": {"readOnlyHint": true, "costHint": "high"}})
        );
        assert_eq!(
            Value::Object(known.tool_fields("themed").unwrap()),
            serde_json::json!({"icons": [{"src": "a.png", "shade": "dark"}]})
        );
        // Without the capability, nothing of tasks is kept; the fields are.
        assert!(!known.has_listed("research"));

        // A later listing without the extra field forgets it.
        learn_tools(
            &known,
            r#"{"tools":[{"name":"research","inputSchema":{}}]}"#,
        );
        assert_eq!(known.tool_fields("research"), None);
    }

    #[test]
    fn without_the_capability_no_tool_is_run_as_a_task() {
        let known = UnmodeledFields::default();
        learn_initialize(
            &known,
            r#"{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"list":{}}},"serverInfo":{"name":"s","version":"1"}}"#,
        );
        learn_tools(
            &known,
            r#"{"tools":[{"name":"slow","execution":{"taskSupport":"required"}}]}"#,
        );
        assert!(!known.runs_tool_calls());
        assert_eq!(known.support_of("slow"), TaskSupport::Forbidden);
    }
}
