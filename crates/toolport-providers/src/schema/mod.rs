//! Tool schemas adapted to each model provider: the [`SchemaAdapter`] trait, the
//! [`GeminiAdapter`], [`OpenAiAdapter`] and [`AnthropicAdapter`], and a [`SchemaCache`] that
//! adapts each distinct schema once.
//!
//! A provider accepts a subset of JSON Schema, and each a different one. An adapter works on a
//! copy of a tool's `inputSchema` (the server's stays as it is) and reports every change it
//! made, so that a user or a log can see what a model was not told. Without an adapter a
//! [`ToolDeclaration`](crate::ToolDeclaration) keeps the server's schema whole, every JSON
//! Schema 2020-12 keyword included.
//!
//! A `$ref` that points outside the schema is never fetched: each adapter reports it and puts an
//! unconstrained schema in its place.
//!
//! A server's schema is untrusted input, so adapting one is bounded (see [`MAX_DEPTH`],
//! [`MAX_INLINED_REFS`], [`MAX_ADDED_BYTES`] and [`MAX_CHANGES`]): no schema can overflow the
//! stack, and no schema's adaptation or report grows past a fixed size.

mod anthropic;
mod arguments;
mod bounds;
mod cache;
mod change;
mod copy_budget;
mod expanded_depth;
mod gemini;
mod merge;
mod openai;
mod refs;
mod root;
mod walk;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde_json::Value;

use crate::names::NameRule;

pub use anthropic::AnthropicAdapter;
pub use bounds::{
    InlineBound, MAX_ADDED_BYTES, MAX_CHANGES, MAX_DEPTH, MAX_INLINED_REFS, SchemaTooDeep,
};
pub use cache::{FunctionDeclaration, SchemaCache};
pub use change::{AdaptedSchema, SchemaChange, SchemaChangeKind};
pub use expanded_depth::expanded_depth;
pub use gemini::GeminiAdapter;
pub use openai::OpenAiAdapter;

/// Adapts tool input schemas to what one model provider accepts, and writes that provider's
/// function declarations.
///
/// Implement it for a provider Toolport does not know; wrap it in a [`SchemaCache`] so that
/// each schema is adapted once.
pub trait SchemaAdapter: Send + Sync + fmt::Debug {
    /// The provider's name, as `toolport tools --provider` spells it.
    fn provider(&self) -> &'static str;

    /// A copy of `schema` (a tool's input schema) adapted to the provider, with every change.
    ///
    /// # Errors
    ///
    /// [`SchemaTooDeep`] when `schema` nests deeper than [`MAX_DEPTH`]: an adapter walks no
    /// such schema, so that none can overflow the stack.
    fn adapt(&self, schema: &Value) -> Result<AdaptedSchema, SchemaTooDeep>;

    /// The provider's function declaration of a tool named `name`, described by
    /// `description`, whose input schema was adapted into `adapted`.
    fn function_declaration(&self, name: &str, description: &str, adapted: &AdaptedSchema)
    -> Value;
}

/// The model providers Toolport has adapters for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// Google Gemini ([`GeminiAdapter`]).
    Gemini,
    /// OpenAI, strict where the schema allows ([`OpenAiAdapter::strict`]).
    OpenAi,
    /// Anthropic ([`AnthropicAdapter`]).
    Anthropic,
}

impl Provider {
    /// Every provider, in the order `toolport tools --help` lists them.
    pub const ALL: [Provider; 3] = [Provider::Gemini, Provider::OpenAi, Provider::Anthropic];

    /// The provider's adapter, with its defaults.
    pub fn adapter(self) -> Arc<dyn SchemaAdapter> {
        match self {
            Provider::Gemini => Arc::new(GeminiAdapter::new()),
            Provider::OpenAi => Arc::new(OpenAiAdapter::strict()),
            Provider::Anthropic => Arc::new(AnthropicAdapter::new()),
        }
    }

    /// The rule the provider's tool names follow: Gemini's (a name starts with a letter or
    /// `_`), or the common one (`[a-zA-Z0-9_-]`, 64 characters) of the others.
    pub fn name_rule(self) -> NameRule {
        match self {
            Provider::Gemini => NameRule::gemini(),
            Provider::OpenAi | Provider::Anthropic => NameRule::default(),
        }
    }

    /// The provider's name: `gemini`, `openai` or `anthropic`.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Gemini => "gemini",
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Provider`] from a name Toolport does not know.
#[derive(Debug, Clone, thiserror::Error)]
#[error("unknown provider `{0}`: expected gemini, openai or anthropic")]
pub struct UnknownProvider(String);

impl FromStr for Provider {
    type Err = UnknownProvider;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Provider::ALL
            .into_iter()
            .find(|provider| provider.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownProvider(name.to_owned()))
    }
}
