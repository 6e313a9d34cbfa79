//! The task tracker's data: tasks, their priority and status, and what `list_tasks` returns.

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

/// One task, as every tool returns it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskList {
    /// The matching tasks, in ID order.
    pub tasks: Vec<Task>,
    /// How many tasks matched.
    pub count: usize,
}
