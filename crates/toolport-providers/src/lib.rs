//! What each model provider (Gemini, OpenAI, Anthropic) accepts of a tool: its parameter schema,
//! fitted by the [`schema`] adapters, and its name, by the [`names`] rules. A
//! [`ToolDeclaration`] is the tool as the server lists it, which both start from, and
//! [`json_measure`] measures a JSON value's size as compact JSON.
//!
//! `toolport-tools` builds on it (a toolset fitted to a provider, and the provider messages of
//! a hand-written agent loop) and re-exports [`schema`], [`names`] and [`ToolDeclaration`] at
//! the paths they had there, as does the `toolport` facade. Take this crate alone to use the
//! adapters and name rules without a toolset: beside rig's or ADK-Rust's own MCP adapters, or
//! in an agent loop of one's own.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod declaration;
pub mod json_measure;
pub mod names;
pub mod schema;

pub use declaration::ToolDeclaration;
