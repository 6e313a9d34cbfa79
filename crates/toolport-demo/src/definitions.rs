//! What the task tracker says about itself: its name, version and instructions, and its three
//! tools (names, descriptions, input and output schemas, annotations) written as JSON.

use serde_json::{Value, json};

/// The server's name in its `initialize` answer.
pub const SERVER_NAME: &str = "toolport-task-tracker";

/// The server's version in its `initialize` answer: this crate's.
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The server's instructions in its `initialize` answer.
pub const INSTRUCTIONS: &str = "A to-do list. Call list_tasks to see the tasks and their IDs.";

/// The JSON Schema dialect every schema here declares.
const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The `tools` array of the task tracker's `tools/list` answer, in name order: `add_task`,
/// `complete_task` (annotated `idempotentHint`) and `list_tasks` (annotated `readOnlyHint`).
/// Each has an input schema and an output schema, and answers with structured content.
///
/// # Examples
///
/// ```
/// let tools = toolport_demo::tool_definitions();
/// let names: Vec<&str> = tools.iter().map(|tool| tool["name"].as_str().unwrap()).collect();
/// assert_eq!(names, ["add_task", "complete_task", "list_tasks"]);
/// assert_eq!(tools[1]["inputSchema"]["properties"]["task_id"]["pattern"], r"^T-\d+$");
/// ```
pub fn tool_definitions() -> Vec<Value> {
    vec![
        json!({
            "name": "add_task",
            "description": "Adds a new open task with the given title and priority \
                            (low, normal or high; default normal) and returns it.",
            "inputSchema": {
                "$schema": DIALECT,
                "required": ["title"],
                "properties": {
                    "title": {"description": "What is to be done.", "type": "string"},
                    "priority": {
                        "description": "How urgent the task is.",
                        "type": "string",
                        "enum": ["low", "normal", "high"],
                        "default": "normal",
                    },
                },
                "type": "object",
            },
            "outputSchema": task_schema(),
        }),
        json!({
            "name": "complete_task",
            "description": "Marks the task with the given ID as done and returns it.",
            "inputSchema": {
                "$schema": DIALECT,
                "required": ["task_id"],
                "properties": {
                    "task_id": {
                        "description": "The ID of the task to mark as done, such as `T-1`.",
                        "type": "string",
                        "pattern": r"^T-\d+$",
                    },
                },
                "type": "object",
            },
            "outputSchema": task_schema(),
            "annotations": {"idempotentHint": true},
        }),
        json!({
            "name": "list_tasks",
            "description": "Lists the tasks, optionally filtered by status (open or done).",
            "inputSchema": {
                "$schema": DIALECT,
                "properties": {
                    "status": {
                        "description": "Only list tasks with this status; \
                                        omit it to list every task.",
                        "type": "string",
                        "enum": ["open", "done"],
                    },
                },
                "type": "object",
            },
            "outputSchema": {
                "$schema": DIALECT,
                "required": ["tasks", "count"],
                "properties": {
                    "tasks": {
                        "description": "The matching tasks, in ID order.",
                        "type": "array",
                        "items": {
                            "description": "One task, as every tool returns it.",
                            "type": "object",
                            "properties": task_properties(),
                            "required": TASK_REQUIRED,
                        },
                    },
                    "count": {
                        "description": "How many tasks matched.",
                        "type": "integer",
                        "format": "uint",
                        "minimum": 0,
                    },
                },
                "type": "object",
            },
            "annotations": {"readOnlyHint": true},
        }),
    ]
}

/// The fields every task has.
const TASK_REQUIRED: [&str; 4] = ["id", "title", "priority", "status"];

/// The output schema of the tools that return one task.
fn task_schema() -> Value {
    json!({
        "$schema": DIALECT,
        "required": TASK_REQUIRED,
        "properties": task_properties(),
        "type": "object",
    })
}

/// The properties of a task.
fn task_properties() -> Value {
    json!({
        "id": {"description": "The task's ID, such as `T-1`.", "type": "string"},
        "title": {"description": "What is to be done.", "type": "string"},
        "priority": {
            "description": "How urgent the task is.",
            "type": "string",
            "enum": ["low", "normal", "high"],
        },
        "status": {
            "description": "Whether the task is open or done.",
            "type": "string",
            "enum": ["open", "done"],
        },
    })
}
