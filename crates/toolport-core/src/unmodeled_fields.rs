//! [`UnmodeledFields`]: what a server says that rmcp's model leaves out, kept by the
//! transport's decoder for the session: 2025-11-25 tasks, and each listed tool's fields that
//! rmcp's `Tool` has no place for.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

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

/// How many tools' unmodeled fields are kept at most: past it, all are forgotten and the
/// listing being read starts the count again, so a server that keeps renaming its tools cannot
/// grow this without bound.
const MAX_TOOLS_KEPT: usize = 4096;

/// Whether a tool is run as a task, as its `execution.taskSupport` says (2025-11-25).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum TaskSupport {
    /// The tool is never run as a task (also what a tool that says nothing means).
    #[default]
    Forbidden,
    /// The tool may be run as a task.
    Optional,
    /// The tool must be run as a task: a call without one is refused.
    Required,
}

/// What a server said that rmcp's model leaves out, for one connection:
///
/// - **2025-11-25 tasks**: whether the server runs tool calls as tasks (its
///   `capabilities.tasks.requests.tools.call`), and each listed tool's
///   `execution.taskSupport`. rmcp 3.11 models only the tasks extension of 2026-07-28. The
///   session runs such a tool's calls as 2025-11-25 tasks.
/// - **Each listed tool's other fields**: a 2025-11-25 `execution`, and any member a newer
///   server adds, which rmcp's `Tool` drops when it decodes the listing
///   ([`tool_fields`](Self::tool_fields)).
///
/// A transport's [`ServerMessageDecoder`](crate::ServerMessageDecoder) given one with
/// [`with_unmodeled_fields`](crate::ServerMessageDecoder::with_unmodeled_fields) fills it in as
/// it decodes the `initialize` result and each `tools/list` page, and the transport hands it to
/// the session in its [`Connection`](crate::Connection). One belongs to one connection.
///
/// # Examples
///
/// ```
/// use toolport_core::{TaskSupport, UnmodeledFields};
///
/// let known = UnmodeledFields::default();
/// assert!(!known.runs_tool_calls());
/// assert_eq!(known.support_of("anything"), TaskSupport::Forbidden);
/// assert_eq!(known.tool_fields("anything"), None);
/// ```
#[derive(Debug, Default)]
pub struct UnmodeledFields {
    known: Mutex<Known>,
}

#[derive(Debug, Default)]
struct Known {
    runs_tool_calls: bool,
    /// Each listed tool's task support, kept only when the server runs tool calls as tasks.
    by_tool: HashMap<String, TaskSupport>,
    /// Each listed tool's unmodeled fields, for the tools that have any.
    tool_fields: HashMap<String, Map<String, Value>>,
}

impl UnmodeledFields {
    /// Whether the server said it runs tool calls as tasks.
    pub fn runs_tool_calls(&self) -> bool {
        self.lock().runs_tool_calls
    }

    /// What the server's listing said of `tool`: [`TaskSupport::Forbidden`] for a tool it did
    /// not list, or listed without `execution.taskSupport`.
    pub fn support_of(&self, tool: &str) -> TaskSupport {
        self.lock().by_tool.get(tool).copied().unwrap_or_default()
    }

    /// Whether the server's listing named `tool` (with or without `execution.taskSupport`),
    /// for a server that runs tool calls as tasks.
    pub fn has_listed(&self, tool: &str) -> bool {
        self.lock().by_tool.contains_key(tool)
    }

    /// The members of `tool`, as the server's latest listing gave it, that rmcp's `Tool` has
    /// no place for: a 2025-11-25 `execution`, any member a newer server adds, and
    /// `annotations` or `icons` whole when they hold a member rmcp's model drops. `None` when
    /// the listing gave it none, or did not list it.
    pub fn tool_fields(&self, tool: &str) -> Option<Map<String, Value>> {
        self.lock().tool_fields.get(tool).cloned()
    }

    /// Reads the `capabilities.tasks` of an `initialize` result (its JSON text).
    pub(crate) fn learn_initialize(&self, result: &str) {
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
        self.lock().runs_tool_calls = runs_tool_calls;
    }

    /// Reads a `tools/list` page (its JSON text): each tool's unmodeled fields, and its
    /// `execution.taskSupport` if the server runs tool calls as tasks.
    pub(crate) fn learn_tools(&self, result: &str) {
        #[derive(Deserialize)]
        struct Page<'a> {
            #[serde(borrow)]
            tools: Vec<HashMap<String, &'a RawValue>>,
        }
        let Ok(page) = serde_json::from_str::<Page<'_>>(result) else {
            return;
        };
        let mut known = self.lock();
        for members in page.tools {
            let Some(name) = members
                .get("name")
                .and_then(|name| serde_json::from_str::<String>(name.get()).ok())
            else {
                continue;
            };
            if known.runs_tool_calls {
                let support = task_support(members.get("execution").copied());
                known.by_tool.insert(name.clone(), support);
            }
            let fields = unmodeled(&members);
            if fields.is_empty() {
                known.tool_fields.remove(&name);
            } else {
                if known.tool_fields.len() >= MAX_TOOLS_KEPT {
                    known.tool_fields.clear();
                }
                known.tool_fields.insert(name, fields);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        // Plain values, valid even if a holder panicked.
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }
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
        known.learn_initialize(
            r#"{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}},"serverInfo":{"name":"s","version":"1"}}"#,
        );
        known.learn_tools(
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
        known.learn_tools(
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
        known.learn_tools(r#"{"tools":[{"name":"research","inputSchema":{}}]}"#);
        assert_eq!(known.tool_fields("research"), None);
    }

    #[test]
    fn a_server_that_keeps_renaming_its_tools_cannot_grow_what_is_kept_without_bound() {
        let known = UnmodeledFields::default();
        for n in 0..=MAX_TOOLS_KEPT {
            known.learn_tools(&format!(r#"{{"tools":[{{"name":"t{n}","x-extra":{n}}}]}}"#));
        }
        assert!(known.lock().tool_fields.len() <= MAX_TOOLS_KEPT);
        assert_eq!(known.tool_fields("t0"), None);
        let last = known.tool_fields(&format!("t{MAX_TOOLS_KEPT}")).unwrap();
        assert_eq!(last["x-extra"], MAX_TOOLS_KEPT);
    }

    #[test]
    fn without_the_capability_no_tool_is_run_as_a_task() {
        let known = UnmodeledFields::default();
        known.learn_initialize(
            r#"{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"list":{}}},"serverInfo":{"name":"s","version":"1"}}"#,
        );
        known.learn_tools(r#"{"tools":[{"name":"slow","execution":{"taskSupport":"required"}}]}"#);
        assert!(!known.runs_tool_calls());
        assert_eq!(known.support_of("slow"), TaskSupport::Forbidden);
    }
}
