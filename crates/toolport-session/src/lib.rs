//! One live MCP session, kept alive: created lazily on first use, shared by every caller,
//! bounded by timeouts, retried where retrying is safe, and reconnected when the transport dies.
//!
//! [`McpSession`] sits on a [`Connector`](toolport_core::Connector) and knows nothing about the
//! transport under it. Requests run concurrently; no lock is held across a request.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod builder;
mod call_slots;
mod catalog;
mod connection;
mod elicitation;
mod error;
mod events;
mod handler;
mod listen;
mod listing;
mod lock;
mod method;
mod options;
#[cfg(feature = "otel")]
mod otel;
mod probe;
mod progress;
mod request;
mod restart_notice;
mod retry;
#[cfg(feature = "jsonschema")]
mod schema_validator;
mod server_log;
mod session;
mod span;
mod task_policy;
mod task_questions;
mod trace_context;

pub use builder::SessionBuilder;
pub use elicitation::{
    ElicitationHandler, ElicitationRequest, ElicitationResponse, apply_schema_defaults,
};
pub use error::SessionError;
pub use events::{ResourceUpdateCallback, ServerEvent, ServerEvents};
pub use listing::{CacheHints, Listing};
pub use options::{CallOptions, CallReplay};
#[cfg(feature = "otel")]
pub use otel::OpenTelemetryPropagator;
pub use progress::{Progress, ProgressCallback};
pub use retry::RetryPolicy;
#[cfg(feature = "jsonschema")]
pub use schema_validator::{SchemaProblem, SchemaValidator};
pub use session::McpSession;
pub use task_policy::TaskPolicy;
pub use trace_context::TracePropagator;
