//! [`SessionService`]: the innermost service of the call path, which sends each [`ToolCall`]
//! as `tools/call` on the toolset's session and checks the answer's structured content.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use rmcp::model::{CallToolRequestParams, CallToolResult};
use std::sync::Arc;

use toolport_session::CallOptions;

use crate::{ToolCall, ToolError, ToolSession};

/// Sends each [`ToolCall`] as `tools/call` on a session, under the tool's server-side name,
/// within the call's own [`timeout`](ToolCall::timeout) or else the session's request bound,
/// with the call's replay rule, `_meta` and the caller's context; a call that times out is sent again as many times as its `timeout_retries` say.
/// The answer's structured content is checked against the tool's output schema, as the
/// toolset's [`SchemaChecks`](crate::SchemaChecks) say, before any layer sees it
/// ([`ToolError::InvalidOutput`]). It is always ready: requests run concurrently on one
/// session.
///
/// A toolset puts the layers of [`McpToolsetBuilder::layer`](crate::McpToolsetBuilder::layer)
/// around it; it is public so that a stack of layers can be tested on its own.
#[derive(Debug, Clone)]
pub struct SessionService {
    session: Arc<dyn ToolSession>,
}

impl SessionService {
    /// Sends calls on `session`.
    pub fn new(session: Arc<dyn ToolSession>) -> Self {
        Self { session }
    }
}

impl tower::Service<ToolCall> for SessionService {
    type Response = CallToolResult;
    type Error = ToolError;
    type Future = Pin<Box<dyn Future<Output = Result<CallToolResult, ToolError>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), ToolError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut call: ToolCall) -> Self::Future {
        let session = self.session.clone();
        Box::pin(async move {
            let mut params = CallToolRequestParams::new(call.tool.name.clone());
            params.arguments = call.arguments.take();
            params.meta = call.meta.take();
            let options = CallOptions::default()
                .replay(call.replay)
                .timeout(call.timeout)
                .context(call.context.take());
            let mut attempt = 0;
            let result = loop {
                match session.call_tool(params.clone(), options.clone()).await {
                    Err(error) if attempt < call.timeout_retries && error.is_timeout() => {
                        attempt += 1;
                        let tool = &call.name;
                        tracing::info!(
                            tool,
                            attempt,
                            "sending a timed-out call again, with its idempotency key"
                        );
                    }
                    result => break result?,
                }
            };
            match call.output_problems(&result) {
                None => Ok(result),
                Some(reason) => Err(ToolError::InvalidOutput {
                    tool: call.name,
                    reason,
                    result: Box::new(result),
                }),
            }
        })
    }
}
