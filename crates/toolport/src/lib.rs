//! Toolport makes an AI agent an MCP client: it gives the agent's model the tools of MCP
//! servers, keeps their sessions alive through timeouts, crashes and reconnects, and maps
//! tool results to what the model reads.
//!
//! This facade re-exports the layers; pick single crates (`toolport-core`,
//! `toolport-session`, `toolport-tools`, and one transport crate) to depend on less. Its
//! default features are what most agents need: `stdio`, `http`, `manager` and `jsonschema`.
//!
//! | feature | what it adds |
//! |---|---|
//! | `stdio` (default) | [`stdio::StdioServer`]: servers started as child processes |
//! | `http` (default) | [`http::HttpServer`]: servers over Streamable HTTP |
//! | `sse` | [`sse::SseServer`]: servers over the legacy HTTP+SSE transport |
//! | `auth` | [`auth`]: MCP authorization (OAuth 2.1, client credentials) for the HTTP transports |
//! | `redis` | `auth::RedisTokenStore`: tokens and their refresh lease kept in Redis, for agents on several hosts |
//! | `manager` (default) | [`manager::McpServerManager`]: a supervised fleet from an `mcp.json`, over the transports whose features are on and any a `manager::ConnectorFactory` of yours adds |
//! | `jsonschema` (default) | calls checked against the tool's input schema before they are sent, and structured results against its output schema |
//! | `output-budgets` | [`OutputBudget`]: a bound on what the model reads of each tool result |
//! | `contract` | [`contract`]: pins of each tool's description and schemas, and the check of a server against them |
//! | `tenants` | [`tenants`]: a toolset per tenant, built on first use and closed when idle |
//! | `provider-messages` | [`provider_messages`]: each provider API's request tools, model calls and their answers, for an agent loop written by hand |
//! | `search` | [`search`]: tool search for agents with many tools: a search tool and the pinned tools are declared, the others once the model has found them |
//! | `tls` | `https` with rustls, trusting the operating system's roots; without it an `https` server is refused with an error that names this feature |
//! | `webpki-roots` | Mozilla's roots compiled in as well, for images without a CA bundle |
//! | `otel` | `OpenTelemetryPropagator`: 2026-07-28 requests carry the trace context of spans exported with `tracing-opentelemetry` |
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
//!
//! A transport of your own needs only this crate: implement [`Connector`], and hand the session
//! a [`Connection`]. Over any byte stream, [`stdio::StreamTransport`] speaks newline-delimited
//! JSON-RPC and reads as stdio does, with Toolport's decoder (the message limit, 2025-11-25
//! tasks); any other rmcp [`Transport<RoleClient>`](transport::Transport) can be boxed as a
//! [`BoxedTransport`]. Here, MCP over a plain TCP socket (the server is the testkit's task
//! tracker):
//!
//! ```
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use tokio::net::{TcpListener, TcpStream};
//! use toolport::stdio::StreamTransport;
//! use toolport::{ConnectContext, ConnectError, Connection, Connector, McpToolset};
//!
//! /// An MCP server listening on a TCP port.
//! #[derive(Debug)]
//! struct TcpServer(std::net::SocketAddr);
//!
//! #[toolport::async_trait]
//! impl Connector for TcpServer {
//!     async fn connect(&self, context: &ConnectContext) -> Result<Connection, ConnectError> {
//!         let connecting = TcpStream::connect(self.0);
//!         let stream = tokio::time::timeout(context.timeouts().connect, connecting)
//!             .await
//!             .map_err(ConnectError::unreachable)?
//!             .map_err(ConnectError::unreachable)?;
//!         let (read, write) = stream.into_split();
//!         Ok(StreamTransport::new(read, write).into_connection())
//!     }
//!
//!     fn target(&self) -> String {
//!         format!("`{}` over TCP", self.0)
//!     }
//! }
//!
//! let listener = TcpListener::bind("127.0.0.1:0").await?;
//! let server = TcpServer(listener.local_addr()?);
//! tokio::spawn(async move {
//!     while let Ok((socket, _)) = listener.accept().await {
//!         tokio::spawn(toolport_testkit::serve(toolport_testkit::TaskTracker::new(), socket));
//!     }
//! });
//! let toolset = McpToolset::builder(server).build().await?;
//! assert_eq!(toolset.tools(None).await?.len(), 3);
//! toolset.close().await;
//! # Ok(())
//! # }
//! # tokio::runtime::Runtime::new().unwrap().block_on(run()).unwrap();
//! ```
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

#[doc(inline)]
pub use toolport_core::{
    AuthorizationRequired, BoxError, BoxedTransport, ConnectContext, ConnectError, Connection,
    ConnectionDiagnostics, Connector, NoDiagnostics, NotDelivered, ProtocolChoice, ReadonlyContext,
    Secret, ServerExit, Timeouts, TransportError, error_chain,
};
#[cfg(any(feature = "http", feature = "sse"))]
#[doc(inline)]
pub use toolport_http_client::{
    Authorizer, ClientIdentity, Credential, Header, HeaderProvider, HttpError, HttpOptions,
    NetworkOptions, Proxy, Refusal, RequestTarget, RotatingToken, TokenSource, WithHttpOptions,
};
#[cfg(feature = "otel")]
#[doc(inline)]
pub use toolport_session::OpenTelemetryPropagator;
#[doc(inline)]
pub use toolport_session::{
    CacheHints, CallOptions, CallReplay, ElicitationHandler, ElicitationRequest,
    ElicitationResponse, Listing, McpSession, Progress, ProgressCallback, ResourceUpdateCallback,
    RetryPolicy, ServerEvent, ServerEvents, SessionBuilder, SessionError, TaskPolicy,
    TracePropagator, apply_schema_defaults,
};
#[doc(inline)]
pub use toolport_tools::{
    AfterCall, AfterCallLayer, ApprovalPolicy, BeforeCall, BeforeCallLayer, Decision,
    DescriptionPolicy, Idempotency, JoinedToolset, KeyPlacement, ListCaching, LoadResourceTool,
    Mapping, MappingError, McpTool, McpToolset, McpToolsetBuilder, MediaPart, ModelFit,
    ReplayPolicy, ResultMapper, Risk, SchemaChecks, SessionService, Tool, ToolCall,
    ToolDeclaration, ToolDefinition, ToolError, ToolFilter, ToolOutput, ToolPredicate, ToolService,
    ToolSession, Toolset, ToolsetError, Verdict,
};
#[cfg(feature = "output-budgets")]
#[doc(inline)]
pub use toolport_tools::{OutputBudget, OutputBudgets};

/// Contract pins: a lock of each tool's schemas and description, and the check of a server
/// against it.
#[cfg(feature = "contract")]
pub use toolport_tools::contract;

/// Tool schemas adapted to each model provider (Gemini, OpenAI, Anthropic), and their function
/// declarations.
pub use toolport_tools::schema;

/// Tool names each model provider accepts, with an optional prefix, a hash suffix for a name
/// too long or taken, and the way back to the server's name.
pub use toolport_tools::names;

/// Provider message shapes for an agent loop written by hand against a model provider's HTTP
/// API (the Gemini API, OpenAI Chat Completions and Responses, Anthropic Messages): the
/// request's tool declarations, the calls in the model's response, and their answers.
#[cfg(feature = "provider-messages")]
pub use toolport_tools::provider_messages;

/// Per-tenant toolsets: a cache of one toolset per tenant, bounded by a capacity and an idle
/// timeout, for servers that must act as the end user.
#[cfg(feature = "tenants")]
pub use toolport_tools::tenants;

/// The snippets of `docs/tools.md`, run as doc tests so that the guide stays true.
#[cfg(all(
    doctest,
    feature = "output-budgets",
    feature = "contract",
    feature = "tenants",
    feature = "search",
    feature = "provider-messages"
))]
#[doc = include_str!("../../../docs/tools.md")]
pub struct ToolsGuide;

/// The snippets of `docs/protocol.md`, run as doc tests so that the guide stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/protocol.md")]
pub struct ProtocolGuide;

/// The snippets of `docs/agents.md` that use the facade alone (those of the provider APIs), run
/// as doc tests so that the guide stays true; the frameworks' snippets are their crates' own.
#[cfg(all(doctest, feature = "provider-messages"))]
#[doc = include_str!("../../../docs/agents.md")]
pub struct AgentsGuide;

/// The snippets of `docs/authorization.md`, compiled as doc tests so that the guide stays true.
#[cfg(all(doctest, feature = "auth"))]
#[doc = include_str!("../../../docs/authorization.md")]
pub struct AuthorizationGuide;

/// The `#[async_trait]` attribute, for implementing [`Connector`], [`Toolset`] and the other
/// async traits without another dependency.
pub use async_trait::async_trait;

/// Servers started as child processes, over stdio.
#[cfg(feature = "stdio")]
pub mod stdio {
    #[doc(inline)]
    pub use toolport_stdio::*;
}

/// Servers over Streamable HTTP. Their header and credential settings are
/// [`HttpOptions`].
#[cfg(feature = "http")]
pub mod http {
    #[doc(inline)]
    pub use toolport_http::*;
}

/// Servers over the legacy HTTP+SSE transport (2024-11-05). Their header and credential
/// settings are [`HttpOptions`].
#[cfg(feature = "sse")]
pub mod sse {
    #[doc(inline)]
    pub use toolport_sse::*;
}

/// MCP authorization (OAuth 2.1) for the HTTP transports: an
/// [`Authorizer`] that discovers, registers, authorizes and refreshes, and
/// the token stores it keeps tokens in.
#[cfg(feature = "auth")]
pub mod auth {
    #[doc(inline)]
    pub use toolport_auth::*;
}

/// A supervised fleet of servers from an `mcp.json`, over every transport, as one
/// [`Toolset`]: [`manager::McpServerManager`].
#[cfg(feature = "manager")]
pub mod manager {
    #[doc(inline)]
    pub use toolport_manager::*;
}

/// Tool search for agents with many tools: [`search::SearchToolset`] over any [`Toolset`]
/// declares a search tool and the pinned tools, and the others once the model has found them.
#[cfg(feature = "search")]
pub mod search {
    #[doc(inline)]
    pub use toolport_search::*;
}

/// What a transport of your own implements: rmcp's client-side [`Transport`](transport::Transport) and the messages
/// it carries. Box it with [`BoxedTransport::new`](crate::BoxedTransport::new).
pub mod transport {
    pub use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
    pub use rmcp::transport::Transport;
}

/// The protocol model of the official Rust SDK (`rmcp::model`), for the types Toolport's API
/// mentions.
pub use rmcp::model;
