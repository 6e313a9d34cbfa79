//! A tool call: within its bound (after its wait for a slot, when the session limits calls in
//! flight), sent once, sent again on a new connection when it surely did not run, and
//! replayed when it may have run only as the caller's [`CallOptions`] allow; a call the
//! server runs as a task (2025-11-25's or the tasks extension's) is followed to its result.

use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, ServerResult,
};
use toolport_core::{ReadonlyContext, TaskSupport};

use super::McpSession;
use crate::connection::LiveConnection;
use crate::method::Method;
use crate::progress::{ProgressWanted, TaskRoute};
use crate::{CallOptions, CallReplay, SessionError};

impl McpSession {
    /// Calls a tool, bounded by the request timeout (or the call's own
    /// [`CallOptions::timeout`]), on behalf of the caller in `options`. With
    /// [`max_concurrent_calls`](crate::SessionBuilder::max_concurrent_calls), a call past the limit
    /// first waits for a free slot, within the same bound.
    ///
    /// A server-side tool error is a successful `CallToolResult` with `is_error` set. A lost
    /// connection, or a lost answer on a connection that stays up (a 2026-07-28 answer stream
    /// that broke off), is replayed only as [`CallOptions::replay`] allows, as a new request;
    /// otherwise it is [`SessionError::OutcomeUncertain`].
    pub async fn call_tool(
        &self,
        params: CallToolRequestParams,
        options: CallOptions,
    ) -> Result<CallToolResult, SessionError> {
        let method = Method::ToolCall(&params.name);
        let call = async {
            let bound = options.timeout.unwrap_or(self.inner.timeouts.request);
            let Some(slots) = &self.inner.call_slots else {
                return self.call_tool_replaying(&params, options, bound).await;
            };
            let Some((_slot, left)) = slots.take(bound).await else {
                return Err(SessionError::QueueTimeout {
                    target: self.inner.target.clone(),
                    method: method.to_string(),
                    limit: slots.limit().get(),
                    timeout: bound,
                });
            };
            self.call_tool_replaying(&params, options, left)
                .await
                .map_err(|error| match error {
                    // The call waited for its slot before its request waited for an answer.
                    SessionError::RequestTimeout {
                        target,
                        method,
                        timeout,
                        cancelled,
                    } => SessionError::RequestTimeout {
                        target,
                        method,
                        timeout: timeout + (bound - left),
                        cancelled,
                    },
                    other => other,
                })
        };
        self.in_operation(method, call).await
    }

    /// [`call_tool`](Self::call_tool)'s work: the call, once more on a new connection when it
    /// surely did not run, and replayed when it may have run only as `options` allow; each
    /// request within `bound`.
    pub(super) async fn call_tool_replaying(
        &self,
        params: &CallToolRequestParams,
        options: CallOptions,
        bound: Duration,
    ) -> Result<CallToolResult, SessionError> {
        let context = options.context.as_ref();
        let task_route = TaskRoute::default();
        let progress = options.wants_progress().then(|| ProgressWanted {
            routes: self.inner.hub.progress(),
            callback: options.progress.as_ref(),
            extend_to: options.progress_extends_timeout,
            task_route: Some(&task_route),
        });
        let connection = self.connection().await?;
        // What was lost, and the connection to send the call again on, if it is still up.
        let (details, source, still_up) = match self
            .call_once(&connection, params, context, progress, bound)
            .await
        {
            Err(SessionError::ConnectionLost {
                details, source, ..
            }) => {
                self.discard(&connection).await;
                (details, source, None)
            }
            // The connection carries on; only this call's answer is gone.
            Err(SessionError::AnswerLost { details, .. }) => (details, None, Some(connection)),
            Err(SessionError::NotSent { .. }) => {
                // It never ran, so sending it again is safe whatever the tool does.
                self.discard(&connection).await;
                let connection = self.connection().await?;
                return self
                    .call_once(&connection, params, context, progress, bound)
                    .await;
            }
            outcome => return outcome,
        };
        if options.replay != CallReplay::OnConnectionLoss {
            return Err(SessionError::OutcomeUncertain {
                target: self.inner.target.clone(),
                tool: params.name.to_string(),
                details,
                source,
            });
        }
        tracing::info!(target = %self.inner.target, tool = %params.name, "answer lost mid-call; replaying a call marked safe to repeat");
        let connection = match still_up {
            Some(connection) => connection,
            None => self.connection().await?,
        };
        self.call_once(&connection, params, context, progress, bound)
            .await
    }

    async fn call_once(
        &self,
        connection: &LiveConnection,
        params: &CallToolRequestParams,
        context: Option<&ReadonlyContext>,
        progress: Option<ProgressWanted<'_>>,
        bound: Duration,
    ) -> Result<CallToolResult, SessionError> {
        // The rarer paths are boxed, which keeps every call's future small.
        if self.inner.tasks.offered
            && let Some(known) = connection.legacy_tasks()
        {
            if !known.has_listed(&params.name) {
                // A 2025-11-25 server says which tools run as tasks in its listing alone.
                Box::pin(self.all_tool_pages(connection, context)).await?;
            }
            if known.support_of(&params.name) != TaskSupport::Forbidden {
                let call = self.call_as_legacy_task(connection, params, context, progress, bound);
                return Box::pin(call).await;
            }
        }
        let method = Method::ToolCall(&params.name);
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params.clone()));
        match self
            .send_with_progress(connection, method, request, context, progress, bound)
            .await?
        {
            ServerResult::CallToolResult(result) => Ok(result),
            // A result with neither content nor structured content decodes as empty.
            ServerResult::EmptyResult(_) => Ok(CallToolResult::default()),
            ServerResult::CreateTaskResult(created) => {
                let task =
                    self.follow_task(connection, &params.name, created.task, context, progress);
                Box::pin(task).await
            }
            _ => Err(self.unexpected(method)),
        }
    }
}
