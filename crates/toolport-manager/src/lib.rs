//! A supervised fleet of MCP servers from an `mcp.json`, over stdio, Streamable HTTP and SSE:
//! [`McpServerManager`], itself a [`Toolset`](toolport_tools::Toolset) of every running
//! server's tools.
//!
//! - Each server's connector comes from a [`ConnectorFactory`]: by default the
//!   [`StandardConnectors`] (stdio, Streamable HTTP and SSE, each behind its crate feature);
//!   a factory of the caller's adds transports, or an authorizer per server.
//! - [`McpConfig`] reads the file in the `mcpServers` form (Claude Desktop, Claude Code,
//!   Cursor, Cline) and the `servers` form (VS Code) with one parser, and saves it atomically,
//!   keeping what it does not read. [`ServerConfig`] is one server's entry; `${VAR}`,
//!   `${VAR:-default}` and `${env:VAR}` are expanded when the server starts.
//! - [`McpServerManager`] starts servers concurrently, each within a startup timeout and
//!   holding no lock across its handshake; supervises them and restarts crashed ones as their
//!   [`RestartPolicy`] says; applies a changed file as a diff ([`reload`](McpServerManager::reload));
//!   and reports every [`ManagerEvent`].
//! - Its tools keep their names unless two servers publish the same one; both then become
//!   `{server_id}__{tool}`. A name `{id}__…` is server `id`'s alone: another server's tool
//!   named so gets its own server's prefix. A server's `autoApprove` list lets its tools past the manager's
//!   before-call hook.
//!
//! `docs/manager.md` describes the file format and how each client's file maps to it.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod aggregate;
mod aggregate_cache;
mod aggregate_names;
mod auto_approve;
mod builder;
mod config;
#[cfg(any(feature = "http", feature = "sse"))]
mod connect_network;
mod connector_factory;
mod entry_toolset;
mod error;
mod events;
mod launcher;
mod lifecycle;
mod managed_tool;
mod manager;
mod reload;
mod report;
mod server_prefixes;
mod server_to_connect;
mod shared;
mod slot;
mod standard_connectors;
mod start_all;
mod status;
mod supervise;

pub use builder::ManagerBuilder;
pub use config::{
    ConfigError, ConfigForm, ExpandError, McpConfig, NetworkConfig, RestartPolicy, ServerConfig,
    TransportConfig,
};
pub use connector_factory::ConnectorFactory;
pub use error::ManagerError;
pub use events::{ManagerEvent, ManagerEventKind};
pub use managed_tool::ManagedTool;
pub use manager::McpServerManager;
pub use reload::ReloadReport;
pub use report::{StartOutcome, StartReport};
pub use server_to_connect::ServerToConnect;
pub use standard_connectors::StandardConnectors;
pub use status::ServerStatus;

// `${VAR}` expansion with a lookup of the caller's, which `ManagerBuilder::env_lookup` reaches
// only through a running manager. Public for the fuzz targets in `fuzz/` only; not a stable API.
#[doc(hidden)]
pub use config::expand;
