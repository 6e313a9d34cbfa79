//! [`Tasks`]: the 2025-11-25 tasks `write_report` runs on one connection, and the answers to
//! `tasks/get`, `tasks/result` and `tasks/cancel`.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::answers::{Answer, INVALID_PARAMS, text_result};

/// The time every task says it was created and last updated. This server keeps no clock,
/// and the client does not read it.
const TASK_CLOCK: &str = "2026-01-01T00:00:00Z";

/// The pause the server suggests between two `tasks/get`, in milliseconds.
const POLL_INTERVAL_MS: u64 = 10;

/// The tasks made on one connection, by id. They end with the connection.
#[derive(Debug, Default)]
pub(super) struct Tasks {
    made: u64,
    by_id: HashMap<String, Task>,
}

/// Where one task is.
#[derive(Debug)]
enum Task {
    /// Made, its report not written yet.
    Working { topic: String },
    /// Done, with the call's result.
    Completed(Value),
    /// Cancelled before it was done.
    Cancelled,
}

impl Tasks {
    /// Makes a task that writes a report on `topic`, and describes it.
    pub(super) fn create(&mut self, topic: &str) -> Value {
        self.made += 1;
        let id = format!("report-{}", self.made);
        let topic = topic.to_owned();
        self.by_id.insert(id.clone(), Task::Working { topic });
        describe(&id, "working")
    }

    /// `tasks/get`: the task's status. Its work is one step, done when the client next asks.
    pub(super) fn get(&mut self, params: &Value) -> Answer {
        match self.advance(params) {
            Ok((id, Task::Completed(_))) => Answer::result(describe(&id, "completed")),
            Ok((id, _)) => Answer::result(describe(&id, "cancelled")),
            Err(unknown) => unknown,
        }
    }

    /// `tasks/result`: the call's result, once the task is done.
    pub(super) fn result(&mut self, params: &Value) -> Answer {
        match self.advance(params) {
            Ok((id, Task::Completed(result))) => {
                let mut result = result.clone();
                result["_meta"] = json!({"io.modelcontextprotocol/related-task": {"taskId": id}});
                Answer::result(result)
            }
            Ok((id, _)) => Answer::error(INVALID_PARAMS, format!("task {id} was cancelled")),
            Err(unknown) => unknown,
        }
    }

    /// `tasks/cancel`: cancels a task that is not done yet.
    pub(super) fn cancel(&mut self, params: &Value) -> Answer {
        let Some((id, task)) = self.find(params) else {
            return unknown(params);
        };
        match task {
            Task::Completed(_) => Answer::error(INVALID_PARAMS, format!("task {id} is done")),
            _ => {
                *task = Task::Cancelled;
                Answer::result(describe(&id, "cancelled"))
            }
        }
    }

    /// The task `params` names, its work done if it was still to do; or the error for a task
    /// this connection did not make.
    fn advance(&mut self, params: &Value) -> Result<(String, &Task), Answer> {
        let Some((id, task)) = self.find(params) else {
            return Err(unknown(params));
        };
        if let Task::Working { topic } = task {
            let report = format!("A report on {topic}, written as task {id}.");
            *task = Task::Completed(text_result(&report));
        }
        Ok((id, task))
    }

    /// The task `params` names by its `taskId`, with its id.
    fn find(&mut self, params: &Value) -> Option<(String, &mut Task)> {
        let id = params["taskId"].as_str()?;
        let task = self.by_id.get_mut(id)?;
        Some((id.to_owned(), task))
    }
}

/// The error for a `taskId` this connection did not make.
fn unknown(params: &Value) -> Answer {
    Answer::error(INVALID_PARAMS, format!("no task {}", params["taskId"]))
}

/// A task as 2025-11-25 describes it. Its `ttl` is `null`: it is kept until the connection
/// ends.
fn describe(id: &str, status: &str) -> Value {
    json!({
        "taskId": id,
        "status": status,
        "createdAt": TASK_CLOCK,
        "lastUpdatedAt": TASK_CLOCK,
        "ttl": null,
        "pollInterval": POLL_INTERVAL_MS,
    })
}
