//! Tool search for agents with many tools. A [`SearchToolset`] over any Toolport
//! [`Toolset`](toolport_tools::Toolset) (one server, a fleet, a tenant's set) offers the model
//! a search tool and the tools pinned as always-on; the model finds the others by describing
//! its need, and each tool found is offered from then on in that conversation. A tool never
//! found is never declared, so a fleet of thousands of tools costs a model turn a few
//! declarations.
//!
//! Ranking is BM25 over each tool's name, title, description, parameters and server, with
//! identifiers split (`browser_take_screenshot`, `readMediaFile`), English stemming, and a
//! [`Thesaurus`] of the words tools are asked for by (read/get/show, folder/directory,
//! forget/delete, …), so that a need phrased in other words than the tool's still finds it.
//! An [`Embedder`] of yours adds ranking by meaning.
#![deny(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]
#![warn(unreachable_pub, missing_debug_implementations)]

mod analyzer;
mod bm25;
mod embedder;
mod found_tools;
mod index;
mod search_tool;
mod search_toolset;
mod search_toolset_builder;
mod stand_in;
mod thesaurus;
mod tool_text;

pub use embedder::{EmbedError, Embedder};
pub use search_toolset::{SearchHit, SearchToolset};
pub use search_toolset_builder::SearchToolsetBuilder;
pub use thesaurus::Thesaurus;
