//! The call path of a tool, after its arguments are checked: a [`ToolCall`] sent through the
//! user's tower layers (hooks among them: [`BeforeCallLayer`], [`AfterCallLayer`]) to the
//! [`SessionService`], which checks the server's structured content.

mod after_call;
mod before_call;
mod layers;
mod session_service;
mod tool_call;

use std::sync::Arc;

use rmcp::model::CallToolResult;
use tower::{Service, ServiceExt};

pub use after_call::{AfterCall, AfterCallLayer, AfterCallService};
pub use before_call::{BeforeCall, BeforeCallLayer, BeforeCallService, Decision};
pub(crate) use layers::Layers;
pub use layers::ToolService;
pub use session_service::SessionService;
pub use tool_call::ToolCall;

use crate::{ToolError, ToolSession};

/// A toolset's call path below the argument checks; clones share it.
#[derive(Debug, Clone)]
pub(crate) enum CallPath {
    /// The session itself, when the toolset has no layers (so a plain call pays for no boxed
    /// stack).
    Direct(SessionService),
    /// The layers around it.
    Layered(ToolService),
}

impl CallPath {
    /// The call path over `session` through `layers`, shared by every tool of a toolset.
    pub(crate) fn new(session: &Arc<dyn ToolSession>, layers: &Layers) -> Self {
        let innermost = SessionService::new(Arc::clone(session));
        if layers.is_empty() {
            Self::Direct(innermost)
        } else {
            Self::Layered(layers.around(ToolService::new(innermost)))
        }
    }

    /// Calls go straight to `session`, with no layers.
    pub(crate) fn direct(session: Arc<dyn ToolSession>) -> Self {
        Self::Direct(SessionService::new(session))
    }

    /// Sends `call` down the path.
    pub(crate) async fn send(&self, call: ToolCall) -> Result<CallToolResult, ToolError> {
        match self {
            Self::Direct(session) => session.clone().call(call).await,
            Self::Layered(layers) => layers.clone().oneshot(call).await,
        }
    }
}
