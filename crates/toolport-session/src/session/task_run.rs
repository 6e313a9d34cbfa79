//! Tool calls a server runs as tasks (2026-07-28's tasks extension, SEP-2663): the session
//! polls `tasks/get` at the server's interval, answers the task's questions through the
//! elicitation handler, and returns the task's result as the call's. The task is cancelled
//! with `tasks/cancel` when it runs past the [`TaskPolicy`](crate::TaskPolicy)'s bound or
//! polls, asks too many rounds of questions, or its caller stops waiting.

use std::collections::HashSet;
use std::time::Duration;

use rmcp::model::{
    CallToolResult, CancelTaskParams, CancelTaskRequest, ClientRequest, ErrorData,
    GetExtensions as _, GetTaskParams, GetTaskRequest, InputRequests, ServerResult, Task,
    TaskPayload, UpdateTaskParams, UpdateTaskRequest,
};
use rmcp::service::{Peer, RoleClient};
use serde_json::Value;
use tokio::time::Instant;
use tokio_util::task::TaskTracker;
use toolport_core::ReadonlyContext;

use super::McpSession;
use crate::SessionError;
use crate::connection::LiveConnection;
use crate::method::Method;
use crate::progress::ProgressWanted;
use crate::request::CANCEL_FLUSH;

/// The pause between polls when the server suggests none.
const DEFAULT_POLL_PAUSE: Duration = Duration::from_secs(1);
/// The shortest pause between polls, whatever the server suggests.
const MIN_POLL_PAUSE: Duration = Duration::from_millis(10);
/// The longest pause between polls, whatever the server suggests.
const MAX_POLL_PAUSE: Duration = Duration::from_secs(30);
/// How long a cancellation sent for a caller who stopped waiting may take.
const DROPPED_CANCEL_BOUND: Duration = Duration::from_secs(10);

impl McpSession {
    /// Follows the task `created`, which the server made to run a call of `tool`, to its end,
    /// and returns its result as the call's.
    pub(super) async fn follow_task(
        &self,
        connection: &LiveConnection,
        tool: &str,
        created: Task,
        context: Option<&ReadonlyContext>,
        progress: Option<ProgressWanted<'_>>,
    ) -> Result<CallToolResult, SessionError> {
        let policy = self.inner.tasks;
        report_status(progress, created.status_message.as_deref());
        let started = Instant::now();
        let deadline = started + policy.timeout;
        let mut task = TaskInFlight::new(self, connection, created.task_id, context);
        tracing::debug!(target = %self.inner.target, tool, task = %task.id, "the call runs as a task");
        let poll = Method::Task {
            request: "tasks/get",
            tool,
        };
        let mut pause = poll_pause(created.poll_interval_ms);
        let mut answered: HashSet<String> = HashSet::new();
        let mut input_rounds = 0;
        for _ in 0..policy.max_polls {
            let polled = self.poll_task(connection, &mut task, tool, pause, deadline, context);
            let Some(answer) = polled.await? else {
                continue;
            };
            let ServerResult::GetTaskResult(polled) = answer else {
                return Err(self.unexpected(poll));
            };
            let state = polled.task;
            pause = poll_pause(state.task.poll_interval_ms);
            report_status(progress, state.task.status_message.as_deref());
            match state.payload {
                TaskPayload::Completed { result } => {
                    task.settled = true;
                    return serde_json::from_value(Value::Object(result))
                        .map_err(|_| self.unexpected(poll));
                }
                TaskPayload::Failed { error } => {
                    task.settled = true;
                    let error: ErrorData = serde_json::from_value(Value::Object(error))
                        .map_err(|_| self.unexpected(poll))?;
                    return Err(SessionError::Rpc {
                        target: self.inner.target.clone(),
                        method: Method::ToolCall(tool).to_string(),
                        error,
                    });
                }
                TaskPayload::Cancelled => {
                    task.settled = true;
                    return Err(SessionError::TaskCancelled {
                        target: self.inner.target.clone(),
                        method: Method::ToolCall(tool).to_string(),
                        details: state.task.status_message,
                    });
                }
                TaskPayload::InputRequired { input_requests } => {
                    // The server repeats a question on every poll until its answer arrives.
                    let asked: InputRequests = input_requests
                        .into_iter()
                        .filter(|(key, _)| !answered.contains(key))
                        .collect();
                    if asked.is_empty() {
                        continue;
                    }
                    input_rounds += 1;
                    let rounds = self.inner.max_input_rounds;
                    if input_rounds > rounds {
                        task.cancel_now().await;
                        return Err(self.too_many_rounds(Method::ToolCall(tool), rounds));
                    }
                    answered.extend(asked.keys().cloned());
                    let responses = self.answer_requests(Method::ToolCall(tool), asked).await?;
                    let update = ClientRequest::UpdateTaskRequest(UpdateTaskRequest::new(
                        UpdateTaskParams::new(task.id.clone(), responses),
                    ));
                    let method = Method::Task {
                        request: "tasks/update",
                        tool,
                    };
                    self.send(connection, method, update, context).await?;
                }
                // Working, or a status this client does not know yet: poll again.
                _ => {}
            }
        }
        task.cancel_now().await;
        let polls = format!("still running after {} polls", policy.max_polls);
        Err(self.task_timed_out(tool, &task.id, started.elapsed(), Some(&polls)))
    }

    /// Waits `pause`, then asks for the state of `task` (`tasks/get`, the same request on both
    /// versions). Past `deadline` the task is cancelled and the call has timed out. `None` when
    /// the answer was lost: a poll only reads, and the next one asks again.
    pub(super) async fn poll_task(
        &self,
        connection: &LiveConnection,
        task: &mut TaskInFlight<'_>,
        tool: &str,
        pause: Duration,
        deadline: Instant,
        context: Option<&ReadonlyContext>,
    ) -> Result<Option<ServerResult>, SessionError> {
        let wake = Instant::now() + pause;
        if wake >= deadline {
            tokio::time::sleep_until(deadline).await;
            task.cancel_now().await;
            let timeout = self.inner.tasks.timeout;
            return Err(self.task_timed_out(tool, &task.id, timeout, None));
        }
        tokio::time::sleep_until(wake).await;
        let request =
            ClientRequest::GetTaskRequest(GetTaskRequest::new(GetTaskParams::new(task.id.clone())));
        let poll = Method::Task {
            request: "tasks/get",
            tool,
        };
        match self.send(connection, poll, request, context).await {
            Err(SessionError::AnswerLost { .. }) => Ok(None),
            answer => answer.map(Some),
        }
    }

    /// The error for a task given up on after `waited`; the server was sent `tasks/cancel`.
    pub(super) fn task_timed_out(
        &self,
        tool: &str,
        task_id: &str,
        waited: Duration,
        why: Option<&str>,
    ) -> SessionError {
        let why = why.map(|why| format!(", {why}")).unwrap_or_default();
        SessionError::RequestTimeout {
            target: self.inner.target.clone(),
            method: format!("{} (task {task_id}{why})", Method::ToolCall(tool)),
            timeout: waited,
            cancelled: true,
        }
    }
}

/// The pause before the next poll: the server's suggested interval, within bounds.
pub(super) fn poll_pause(suggested_ms: Option<u64>) -> Duration {
    suggested_ms
        .map_or(DEFAULT_POLL_PAUSE, Duration::from_millis)
        .clamp(MIN_POLL_PAUSE, MAX_POLL_PAUSE)
}

/// Reports `message`, a followed task's status message, to the progress callback of a call that
/// asked for `progress`, when it is new.
pub(super) fn report_status(progress: Option<ProgressWanted<'_>>, message: Option<&str>) {
    if let Some(wanted) = progress
        && let Some(route) = wanted.task_route
    {
        route.status(message, wanted.callback);
    }
}

/// A task the server runs for a call, until it settles. One left unsettled is cancelled: at
/// once when the session gives up on it, and from a task the session keeps track of when its
/// caller stops waiting.
pub(super) struct TaskInFlight<'a> {
    peer: &'a Peer<RoleClient>,
    pub(super) id: String,
    /// The caller's context, which a transport may need for the cancellation too.
    context: Option<ReadonlyContext>,
    pub(super) settled: bool,
    cancellations: &'a TaskTracker,
}

impl<'a> TaskInFlight<'a> {
    /// The task `id`, which the server runs for a call on `connection` on behalf of the caller
    /// described by `context`.
    pub(super) fn new(
        session: &'a McpSession,
        connection: &'a LiveConnection,
        id: String,
        context: Option<&ReadonlyContext>,
    ) -> Self {
        Self {
            peer: &connection.peer,
            id,
            context: context.cloned(),
            settled: false,
            cancellations: &session.inner.cancellations,
        }
    }

    /// Sends `tasks/cancel` and waits a moment for the server's acknowledgment.
    pub(super) async fn cancel_now(&mut self) {
        self.settled = true;
        let cancelled = self.peer.send_request(self.cancel_request());
        if tokio::time::timeout(CANCEL_FLUSH, cancelled).await.is_err() {
            tracing::debug!(task = %self.id, "tasks/cancel was not acknowledged in time");
        }
    }

    fn cancel_request(&self) -> ClientRequest {
        let mut request = ClientRequest::CancelTaskRequest(CancelTaskRequest::new(
            CancelTaskParams::new(self.id.clone()),
        ));
        if let Some(context) = &self.context {
            request.extensions_mut().insert(context.clone());
        }
        request
    }
}

impl Drop for TaskInFlight<'_> {
    fn drop(&mut self) {
        if self.settled || tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let peer = self.peer.clone();
        let request = self.cancel_request();
        let id = std::mem::take(&mut self.id);
        self.cancellations.spawn(async move {
            let cancelled = peer.send_request(request);
            // A dead transport has nothing left to cancel.
            if tokio::time::timeout(DROPPED_CANCEL_BOUND, cancelled)
                .await
                .is_err()
            {
                tracing::debug!(task = %id, "tasks/cancel was not acknowledged in time");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_poll_interval_is_kept_within_bounds() {
        assert_eq!(poll_pause(None), DEFAULT_POLL_PAUSE);
        assert_eq!(poll_pause(Some(250)), Duration::from_millis(250));
        assert_eq!(poll_pause(Some(0)), MIN_POLL_PAUSE);
        assert_eq!(poll_pause(Some(3_600_000)), MAX_POLL_PAUSE);
    }
}
