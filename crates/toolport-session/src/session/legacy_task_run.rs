//! Tool calls run as 2025-11-25 tasks: for a tool the server lists with
//! `execution.taskSupport`, the call carries a `task` parameter, the session polls `tasks/get`
//! at the server's `pollInterval`, and `tasks/result` brings the result. A question the task
//! asks arrives as an ordinary `elicitation/create` while `tasks/result` waits, and goes to the
//! elicitation handler; one past the bound on rounds (counted per task, by the task id the
//! request names) is answered `cancel`, and the task is cancelled. The other bounds and the
//! cancellation are those of the tasks extension (`task_run.rs`).
//!
//! rmcp 3.11 models only the extension, so these messages go out as custom requests, and the
//! answers are read from their JSON.

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, CustomRequest, CustomResult,
    ServerResult, TaskStatus,
};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::time::Instant;
use toolport_core::ReadonlyContext;

use super::McpSession;
use super::task_run::{TaskInFlight, poll_pause, report_status};
use crate::SessionError;
use crate::connection::LiveConnection;
use crate::method::Method;
use crate::progress::ProgressWanted;

/// A task as 2025-11-25 describes it, in a `tools/call` answer (under `task`) or a `tasks/get`
/// answer.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LegacyTask {
    task_id: String,
    status: String,
    status_message: Option<String>,
    /// Milliseconds.
    poll_interval: Option<u64>,
}

/// A `tools/call` answer that made a task.
#[derive(Deserialize)]
struct Created {
    task: LegacyTask,
}

impl McpSession {
    /// Calls `params` as a 2025-11-25 task (its `tools/call` within `bound`), and follows the
    /// task to its result. A server that
    /// answers at once, without a task, is answered as any call.
    pub(super) async fn call_as_legacy_task(
        &self,
        connection: &LiveConnection,
        params: &CallToolRequestParams,
        context: Option<&ReadonlyContext>,
        progress: Option<ProgressWanted<'_>>,
        bound: Duration,
    ) -> Result<CallToolResult, SessionError> {
        let tool = params.name.as_ref();
        let call = Method::ToolCall(tool);
        let policy = self.inner.tasks;
        let Ok(Value::Object(mut arguments)) = serde_json::to_value(params) else {
            return Err(self.unexpected(call));
        };
        let ttl = u64::try_from(policy.timeout.as_millis()).unwrap_or(u64::MAX);
        arguments.insert("task".to_owned(), json!({ "ttl": ttl }));
        let request = custom_request("tools/call", Value::Object(arguments));
        let sent = self.send_with_progress(connection, call, request, context, progress, bound);
        let created = match sent.await? {
            ServerResult::CallToolResult(result) => return Ok(result),
            ServerResult::EmptyResult(_) => return Ok(CallToolResult::default()),
            ServerResult::CustomResult(CustomResult(answer)) => {
                serde_json::from_value::<Created>(answer)
                    .map_err(|_| self.unexpected(call))?
                    .task
            }
            _ => return Err(self.unexpected(call)),
        };
        let started = Instant::now();
        let mut task = TaskInFlight::new(self, connection, created.task_id.clone(), context);
        tracing::debug!(target = %self.inner.target, tool, task = %task.id, "the call runs as a 2025-11-25 task");
        let rounds = self.inner.max_input_rounds;
        let questions = self.inner.hub.task_questions().follow(&task.id, rounds);
        tokio::select! {
            biased;
            () = questions.past_bound() => {}
            outcome = self.follow_legacy_task(connection, &mut task, tool, created, started, context, progress) => return outcome,
        }
        task.cancel_now().await;
        Err(self.too_many_rounds(call, rounds))
    }

    /// Polls `task`, which runs a call of `tool` since `started` (as `created` first said),
    /// until it ends or needs input, then waits for its result; cancels it past the
    /// [`TaskPolicy`](crate::TaskPolicy)'s bounds.
    #[expect(
        clippy::too_many_arguments,
        reason = "the task, its call and its caller's context and progress, each needed here"
    )]
    async fn follow_legacy_task(
        &self,
        connection: &LiveConnection,
        task: &mut TaskInFlight<'_>,
        tool: &str,
        created: LegacyTask,
        started: Instant,
        context: Option<&ReadonlyContext>,
        progress: Option<ProgressWanted<'_>>,
    ) -> Result<CallToolResult, SessionError> {
        let policy = self.inner.tasks;
        report_status(progress, created.status_message.as_deref());
        let mut interval = created.poll_interval;
        let deadline = started + policy.timeout;
        let poll = Method::Task {
            request: "tasks/get",
            tool,
        };
        for _ in 0..policy.max_polls {
            let pause = poll_pause(interval);
            let polled = self.poll_task(connection, task, tool, pause, deadline, context);
            let Some(answer) = polled.await? else {
                continue;
            };
            let (status, message) = match answer {
                // rmcp reads a working or cancelled task as the extension's, without its
                // interval: the last one given still holds.
                ServerResult::GetTaskResult(state) => match state.task.task.status {
                    TaskStatus::Cancelled => ("cancelled".to_owned(), None),
                    _ => ("working".to_owned(), None),
                },
                ServerResult::CustomResult(CustomResult(answer)) => {
                    let state: LegacyTask =
                        serde_json::from_value(answer).map_err(|_| self.unexpected(poll))?;
                    interval = state.poll_interval.or(interval);
                    report_status(progress, state.status_message.as_deref());
                    (state.status, state.status_message)
                }
                _ => return Err(self.unexpected(poll)),
            };
            match status.as_str() {
                "completed" | "failed" | "input_required" => {
                    // The result waits until the task ends, answering its questions meanwhile.
                    return self
                        .legacy_task_result(connection, task, tool, deadline, context)
                        .await;
                }
                "cancelled" => {
                    task.settled = true;
                    return Err(SessionError::TaskCancelled {
                        target: self.inner.target.clone(),
                        method: Method::ToolCall(tool).to_string(),
                        details: message,
                    });
                }
                _ => {}
            }
        }
        task.cancel_now().await;
        let polls = format!("still running after {} polls", policy.max_polls);
        Err(self.task_timed_out(tool, &task.id, started.elapsed(), Some(&polls)))
    }

    /// `tasks/result` of `task`, which waits, up to `deadline`, until the task has ended.
    async fn legacy_task_result(
        &self,
        connection: &LiveConnection,
        task: &mut TaskInFlight<'_>,
        tool: &str,
        deadline: Instant,
        context: Option<&ReadonlyContext>,
    ) -> Result<CallToolResult, SessionError> {
        let method = Method::Task {
            request: "tasks/result",
            tool,
        };
        let request = custom_request("tasks/result", json!({ "taskId": task.id }));
        let left = deadline.saturating_duration_since(Instant::now());
        let outcome = self
            .send_within(connection, method, request, context, None, left)
            .await;
        let answer = match outcome {
            Err(SessionError::RequestTimeout { .. }) => {
                task.cancel_now().await;
                return Err(self.task_timed_out(tool, &task.id, self.inner.tasks.timeout, None));
            }
            Err(SessionError::Rpc { error, target, .. }) => {
                // The task failed with this error, as the call would have.
                task.settled = true;
                return Err(SessionError::Rpc {
                    target,
                    method: Method::ToolCall(tool).to_string(),
                    error,
                });
            }
            other => other?,
        };
        task.settled = true;
        match answer {
            ServerResult::CallToolResult(result) => Ok(result),
            ServerResult::EmptyResult(_) => Ok(CallToolResult::default()),
            _ => Err(self.unexpected(method)),
        }
    }
}

/// A request rmcp has no type for: `method`, with `params` as they go on the wire.
fn custom_request(method: &str, params: Value) -> ClientRequest {
    ClientRequest::CustomRequest(CustomRequest::new(method.to_owned(), Some(params)))
}
