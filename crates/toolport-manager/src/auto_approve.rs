//! [`AutoApproved`]: the before-call hook of one server, which lets the tools of its
//! `autoApprove` list through and sends every other call to the manager's hook.

use std::sync::Arc;

use toolport_tools::{BeforeCall, Decision, ToolCall};

/// One server's `autoApprove` list in front of the manager's before-call hook.
pub(crate) struct AutoApproved {
    /// The tools called without asking, by the server's names.
    pub(crate) tools: Vec<String>,
    /// The hook that decides about every other call.
    pub(crate) hook: Arc<dyn BeforeCall>,
}

#[async_trait::async_trait]
impl BeforeCall for AutoApproved {
    async fn before(&self, call: &ToolCall) -> Decision {
        let server_name = call.tool.name.as_ref();
        if self.tools.iter().any(|tool| tool == server_name) {
            return Decision::Approve;
        }
        self.hook.before(call).await
    }
}
