//! [`ReplayPolicy`]: which of a toolset's calls may reach the server twice, and which carry an
//! idempotency key that makes a second one safe.

use std::collections::HashMap;

use toolport_session::CallReplay;

use crate::{Idempotency, ToolDefinition};

/// Which calls of a toolset the session may send again: a call lost with the connection, or
/// one that timed out. Give it to
/// [`McpToolsetBuilder::replay`](crate::McpToolsetBuilder::replay).
///
/// By default (`ReplayPolicy::default()`) a call lost with the connection is sent again only
/// when its tool is annotated `readOnlyHint` or `idempotentHint`, and no call that timed out is
/// sent again. A tool given an [`Idempotency`] key is also replayed, and a call of it that
/// timed out is sent again with the same key, so a server that honours the key does its work
/// once.
///
/// ```
/// use toolport_tools::{Idempotency, ReplayPolicy};
///
/// let policy = ReplayPolicy::default()
///     .idempotent("charge", Idempotency::argument("idempotency_key"));
/// assert!(policy.idempotency_of("charge").is_some());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[must_use]
pub struct ReplayPolicy {
    all_calls: bool,
    idempotent: HashMap<String, Idempotency>,
}

impl ReplayPolicy {
    /// Replays any call lost with the connection, not only read-only or idempotent ones. Only
    /// when every tool of the server is safe to run twice.
    pub fn all_calls() -> Self {
        Self {
            all_calls: true,
            idempotent: HashMap::new(),
        }
    }

    /// Gives the tool the server names `name` an idempotency key: each call carries one, and a
    /// call that timed out or lost its connection is sent again with it.
    pub fn idempotent(mut self, name: impl Into<String>, idempotency: Idempotency) -> Self {
        self.idempotent.insert(name.into(), idempotency);
        self
    }

    /// The idempotency key of the tool the server names `name`, if it has one.
    pub fn idempotency_of(&self, name: &str) -> Option<&Idempotency> {
        self.idempotent.get(name)
    }

    /// Whether a call of `tool` lost with the connection is sent again, before any idempotency
    /// key: by the policy, or by the tool's annotations.
    pub(crate) fn replay_of(&self, tool: &ToolDefinition) -> CallReplay {
        let safe_to_repeat = tool.annotations.as_ref().is_some_and(|annotations| {
            annotations.read_only_hint == Some(true) || annotations.idempotent_hint == Some(true)
        });
        if self.all_calls || safe_to_repeat {
            CallReplay::OnConnectionLoss
        } else {
            CallReplay::Never
        }
    }
}
