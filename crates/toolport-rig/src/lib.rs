//! Toolport toolsets as [rig](https://docs.rs/rig-core) tools.
//!
//! [`RigToolset`] turns any Toolport [`Toolset`](toolport_tools::Toolset) (an `McpToolset`, an
//! `McpServerManager`, a tenant's set) into rig [`DynamicTool`](rig_core::tool::DynamicTool)s,
//! each with the declaration the toolset computed for its model provider. [`LiveTools`] keeps
//! them in a rig [`ManagedToolSink`](rig_core::tool::ManagedToolSink) (rig-agent's tool server)
//! as the servers' lists change. A tool error reaches the model and the run goes on; a
//! transport failure stops the run once [`StopOnTransportFailure`] is one of the agent's hooks.
//! The caller's context travels in rig's tool context as a [`CallerContext`].
//!
//! # Examples
//!
//! The tasks agent on rig's own loop, with a model that replays recorded turns (any rig
//! completion model goes in its place). This is the snippet of `docs/agents.md`.
//!
//! ```
//! use std::sync::Arc;
//!
//! use rig_agent::AgentBuilder;
//! use rig_agent::tool::server::ToolServer;
//! use rig_core::test_utils::{MockCompletionModel, MockTurn};
//! use serde_json::json;
//! use toolport::McpToolset;
//! use toolport_rig::{LiveTools, RigToolset, StopOnTransportFailure, tool_list_changes};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The task tracker's tools in rig's tool server, following the server's list.
//! let server = toolport_testkit::task_tracker_connector();
//! let toolset = Arc::new(McpToolset::builder(server).build().await?);
//! let tools = ToolServer::new().run();
//! let changes = tool_list_changes(toolset.session().events());
//! let _live = LiveTools::start(RigToolset::new(toolset.clone()), tools.clone(), changes).await?;
//!
//! let model = MockCompletionModel::from_turns([
//!     MockTurn::tool_call("call-0", "complete_task", json!({"task_id": "T-9"})),
//!     MockTurn::text("There is no task T-9."),
//! ]);
//! let agent = AgentBuilder::new(model)
//!     .preamble("You manage a software project's task tracker.")
//!     .tool_server_handle(tools)
//!     .add_hook(StopOnTransportFailure)
//!     .build();
//! let answer = agent.prompt("Mark task T-9 as done.").max_turns(3).run().await?;
//! assert_eq!(answer.output(), "There is no task T-9.");
//! toolset.close().await;
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

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
