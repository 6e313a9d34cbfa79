//! The bounds that keep adapting a server's schema, which is untrusted input, from exhausting
//! the stack or the memory: how deep a schema may nest, how much inlining its `$ref`s may add,
//! and how much of what changed is reported.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::json_measure;

/// The deepest a schema an adapter reads or writes may nest, in arrays and objects. It is
/// serde_json's own parsing limit, so a schema that arrived as JSON always fits, and inlining
/// never nests a schema deeper than this.
pub const MAX_DEPTH: usize = 128;

/// The most `$ref`s inlined into one schema: a chain of definitions that each use the next
/// twice would otherwise grow exponentially.
pub const MAX_INLINED_REFS: usize = 512;

/// The most bytes of JSON (compact) that copies of a schema's parts may add to it: inlined
/// `$ref`s and the outlines left where inlining stopped, and (for Gemini) a union's branch
/// copied once for each type of a type array beside it. One large definition referenced many
/// times would otherwise grow the schema by its size each time.
pub const MAX_ADDED_BYTES: usize = 256 * 1024;

/// The most changes an [`AdaptedSchema`](super::AdaptedSchema) lists; the rest are counted in
/// a last [`SchemaChangeKind::Omitted`](super::SchemaChangeKind::Omitted).
pub const MAX_CHANGES: usize = 4096;

/// The longest text (a path, a reference, a keyword, a property's name) a change keeps, in
/// bytes; a longer one is cut and ends with `…`.
pub(crate) const MAX_SHOWN_BYTES: usize = 1024;

/// Which bound stopped the inlining of a `$ref`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum InlineBound {
    /// [`MAX_INLINED_REFS`] `$ref`s were inlined already.
    References,
    /// Inlining it would have added more than [`MAX_ADDED_BYTES`] to the schema.
    Bytes,
    /// Inlining it would have nested the schema deeper than [`MAX_DEPTH`].
    Depth,
}

impl fmt::Display for InlineBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InlineBound::References => write!(f, "{MAX_INLINED_REFS} `$ref`s inlined"),
            InlineBound::Bytes => write!(f, "{MAX_ADDED_BYTES} bytes added"),
            InlineBound::Depth => write!(f, "{MAX_DEPTH} levels of nesting"),
        }
    }
}

/// The error of adapting a schema that nests deeper than [`MAX_DEPTH`]. No adapter walks such
/// a schema, and a toolset withholds its tool from the model, saying so in the log.
///
/// JSON parsed by serde_json never nests that deep, so only a schema built in code meets it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{tool}the {provider} adapter refused the input schema: it nests arrays and objects more \
     than {MAX_DEPTH} levels deep",
    tool = self.tool.as_deref().map(|tool| format!("tool `{tool}`: ")).unwrap_or_default()
)]
#[non_exhaustive]
pub struct SchemaTooDeep {
    /// The tool whose schema it is, when the adapter was given its declaration.
    pub tool: Option<String>,
    /// The provider whose adapter refused it.
    pub provider: &'static str,
}

impl SchemaTooDeep {
    /// The error of `provider`'s adapter, not yet naming a tool.
    pub fn new(provider: &'static str) -> Self {
        Self {
            tool: None,
            provider,
        }
    }

    /// The error naming the tool whose schema it is.
    pub fn for_tool(mut self, tool: &str) -> Self {
        self.tool = Some(tool.to_owned());
        self
    }
}

/// `Ok` when `schema` nests no deeper than [`MAX_DEPTH`], else the error of `provider`'s
/// adapter. Every adapter calls it before it walks a schema.
pub(crate) fn check_depth(schema: &Value, provider: &'static str) -> Result<(), SchemaTooDeep> {
    if json_measure::nests_deeper_than(schema, MAX_DEPTH) {
        return Err(SchemaTooDeep::new(provider));
    }
    Ok(())
}
