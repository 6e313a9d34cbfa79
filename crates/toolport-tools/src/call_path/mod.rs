//! The call path of a tool, after its arguments are checked: a [`ToolCall`] through the user's
//! tower layers to the [`SessionService`], which sends it on the session.

mod layers;
mod session_service;
mod tool_call;

pub(crate) use layers::Layers;
pub use layers::ToolService;
pub use session_service::SessionService;
pub use tool_call::ToolCall;
