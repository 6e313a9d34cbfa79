//! Toolport makes an AI agent an MCP client: it gives the agent's model the tools of MCP
//! servers, keeps their sessions alive through timeouts, crashes and reconnects, and maps
//! tool results to what the model reads.
//!
//! This facade re-exports the layers; pick single crates (`toolport-core`,
//! `toolport-session`, `toolport-tools`, and one transport crate) to depend on less.
//!
//! | feature | what it adds |
//! |---|---|
//! | `stdio` (default) | [`stdio::StdioServer`]: servers started as child processes |
//! | `http` (default) | [`http::HttpServer`]: servers over Streamable HTTP |
//! | `sse` (default) | [`sse::SseServer`]: servers over the legacy HTTP+SSE transport |
//!
//! # Examples
//!
//! The tools of a server, called as a model would call them. Here the server is the in-process
//! task tracker from `toolport-testkit`; any [`Connector`] works the same way.
//!
//! ```
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use serde_json::json;
//! use toolport::{McpToolset, Toolset};
//!
//! let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector())
//!     .build()
//!     .await?;
//! let tools = toolset.tools(None).await?;
//! let complete = tools.iter().find(|tool| tool.name() == "complete_task").unwrap();
//! let output = complete.call(json!({"task_id": "T-9"}), None).await?;
//! assert!(output.is_error, "the model reads the error and can try again");
//! toolset.close().await;
//! # Ok(())
//! # }
//! # tokio::runtime::Runtime::new().unwrap().block_on(run()).unwrap();
//! ```
//!
//! A server started as a child process:
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use toolport::stdio::StdioServer;
//! use toolport::{McpToolset, Toolset};
//!
//! let server = StdioServer::new("npx").args(["-y", "@modelcontextprotocol/server-everything"]);
//! let toolset = McpToolset::builder(server).build().await?;
//! for tool in toolset.tools(None).await? {
//!     println!("{}: {}", tool.name(), tool.declaration().description);
//! }
//! toolset.close().await;
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs, unreachable_pub, missing_debug_implementations)]

#[doc(inline)]
pub use toolport_core::{
    AuthorizationRequired, BoxError, BoxedTransport, ConnectError, Connection,
    ConnectionDiagnostics, Connector, Header, HeaderProvider, NotDelivered, RotatingToken, Secret,
    Timeouts, TokenSource,
};
#[doc(inline)]
pub use toolport_session::{
    CallOptions, CallReplay, ElicitationHandler, ElicitationRequest, ElicitationResponse,
    McpSession, RetryPolicy, ServerEvent, SessionBuilder, SessionError, apply_schema_defaults,
};
#[doc(inline)]
pub use toolport_tools::{
    Mapping, MappingError, McpTool, McpToolset, McpToolsetBuilder, MediaPart, ReadonlyContext,
    ResultMapper, Tool, ToolDeclaration, ToolError, ToolFilter, ToolOutput, ToolPredicate, Toolset,
    ToolsetError,
};

/// Servers started as child processes, over stdio.
#[cfg(feature = "stdio")]
pub mod stdio {
    #[doc(inline)]
    pub use toolport_stdio::*;
}

/// Servers over Streamable HTTP.
#[cfg(feature = "http")]
pub mod http {
    #[doc(inline)]
    pub use toolport_http::*;
}

/// Servers over the legacy HTTP+SSE transport (2024-11-05).
#[cfg(feature = "sse")]
pub mod sse {
    #[doc(inline)]
    pub use toolport_sse::*;
}

/// The protocol model of the official Rust SDK (`rmcp::model`), for the types Toolport's API
/// mentions.
pub use rmcp::model;
