//! What tests of code built on Toolport need: in-process and scripted servers to connect to, a
//! connector that fails on demand, and the small helpers every test of a client uses.
//!
//! - [`TaskTracker`]: a small to-do list MCP server with structured output, the fixture most
//!   tests and examples talk to; it serves the book and tool definitions of `toolport-demo`,
//!   whose [`Task`], [`TaskList`], [`Priority`] and [`TaskStatus`] are re-exported here.
//! - [`DuplexConnector`]: a [`Connector`](toolport_core::Connector) that starts a fresh in-process
//!   server over `tokio::io::duplex` on every connect, and can kill it to simulate a crash;
//!   [`task_tracker_connector`] is one serving a [`TaskTracker`].
//! - [`MockConnector`]: wraps another connector and fails its next connects on demand.
//! - [`scripted::pair`]: a scripted mock transport, in the style of tower-test's `mock::pair()`:
//!   the test asserts each message the client sends and answers it.
//! - [`serve`]: runs any server over a byte stream of your own (a socket, a pipe).
//!
//! [`bounded`], [`call_params`], [`first_text`] and [`join_all`] are the small helpers every
//! test of a client needs; [`WAIT`] is how long `bounded` waits.
//!
//! Toolport's own scenario servers (billing, files, a lab of edge cases, fault hosts, servers
//! over HTTP and TLS) and its fixture binaries are in the unpublished `toolport-fixtures` crate.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod duplex;
mod mock;
pub mod scripted;
mod serve;
mod task_tracker;
mod test_helpers;

pub use duplex::{DuplexConnector, task_tracker_connector};
pub use mock::MockConnector;
pub use serve::serve;
pub use task_tracker::TaskTracker;
pub use test_helpers::{WAIT, bounded, call_params, first_text, join_all};
#[doc(inline)]
pub use toolport_demo::{Priority, Task, TaskList, TaskStatus};
