//! [`TaskBook`]: the task tracker's state, one per server instance.

use crate::model::{Priority, Task, TaskList, TaskStatus};

/// The tasks of one server instance, and the number the next task gets.
///
/// # Examples
///
/// ```
/// use toolport_demo::{Priority, TaskBook, TaskStatus};
///
/// let mut book = TaskBook::seeded();
/// assert_eq!(book.add("Tag v1.2".into(), Priority::High).id, "T-4");
/// assert_eq!(book.list(Some(TaskStatus::Open)).count, 3);
/// assert_eq!(
///     book.complete("T-9").unwrap_err(),
///     "No task with ID T-9. Call list_tasks to see the valid IDs."
/// );
/// ```
#[derive(Debug, Clone)]
pub struct TaskBook {
    tasks: Vec<Task>,
    next_number: u64,
}

impl TaskBook {
    /// The three tasks every session starts with: T-1 "Write the release notes" (normal,
    /// open), T-2 "Fix the login redirect bug" (high, done) and T-3 "Update the API docs"
    /// (low, open). The next task added is T-4.
    pub fn seeded() -> Self {
        let seed = [
            (
                "Write the release notes",
                Priority::Normal,
                TaskStatus::Open,
            ),
            (
                "Fix the login redirect bug",
                Priority::High,
                TaskStatus::Done,
            ),
            ("Update the API docs", Priority::Low, TaskStatus::Open),
        ];
        let tasks: Vec<Task> = (1..)
            .zip(seed)
            .map(|(number, (title, priority, status))| Task {
                id: format!("T-{number}"),
                title: title.to_owned(),
                priority,
                status,
            })
            .collect();
        Self {
            next_number: tasks.len() as u64 + 1,
            tasks,
        }
    }

    /// The tasks with `status`, or all of them, in ID order.
    pub fn list(&self, status: Option<TaskStatus>) -> TaskList {
        let tasks: Vec<Task> = self
            .tasks
            .iter()
            .filter(|task| status.is_none_or(|status| task.status == status))
            .cloned()
            .collect();
        TaskList {
            count: tasks.len(),
            tasks,
        }
    }

    /// Adds an open task and returns it.
    pub fn add(&mut self, title: String, priority: Priority) -> Task {
        let task = Task {
            id: format!("T-{}", self.next_number),
            title,
            priority,
            status: TaskStatus::Open,
        };
        self.next_number += 1;
        self.tasks.push(task.clone());
        task
    }

    /// Marks the task as done and returns it, or says which ID was unknown:
    /// `No task with ID T-9. Call list_tasks to see the valid IDs.`
    pub fn complete(&mut self, task_id: &str) -> Result<Task, String> {
        let task = self
            .tasks
            .iter_mut()
            .find(|task| task.id == task_id)
            .ok_or_else(|| {
                format!("No task with ID {task_id}. Call list_tasks to see the valid IDs.")
            })?;
        task.status = TaskStatus::Done;
        Ok(task.clone())
    }
}
