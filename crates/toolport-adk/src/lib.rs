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
//!
//! # Examples
//!
//! The tasks agent on ADK-Rust's `LlmAgent`, with a model of the caller's (here one that
//! answers at once). This is the snippet of `docs/agents.md`.
//!
//! ```
//! use std::sync::Arc;
//!
//! use adk_agent::LlmAgentBuilder;
//! use adk_core::Agent as _;
//! use toolport::McpToolset;
//! use toolport::schema::Provider;
//! use toolport_adk::{AdkToolset, ResultShape};
//! # use adk_core::{Content, Llm, LlmRequest, LlmResponse, LlmResponseStream};
//! # struct Model;
//! # #[async_trait::async_trait]
//! # impl Llm for Model {
//! #     fn name(&self) -> &str { "model" }
//! #     async fn generate_content(&self, _: LlmRequest, _: bool) -> adk_core::Result<LlmResponseStream> {
//! #         let answer = LlmResponse::new(Content::new("model").with_text("Done."));
//! #         Ok(Box::pin(futures_util::stream::iter([Ok(answer)])))
//! #     }
//! # }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let model = Arc::new(Model);
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
