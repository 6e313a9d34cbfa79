//! [`UnmodeledFields`]: what a server says that rmcp's model leaves out, kept by the
//! transport's decoder for the session: 2025-11-25 tasks, and each listed tool's fields that
//! rmcp's `Tool` has no place for.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::{Map, Value};

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
/// A transport's decoder (`toolport_codec::ServerMessageDecoder`, given one with its
/// `with_unmodeled_fields`) fills it in as it decodes the `initialize` result and each
/// `tools/list` page, through [`record_runs_tool_calls`](Self::record_runs_tool_calls) and
/// [`record_listed_tools`](Self::record_listed_tools), and the transport hands it to the
/// session in its [`Connection`](crate::Connection). One belongs to one connection.
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

    /// Records whether the server runs tool calls as tasks: whether its `initialize` result
    /// has `capabilities.tasks.requests.tools.call` (2025-11-25).
    pub fn record_runs_tool_calls(&self, runs_tool_calls: bool) {
        self.lock().runs_tool_calls = runs_tool_calls;
    }

    /// Records the tools of one `tools/list` page, in the order listed: each tool's name, its
    /// `execution.taskSupport`, and its members that rmcp's `Tool` has no place for (see
    /// [`tool_fields`](Self::tool_fields)). The task support is kept only when the server runs
    /// tool calls as tasks ([`runs_tool_calls`](Self::runs_tool_calls)); a tool without
    /// unmodeled fields forgets those of an earlier listing. At most 4,096 tools' fields are
    /// kept: past it, all are forgotten and the count starts again, so a server that keeps
    /// renaming its tools cannot grow this without bound.
    pub fn record_listed_tools(
        &self,
        tools: impl IntoIterator<Item = (String, TaskSupport, Map<String, Value>)>,
    ) {
        let mut known = self.lock();
        for (name, support, fields) in tools {
            if known.runs_tool_calls {
                known.by_tool.insert(name.clone(), support);
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_that_keeps_renaming_its_tools_cannot_grow_what_is_kept_without_bound() {
        let known = UnmodeledFields::default();
        for n in 0..=MAX_TOOLS_KEPT {
            let fields = Map::from_iter([("x-extra".to_owned(), Value::from(n))]);
            known.record_listed_tools([(format!("t{n}"), TaskSupport::Forbidden, fields)]);
        }
        assert!(known.lock().tool_fields.len() <= MAX_TOOLS_KEPT);
        assert_eq!(known.tool_fields("t0"), None);
        let last = known.tool_fields(&format!("t{MAX_TOOLS_KEPT}")).unwrap();
        assert_eq!(last["x-extra"], MAX_TOOLS_KEPT);
    }

    #[test]
    fn task_support_is_kept_only_for_a_server_that_runs_tool_calls_as_tasks() {
        let known = UnmodeledFields::default();
        let slow = || ("slow".to_owned(), TaskSupport::Required, Map::new());
        known.record_listed_tools([slow()]);
        assert!(!known.has_listed("slow"));
        assert_eq!(known.support_of("slow"), TaskSupport::Forbidden);
        known.record_runs_tool_calls(true);
        known.record_listed_tools([slow()]);
        assert!(known.runs_tool_calls() && known.has_listed("slow"));
        assert_eq!(known.support_of("slow"), TaskSupport::Required);
    }
}
