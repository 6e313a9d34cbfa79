//! The call path of a tool, after its arguments are checked: a [`ToolCall`] judged by the
//! before-call [`hooks`], sent through the user's tower layers to the [`SessionService`], and
//! its result rewritten by the after-call hooks.

mod hooks;
mod layers;
mod session_service;
mod tool_call;

use std::sync::Arc;

use rmcp::model::CallToolResult;
use toolport_session::McpSession;
use tower::{Service, ServiceExt};

pub use hooks::{AfterCall, BeforeCall, Decision};
pub(crate) use layers::Layers;
pub use layers::ToolService;
pub use session_service::SessionService;
pub use tool_call::ToolCall;

use crate::ToolError;

/// What a toolset's builder gathers for the call path: layers and hooks.
#[derive(Debug, Default)]
pub(crate) struct CallPathBuilder {
    pub(crate) layers: Layers,
    pub(crate) hooks: hooks::Hooks,
}

impl CallPathBuilder {
    /// The call path over `session`, shared by every tool of a toolset.
    pub(crate) fn build(self, session: &McpSession) -> CallPath {
        let innermost = SessionService::new(session.clone());
        let service = if self.layers.is_empty() {
            Stack::Direct(innermost)
        } else {
            Stack::Layered(self.layers.around(ToolService::new(innermost)))
        };
        CallPath {
            service,
            hooks: Arc::new(self.hooks),
        }
    }
}

/// A toolset's call path below the argument checks; clones share it.
#[derive(Debug, Clone)]
pub(crate) struct CallPath {
    service: Stack,
    hooks: Arc<hooks::Hooks>,
}

/// The service a call goes through: the session itself when the toolset has no layers (so a
/// plain call pays for no boxed stack), else the layers around it.
#[derive(Debug, Clone)]
enum Stack {
    Direct(SessionService),
    Layered(ToolService),
}

/// What became of a call on the call path.
pub(crate) enum Sent {
    /// The server answered; the after-call hooks run on it once it is checked.
    Server(CallToolResult, Option<Box<ToolCall>>),
    /// A before-call hook denied or answered it; nothing was sent.
    Hook(CallToolResult),
}

impl CallPath {
    /// Calls go straight to `session`, with no layers or hooks.
    pub(crate) fn direct(session: &McpSession) -> Self {
        CallPathBuilder::default().build(session)
    }

    /// Runs `call` by the hooks' decision, through the layers.
    pub(crate) async fn send(&self, call: ToolCall) -> Result<Sent, ToolError> {
        match self.hooks.decide(&call).await {
            Decision::Approve => {}
            Decision::Deny(reason) => {
                tracing::info!(tool = %call.name, %reason, "a before-call hook denied the call");
                return Ok(Sent::Hook(hooks::denial(reason)));
            }
            Decision::Answer(result) => {
                tracing::debug!(tool = %call.name, "a before-call hook answered the call");
                return Ok(Sent::Hook(result));
            }
        }
        let kept = self.hooks.rewrites().then(|| Box::new(call.clone()));
        let result = match &self.service {
            Stack::Direct(session) => session.clone().call(call).await?,
            Stack::Layered(layers) => layers.clone().oneshot(call).await?,
        };
        Ok(Sent::Server(result, kept))
    }

    /// `result` of the server, rewritten by the after-call hooks for `call`.
    pub(crate) async fn rewrite(
        &self,
        call: Option<Box<ToolCall>>,
        result: CallToolResult,
    ) -> CallToolResult {
        match call {
            Some(call) => self.hooks.rewrite(&call, result).await,
            None => result,
        }
    }
}
