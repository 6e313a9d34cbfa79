//! [`LegacyTasks`]: what a 2025-11-25 server says about running tool calls as tasks, which
//! rmcp's model leaves out, kept by the transport's decoder for the session.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Deserialize;

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

/// What a 2025-11-25 server said about tasks: whether it runs tool calls as tasks (its
/// `capabilities.tasks.requests.tools.call`), and each listed tool's `execution.taskSupport`.
///
/// rmcp 3.11 models only the tasks extension of 2026-07-28, and its decoding drops these
/// fields. A transport's [`ServerMessageDecoder`](crate::ServerMessageDecoder) given one with
/// [`with_legacy_tasks`](crate::ServerMessageDecoder::with_legacy_tasks) fills it in as it
/// decodes the `initialize` result and each `tools/list` page, and the transport hands it to
/// the session in its [`Connection`](crate::Connection), which then runs such a tool's calls
/// as 2025-11-25 tasks. One belongs to one connection.
///
/// # Examples
///
/// ```
/// use toolport_core::{LegacyTasks, TaskSupport};
///
/// let known = LegacyTasks::default();
/// assert!(!known.runs_tool_calls());
/// assert_eq!(known.support_of("anything"), TaskSupport::Forbidden);
/// ```
#[derive(Debug, Default)]
pub struct LegacyTasks {
    known: Mutex<Known>,
}

#[derive(Debug, Default)]
struct Known {
    runs_tool_calls: bool,
    by_tool: HashMap<String, TaskSupport>,
}

impl LegacyTasks {
    /// Whether the server said it runs tool calls as tasks.
    pub fn runs_tool_calls(&self) -> bool {
        self.lock().runs_tool_calls
    }

    /// What the server's listing said of `tool`: [`TaskSupport::Forbidden`] for a tool it did
    /// not list, or listed without `execution.taskSupport`.
    pub fn support_of(&self, tool: &str) -> TaskSupport {
        self.lock().by_tool.get(tool).copied().unwrap_or_default()
    }

    /// Whether the server's listing named `tool` (with or without `execution.taskSupport`).
    pub fn has_listed(&self, tool: &str) -> bool {
        self.lock().by_tool.contains_key(tool)
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

    /// Reads each tool's `execution.taskSupport` from a `tools/list` page (its JSON text), if
    /// the server runs tool calls as tasks at all.
    pub(crate) fn learn_tools(&self, result: &str) {
        #[derive(Deserialize)]
        struct Page {
            tools: Vec<Listed>,
        }
        #[derive(Deserialize)]
        struct Listed {
            name: String,
            execution: Option<Execution>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Execution {
            task_support: Option<String>,
        }
        if !self.runs_tool_calls() {
            return;
        }
        let Ok(page) = serde_json::from_str::<Page>(result) else {
            return;
        };
        let mut known = self.lock();
        for tool in page.tools {
            let support = match tool.execution.and_then(|e| e.task_support).as_deref() {
                Some("required") => TaskSupport::Required,
                Some("optional") => TaskSupport::Optional,
                _ => TaskSupport::Forbidden,
            };
            known.by_tool.insert(tool.name, support);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Known> {
        // Plain values, valid even if a holder panicked.
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_that_runs_tool_calls_as_tasks_says_which_tools() {
        let known = LegacyTasks::default();
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
    fn without_the_capability_no_tool_is_run_as_a_task() {
        let known = LegacyTasks::default();
        known.learn_initialize(
            r#"{"protocolVersion":"2025-11-25","capabilities":{"tasks":{"list":{}}},"serverInfo":{"name":"s","version":"1"}}"#,
        );
        known.learn_tools(r#"{"tools":[{"name":"slow","execution":{"taskSupport":"required"}}]}"#);
        assert!(!known.runs_tool_calls());
        assert_eq!(known.support_of("slow"), TaskSupport::Forbidden);
    }
}
