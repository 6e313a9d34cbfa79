//! A tool call: sent once, sent again on a new connection when it surely did not run, and
//! replayed when it may have run only as the caller's [`CallOptions`] allow; a call the
//! server runs as a task (2025-11-25's or the tasks extension's) is followed to its result.

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
    /// [`call_tool`](Self::call_tool)'s work: the call, once more on a new connection when it
    /// surely did not run, and replayed when it may have run only as `options` allow.
    pub(super) async fn call_tool_replaying(
        &self,
        params: &CallToolRequestParams,
        options: CallOptions,
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
        let (details, source, still_up) =
            match self.call_once(&connection, params, context, progress).await {
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
                    return self.call_once(&connection, params, context, progress).await;
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
        self.call_once(&connection, params, context, progress).await
    }

    async fn call_once(
        &self,
        connection: &LiveConnection,
        params: &CallToolRequestParams,
        context: Option<&ReadonlyContext>,
        progress: Option<ProgressWanted<'_>>,
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
                let call = self.call_as_legacy_task(connection, params, context, progress);
                return Box::pin(call).await;
            }
        }
        let method = Method::ToolCall(&params.name);
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params.clone()));
        match self
            .send_with_progress(connection, method, request, context, progress)
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
