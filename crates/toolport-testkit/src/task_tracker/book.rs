//! [`TaskBook`]: the task tracker's state, one per server instance.

use super::model::{Priority, Task, TaskList, TaskStatus};

/// The tasks of one server instance, and the number the next task gets.
#[derive(Debug)]
pub(super) struct TaskBook {
    tasks: Vec<Task>,
    next_number: u64,
}

impl TaskBook {
    /// The three tasks every session starts with.
    pub(super) fn seeded() -> Self {
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
        let mut book = Self {
            tasks: Vec::new(),
            next_number: 1,
        };
        for (title, priority, status) in seed {
            book.add(title.to_owned(), priority).status = status;
        }
        book
    }

    /// The tasks with `status`, or all of them.
    pub(super) fn list(&self, status: Option<TaskStatus>) -> TaskList {
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
    pub(super) fn add(&mut self, title: String, priority: Priority) -> &mut Task {
        let id = format!("T-{}", self.next_number);
        self.next_number += 1;
        self.tasks.push(Task {
            id,
            title,
            priority,
            status: TaskStatus::Open,
        });
        self.tasks.last_mut().expect("a task was just pushed")
    }

    /// Marks the task as done and returns it, or says which ID was unknown.
    pub(super) fn complete(&mut self, task_id: &str) -> Result<Task, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_continue_after_the_seed() {
        let mut book = TaskBook::seeded();
        assert_eq!(book.add("a".into(), Priority::Low).id, "T-4");
        assert_eq!(book.add("b".into(), Priority::Low).id, "T-5");
    }

    #[test]
    fn filters_by_status() {
        let book = TaskBook::seeded();
        assert_eq!(book.list(Some(TaskStatus::Done)).count, 1);
        assert_eq!(book.list(Some(TaskStatus::Open)).count, 2);
        assert_eq!(book.list(None).count, 3);
    }
}
