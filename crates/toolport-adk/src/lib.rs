//! Toolport toolsets as [ADK-Rust](https://docs.rs/adk-core) toolsets and tools.
//!
//! [`AdkToolset`] wraps any Toolport [`Toolset`](toolport_tools::Toolset) (an `McpToolset`, an
//! `McpServerManager`, a tenant's set) as an ADK-Rust [`Toolset`](adk_core::Toolset), so
//! `LlmAgentBuilder::toolset` takes it as it takes adk-tool's; its tools are [`AdkTool`]s.
//! ADK's context reaches Toolport as a [`ReadonlyContext`](toolport_tools::ReadonlyContext)
//! of the session state with `user_id`, `session_id` and `app_name` ([`caller_context`]), so
//! a predicate written for Toolport works unchanged. Declarations are adapted for Gemini unless
//! another provider is picked; results are ADK-Python's pass-through (the MCP result, `isError`
//! included) unless another [`ResultShape`] is picked. A tool error reaches the model and the
//! run goes on; a transport failure ends the run.
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]

mod context;
mod declaration;
mod shape;
mod tool;
mod toolset;

pub use context::caller_context;
pub use shape::ResultShape;
pub use tool::AdkTool;
pub use toolset::AdkToolset;
