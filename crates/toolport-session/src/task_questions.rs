//! [`TaskQuestions`]: the questions each 2025-11-25 task asks while the session follows it,
//! counted against the bound on rounds of input. Such a task asks with an ordinary
//! `elicitation/create` that names it in `_meta` (`io.modelcontextprotocol/related-task`), so
//! the count is kept where those requests arrive, and the task's follower hears when it is past
//! the bound.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::JsonObject;
use tokio::sync::Notify;

use crate::lock::lock;

/// The `_meta` key by which a server's request names the task it belongs to.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// The tasks a session follows now, by id, each with its count of questions.
#[derive(Debug, Default)]
pub(crate) struct TaskQuestions {
    followed: Mutex<HashMap<String, Arc<Asked>>>,
}

/// One task's questions.
#[derive(Debug)]
struct Asked {
    /// How many questions it may ask.
    bound: usize,
    /// How many it has asked.
    count: AtomicUsize,
    /// Told once the task asks past `bound`; it keeps the notice until the follower waits.
    past_bound: Notify,
}

impl TaskQuestions {
    /// Starts counting the questions of the task `task_id`, up to `bound`. The count ends when
    /// the returned guard is dropped.
    pub(crate) fn follow(self: &Arc<Self>, task_id: &str, bound: usize) -> FollowedTask {
        let asked = Arc::new(Asked {
            bound,
            count: AtomicUsize::new(0),
            past_bound: Notify::new(),
        });
        self.lock().insert(task_id.to_owned(), asked.clone());
        FollowedTask {
            questions: self.clone(),
            task_id: task_id.to_owned(),
            asked,
        }
    }

    /// Counts a question whose request carried `meta`, and says whether it may be put to the
    /// handler: a question of no followed task always may, and one past its task's bound may
    /// not (its follower is told, and cancels the task).
    pub(crate) fn admit(&self, meta: &JsonObject) -> bool {
        let Some(task_id) = meta
            .get(RELATED_TASK)
            .and_then(|related| related.get("taskId"))
            .and_then(|id| id.as_str())
        else {
            return true;
        };
        let Some(asked) = self.lock().get(task_id).cloned() else {
            return true;
        };
        let count = asked.count.fetch_add(1, Ordering::SeqCst) + 1;
        if count > asked.bound {
            asked.past_bound.notify_one();
            return false;
        }
        true
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Asked>>> {
        lock(&self.followed)
    }
}

/// The count of one task's questions, kept while this lives.
#[derive(Debug)]
pub(crate) struct FollowedTask {
    questions: Arc<TaskQuestions>,
    task_id: String,
    asked: Arc<Asked>,
}

impl FollowedTask {
    /// Done once the task has asked more questions than its bound.
    pub(crate) async fn past_bound(&self) {
        self.asked.past_bound.notified().await;
    }
}

impl Drop for FollowedTask {
    fn drop(&mut self) {
        self.questions.lock().remove(&self.task_id);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::json;

    use super::*;

    fn meta(task_id: &str) -> JsonObject {
        let meta = json!({ RELATED_TASK: { "taskId": task_id } });
        meta.as_object().cloned().unwrap_or_default()
    }

    #[tokio::test]
    async fn a_task_is_told_once_it_asks_past_its_bound() {
        let questions = Arc::new(TaskQuestions::default());
        let followed = questions.follow("t-1", 2);
        assert!(questions.admit(&meta("t-1")));
        assert!(questions.admit(&meta("t-1")));
        let early = tokio::time::timeout(Duration::from_millis(20), followed.past_bound()).await;
        assert!(early.is_err(), "two questions are within a bound of two");

        assert!(!questions.admit(&meta("t-1")));
        tokio::time::timeout(Duration::from_secs(5), followed.past_bound())
            .await
            .expect("the third question is past the bound");
    }

    #[test]
    fn questions_of_other_tasks_and_of_none_are_not_counted() {
        let questions = Arc::new(TaskQuestions::default());
        let _followed = questions.follow("t-1", 0);
        assert!(questions.admit(&meta("t-2")));
        assert!(questions.admit(&JsonObject::new()));
        assert!(!questions.admit(&meta("t-1")));
    }

    #[test]
    fn a_task_no_longer_followed_is_not_counted() {
        let questions = Arc::new(TaskQuestions::default());
        drop(questions.follow("t-1", 0));
        assert!(questions.admit(&meta("t-1")));
    }
}
