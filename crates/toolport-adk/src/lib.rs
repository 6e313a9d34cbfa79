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
//! run goes on; a transport failure ends the run. [`ReplayLlm`] and [`transcript`] test an
//! agent without a model, as the reference does.
//!
//! # Examples
//!
//! The tasks agent on ADK-Rust's `LlmAgent`, with any ADK model (here one that replays a
//! recorded answer). This is the snippet of `docs/agents.md`.
//!
//! ```
//! use std::sync::Arc;
//!
//! use adk_agent::LlmAgentBuilder;
//! use adk_core::Agent as _;
//! use toolport::McpToolset;
//! use toolport::schema::Provider;
//! use toolport_adk::{AdkToolset, ReplayLlm, ResultShape};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let model = Arc::new(ReplayLlm::new([ReplayLlm::answer("Done.")]));
//! let server = toolport_testkit::task_tracker_connector();
//! let toolset = Arc::new(McpToolset::builder(server).build().await?);
//! // Gemini's declarations and ADK-Python's results by default; here OpenAI's and ADK-Java's.
//! let tools = AdkToolset::new(toolset.clone())
//!     .named("tasks")
//!     .provider(Provider::OpenAi)
//!     .result_shape(ResultShape::AdkJava);
//! let agent = LlmAgentBuilder::new("tasks_agent")
//!     .model(model)
//!     .instruction("You manage a software project's task tracker.")
//!     .toolset(Arc::new(tools))
//!     .build()?;
//! assert_eq!(agent.name(), "tasks_agent");
//! toolset.close().await;
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod context;
mod declaration;
mod made_tools;
mod replay;
mod shape;
mod tool;
mod toolset;
mod transcript;

pub use context::caller_context;
pub use replay::ReplayLlm;
pub use shape::ResultShape;
pub use tool::AdkTool;
pub use toolset::AdkToolset;
pub use transcript::transcript;
