//! MCP tools as agent tools: the framework-agnostic [`Tool`] and [`Toolset`] traits,
//! [`McpToolset`] and [`McpTool`] over a shared session (any [`ToolSession`]: an `McpSession`,
//! or a fake in a unit test), filtering by allowlist or predicate,
//! [`ResultMapper`] presets that turn a `CallToolResult` into what the model reads,
//! [`OutputBudget`]s that bound it, toolsets fitted to a model provider, the
//! [`provider_messages`] of each provider API for an agent loop written by hand, the call path
//! as a tower [`ToolService`] that users wrap in layers of their own, with before-call and
//! after-call hooks and an [`ApprovalPolicy`] keyed on tool risk, per-tenant toolsets in
//! [`tenants`], and a [`JoinedToolset`] that offers several toolsets' tools as one toolset.
//!
//! Output budgets, the [`contract`] pins, the [`tenants`] and the [`provider_messages`] are
//! optional, behind the features `output-budgets`, `contract`, `tenants` and
//! `provider-messages`, on by default.
//!
//! The [`schema`] adapters and the [`names`] rules of each model provider, and
//! [`ToolDeclaration`], come from the `toolport-providers` crate, re-exported here at the same
//! paths; a toolset fitted to a provider ([`McpToolsetBuilder::fit_to`]) applies them.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod approval;
#[cfg(feature = "output-budgets")]
mod budget;
mod call_path;
#[cfg(feature = "contract")]
pub mod contract;
mod descriptions;
mod digest;
mod error;
mod filter;
mod idempotency;
mod joined_toolset;
mod list_caching;
mod listed_tools;
mod load_resource;
mod mapping;
mod mcp_tool;
mod mcp_toolset;
mod mcp_toolset_builder;
mod model_fit;
mod output;
#[cfg(feature = "provider-messages")]
pub mod provider_messages;
mod replay_policy;
mod schema_checks;
#[cfg(feature = "tenants")]
pub mod tenants;
mod tool;
mod tool_cache;
mod tool_session;

pub use approval::{ApprovalPolicy, Risk, Verdict};
#[cfg(feature = "output-budgets")]
pub use budget::{OutputBudget, OutputBudgets};
pub use call_path::{
    AfterCall, AfterCallLayer, AfterCallService, BeforeCall, BeforeCallLayer, BeforeCallService,
    Decision, SessionService, ToolCall, ToolService,
};
pub use descriptions::DescriptionPolicy;
pub use error::{ToolError, ToolsetError};
pub use filter::{ToolFilter, ToolPredicate};
pub use idempotency::{Idempotency, KeyPlacement};
pub use joined_toolset::JoinedToolset;
pub use list_caching::ListCaching;
pub use load_resource::LoadResourceTool;
pub use mapping::{AdkJavaMapper, Mapping, MappingError, RawMapper, ResultMapper, RichMapper};
pub use mcp_tool::McpTool;
pub use mcp_toolset::McpToolset;
pub use mcp_toolset_builder::McpToolsetBuilder;
pub use model_fit::ModelFit;
pub use output::{MediaPart, ToolOutput};
pub use replay_policy::ReplayPolicy;
pub use schema_checks::SchemaChecks;
pub use tool::{Tool, Toolset};
pub use tool_session::ToolSession;
pub use toolport_core::ReadonlyContext;
pub use toolport_providers::ToolDeclaration;
pub use toolport_providers::{names, schema};

/// A tool as the server lists it in `tools/list` (the protocol's `Tool`: name, title,
/// description, schemas, annotations, `_meta`). Named apart from the agent-side [`Tool`] trait,
/// so that both can be imported together.
pub use rmcp::model::Tool as ToolDefinition;
