//! [`TaskBook::call`]: one `tools/call`, from the tool's name and arguments to its result.

use std::fmt;

use serde::Deserialize;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::TaskBook;
use crate::model::{Priority, TaskStatus};

/// A `tools/call` named a tool the task tracker does not have. A server answers it with the
/// JSON-RPC error `-32602` (invalid params) and this message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTool {
    /// The name that was asked for.
    pub name: String,
}

impl UnknownTool {
    /// The JSON-RPC error code a server answers with.
    pub const CODE: i32 = -32602;
}

impl fmt::Display for UnknownTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool not found: `{}`", self.name)
    }
}

impl std::error::Error for UnknownTool {}

/// The arguments of `list_tasks`.
#[derive(Debug, Deserialize)]
struct ListTasksParams {
    #[serde(default)]
    status: Option<TaskStatus>,
}

/// The arguments of `add_task`.
#[derive(Debug, Deserialize)]
struct AddTaskParams {
    title: String,
    #[serde(default)]
    priority: Priority,
}

/// The arguments of `complete_task`.
#[derive(Debug, Deserialize)]
struct CompleteTaskParams {
    task_id: String,
}

impl TaskBook {
    /// Runs the tool `name` with `arguments` and returns its `CallToolResult` as JSON: the
    /// structured content and its text, or a tool error (`isError: true`) whose text says what
    /// went wrong (an unknown task ID, arguments that do not fit the input schema), for the
    /// model to read and try again.
    ///
    /// # Errors
    ///
    /// [`UnknownTool`] when `name` is none of the three tools.
    ///
    /// # Examples
    ///
    /// ```
    /// use serde_json::json;
    /// use toolport_demo::TaskBook;
    ///
    /// let mut book = TaskBook::seeded();
    /// let arguments = json!({"title": "Tag v1.2"}).as_object().unwrap().clone();
    /// let result = book.call("add_task", arguments).unwrap();
    /// assert_eq!(result["structuredContent"]["id"], "T-4");
    /// assert_eq!(result["isError"], false);
    /// ```
    pub fn call(
        &mut self,
        name: &str,
        arguments: Map<String, Value>,
    ) -> Result<Value, UnknownTool> {
        let result = match name {
            "list_tasks" => {
                parse(arguments).map(|params: ListTasksParams| structured(self.list(params.status)))
            }
            "add_task" => parse(arguments)
                .map(|params: AddTaskParams| structured(self.add(params.title, params.priority))),
            "complete_task" => parse(arguments).map(|params: CompleteTaskParams| {
                self.complete(&params.task_id)
                    .map_or_else(|message| tool_error(&message), structured)
            }),
            _ => {
                return Err(UnknownTool {
                    name: name.to_owned(),
                });
            }
        };
        Ok(result.unwrap_or_else(|message| tool_error(&message)))
    }
}

/// The tool's parameters, or the text of the tool error that says why they do not fit.
fn parse<T: DeserializeOwned>(arguments: Map<String, Value>) -> Result<T, String> {
    serde_json::from_value(Value::Object(arguments))
        .map_err(|error| format!("failed to deserialize parameters: {error}"))
}

/// A successful result: the value as structured content, and as its JSON text for clients that
/// read only text.
fn structured(value: impl Serialize) -> Value {
    match serde_json::to_value(value) {
        Ok(value) => json!({
            "content": [{"type": "text", "text": value.to_string()}],
            "structuredContent": value,
            "isError": false,
        }),
        Err(error) => tool_error(&error.to_string()),
    }
}

/// A tool error with one text part.
fn tool_error(message: &str) -> Value {
    json!({"content": [{"type": "text", "text": message}], "isError": true})
}
