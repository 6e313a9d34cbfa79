//! [`ToolFilter`]: which of a server's tools the model may see, by allowlist or predicate.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use crate::{ReadonlyContext, ToolDefinition};

/// Decides, per caller, whether the model may see a tool.
///
/// Any `Fn(&ToolDefinition, Option<&ReadonlyContext>) -> bool` is a predicate.
pub trait ToolPredicate: Send + Sync {
    /// Whether `tool` is offered to the caller described by `context`.
    fn allows(&self, tool: &ToolDefinition, context: Option<&ReadonlyContext>) -> bool;
}

impl<F> ToolPredicate for F
where
    F: Fn(&ToolDefinition, Option<&ReadonlyContext>) -> bool + Send + Sync,
{
    fn allows(&self, tool: &ToolDefinition, context: Option<&ReadonlyContext>) -> bool {
        self(tool, context)
    }
}

/// Which tools of a server are offered. Server descriptions are untrusted input: filter them
/// down to what the agent needs.
#[derive(Clone, Default)]
pub enum ToolFilter {
    /// Every tool the server lists.
    #[default]
    All,
    /// Only the named tools.
    Allow(BTreeSet<String>),
    /// The tools the predicate allows.
    Predicate(Arc<dyn ToolPredicate>),
}

impl ToolFilter {
    /// Whether `tool` passes for this caller.
    pub fn allows(&self, tool: &ToolDefinition, context: Option<&ReadonlyContext>) -> bool {
        match self {
            Self::All => true,
            Self::Allow(names) => names.contains(tool.name.as_ref()),
            Self::Predicate(predicate) => predicate.allows(tool, context),
        }
    }

    /// The allowlisted names, when this is an allowlist.
    pub fn allowlist(&self) -> Option<&BTreeSet<String>> {
        match self {
            Self::Allow(names) => Some(names),
            _ => None,
        }
    }
}

impl fmt::Debug for ToolFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::All => f.write_str("All"),
            Self::Allow(names) => f.debug_tuple("Allow").field(names).finish(),
            Self::Predicate(_) => f.write_str("Predicate(..)"),
        }
    }
}
