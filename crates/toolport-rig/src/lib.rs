//! Toolport toolsets as [rig](https://docs.rs/rig-core) tools.
//!
//! [`RigToolset`] turns any Toolport [`Toolset`](toolport_tools::Toolset) (an `McpToolset`, an
//! `McpServerManager`, a tenant's set) into rig [`DynamicTool`](rig_core::tool::DynamicTool)s,
//! each with the declaration the toolset computed for its model provider. [`LiveTools`] keeps
//! them in a rig [`ManagedToolSink`](rig_core::tool::ManagedToolSink) (rig-agent's tool server)
//! as the servers' lists change. A tool error reaches the model and the run goes on; a
//! transport failure stops the run once [`StopOnTransportFailure`] is one of the agent's hooks.
//! The caller's context travels in rig's tool context as a [`CallerContext`].
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]

mod caller;
mod live;
mod output;
mod stop;
mod toolset;

pub use caller::CallerContext;
pub use live::{LiveTools, tool_list_changes};
pub use output::TRANSPORT_FAILURE;
pub use stop::StopOnTransportFailure;
pub use toolset::RigToolset;
