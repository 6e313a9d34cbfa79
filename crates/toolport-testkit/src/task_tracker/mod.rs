//! [`TaskTracker`]: the fixture MCP server with `list_tasks`, `add_task` and `complete_task`.

mod book;
mod model;

use std::sync::{Arc, Mutex};

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::{Json, ServerHandler, tool, tool_handler, tool_router};

use self::book::TaskBook;
pub use self::model::{
    AddTaskParams, CompleteTaskParams, ListTasksParams, Priority, Task, TaskList, TaskStatus,
};

/// A to-do list MCP server named `toolport-task-tracker`, with three tools that all return
/// structured content and declare output schemas:
///
/// - `list_tasks(status?)` returns `{tasks, count}` (read-only);
/// - `add_task(title, priority = "normal")` returns the new [`Task`];
/// - `complete_task(task_id)` returns the completed [`Task`] (idempotent). An unknown ID is a
///   tool error whose text is `No task with ID T-9. Call list_tasks to see the valid IDs.`
///
/// Every instance starts with T-1 "Write the release notes" (normal, open), T-2 "Fix the login
/// redirect bug" (high, done) and T-3 "Update the API docs" (low, open); new tasks get T-4,
/// T-5 and so on. Clones share their tasks, so make one instance per session.
///
/// # Examples
///
/// ```
/// use rmcp::ServiceExt;
/// use toolport_testkit::TaskTracker;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let (_client_side, server_side) = tokio::io::duplex(64 * 1024);
/// // Serving waits for the client's `initialize`; a connector normally runs this on a task.
/// tokio::spawn(async move {
///     if let Ok(running) = TaskTracker::new().serve(server_side).await {
///         let _ = running.waiting().await;
///     }
/// });
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct TaskTracker {
    book: Arc<Mutex<TaskBook>>,
    tool_router: ToolRouter<Self>,
}

impl TaskTracker {
    /// The server's name in its `initialize` response.
    pub const NAME: &'static str = "toolport-task-tracker";

    /// A tracker holding the three seed tasks.
    pub fn new() -> Self {
        Self {
            book: Arc::new(Mutex::new(TaskBook::seeded())),
            tool_router: Self::tool_router(),
        }
    }

    fn book(&self) -> std::sync::MutexGuard<'_, TaskBook> {
        // A panic while holding the lock cannot leave the book half-written, so go on.
        self.book
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Default for TaskTracker {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_router(router = tool_router)]
impl TaskTracker {
    #[tool(
        description = "Lists the tasks, optionally filtered by status (open or done).",
        annotations(read_only_hint = true)
    )]
    async fn list_tasks(&self, Parameters(params): Parameters<ListTasksParams>) -> Json<TaskList> {
        Json(self.book().list(params.status))
    }

    #[tool(
        description = "Adds a new open task with the given title and priority \
                          (low, normal or high; default normal) and returns it."
    )]
    async fn add_task(&self, Parameters(params): Parameters<AddTaskParams>) -> Json<Task> {
        Json(self.book().add(params.title, params.priority).clone())
    }

    #[tool(
        description = "Marks the task with the given ID as done and returns it.",
        annotations(idempotent_hint = true)
    )]
    async fn complete_task(
        &self,
        Parameters(params): Parameters<CompleteTaskParams>,
    ) -> Result<Json<Task>, String> {
        self.book().complete(&params.task_id).map(Json)
    }
}

#[tool_handler(
    router = self.tool_router,
    name = "toolport-task-tracker",
    instructions = "A to-do list. Call list_tasks to see the tasks and their IDs."
)]
impl ServerHandler for TaskTracker {}
