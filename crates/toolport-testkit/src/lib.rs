//! Fakes and fixture servers for testing Toolport and the agents built on it.
//!
//! - [`TaskTracker`]: a small to-do list MCP server with structured output, the fixture most
//!   tests and examples talk to.
//! - [`LabServer`]: tools that echo, sleep, crash, add, announce tool-list changes and return an
//!   image, for edge-case tests and benchmarks.
//! - [`DuplexConnector`]: a [`Connector`](toolport_core::Connector) that starts a fresh in-process
//!   server over `tokio::io::duplex` on every connect, and can kill it to simulate a crash.
//! - [`MockConnector`]: wraps another connector and fails its next connects on demand.
//!
//! The `toolport-fixture` binary serves either fixture over stdio, and has misbehaving modes
//! (`exit-during-init`, `garbage`, `hang`) for error tests against a real child process.
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]

mod cancellations;
mod duplex;
mod lab;
mod mock;
mod task_tracker;

pub use cancellations::CancellationCounter;
pub use duplex::{DuplexConnector, task_tracker_connector};
pub use lab::{CrashBehavior, LabServer};
pub use mock::MockConnector;
pub use task_tracker::{
    AddTaskParams, CompleteTaskParams, ListTasksParams, Priority, Task, TaskList, TaskStatus,
    TaskTracker,
};
