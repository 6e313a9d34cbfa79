//! The task tracker's data: tasks, their priority and status, and each tool's parameters.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

/// Whether a task is still to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskStatus {
    /// Still to do.
    Open,
    /// Completed.
    Done,
}

/// How urgent a task is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// Can wait.
    Low,
    /// The default.
    #[default]
    Normal,
    /// Do it first.
    High,
}

// The two enums are written by hand so that their schemas are a plain inline
// `{"type": "string", "enum": [...]}`, which every client and model understands, instead of
// the `oneOf` of `const`s under `$defs` that the derive makes of documented variants.

impl JsonSchema for TaskStatus {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "TaskStatus".into()
    }

    fn json_schema(_generator: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": ["open", "done"] })
    }
}

impl JsonSchema for Priority {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Priority".into()
    }

    fn json_schema(_generator: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": ["low", "normal", "high"] })
    }
}

/// One task, as every tool returns it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(inline)]
pub struct Task {
    /// The task's ID, such as `T-1`.
    pub id: String,
    /// What is to be done.
    pub title: String,
    /// How urgent the task is.
    pub priority: Priority,
    /// Whether the task is open or done.
    pub status: TaskStatus,
}

/// What `list_tasks` returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TaskList {
    /// The matching tasks, in ID order.
    pub tasks: Vec<Task>,
    /// How many tasks matched.
    pub count: usize,
}

/// The arguments of `list_tasks`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ListTasksParams {
    /// Only list tasks with this status; omit it to list every task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "TaskStatus")]
    pub status: Option<TaskStatus>,
}

/// The arguments of `add_task`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AddTaskParams {
    /// What is to be done.
    pub title: String,
    /// How urgent the task is.
    #[serde(default)]
    pub priority: Priority,
}

/// The arguments of `complete_task`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CompleteTaskParams {
    /// The ID of the task to mark as done, such as `T-1`.
    #[schemars(regex(pattern = r"^T-\d+$"))]
    pub task_id: String,
}
