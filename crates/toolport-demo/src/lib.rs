//! The demo task tracker that `toolport` talks to when no server is named: a small to-do list
//! MCP server that runs in process, without rmcp's server features.
//!
//! - [`TaskBook`]: the tasks of one session, seeded with T-1..T-3, new ones from T-4 on, and
//!   [`TaskBook::call`] to run a tool on them.
//! - [`tool_definitions`]: the three tools (`list_tasks`, `add_task`, `complete_task`) as JSON,
//!   with input and output schemas and annotations; [`SERVER_NAME`], [`SERVER_VERSION`] and
//!   [`INSTRUCTIONS`] for `initialize`.
//! - [`serve`]: one session over a byte stream, newline-delimited JSON-RPC.
//! - [`DemoConnector`]: a [`Connector`](toolport_core::Connector) that serves a fresh session
//!   over `tokio::io::duplex` on every connect.
//!
//! # Why the server is written by hand
//!
//! rmcp's server side (its handler traits, tool macros and schemars) is most of what a binary
//! pays for a server, and the `toolport` command needs only four methods of one:
//! `initialize`, `ping`, `tools/list` and `tools/call`. So [`serve`] answers them itself, with
//! `serde_json`, and ignores notifications. `toolport-testkit`'s `TaskTracker`, an rmcp
//! `ServerHandler` for the tests and the HTTP fixtures, delegates to the same book and
//! definitions, so there is one task tracker.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod book;
mod call;
mod connector;
mod definitions;
mod model;
mod respond;
mod serve;

pub use book::TaskBook;
pub use call::UnknownTool;
pub use connector::DemoConnector;
pub use definitions::{INSTRUCTIONS, SERVER_NAME, SERVER_VERSION, tool_definitions};
pub use model::{Priority, Task, TaskList, TaskStatus};
pub use serve::serve;
