//! [`Risk`]: how risky a tool says it is, by its annotations, and the [`Verdict`] an
//! approval policy gives a call.

use crate::ToolDefinition;

/// How risky a tool says it is, by the `readOnlyHint` and `destructiveHint` annotations of its
/// listing. These are the server's claims: name the tools of a server you do not trust in an
/// [`ApprovalPolicy`](crate::ApprovalPolicy)'s sets instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Risk {
    /// `readOnlyHint: true`: the tool changes nothing.
    ReadOnly,
    /// `destructiveHint: false` and not read-only: the tool adds, but does not delete or
    /// overwrite.
    Additive,
    /// `destructiveHint: true`, or `readOnlyHint: false` without a `destructiveHint` (the
    /// protocol's default for a tool that writes is destructive).
    Destructive,
    /// Neither annotation: the tool says nothing about itself.
    Unknown,
}

impl Risk {
    /// The risk `tool` claims.
    pub fn of(tool: &ToolDefinition) -> Self {
        let Some(annotations) = &tool.annotations else {
            return Self::Unknown;
        };
        match (annotations.read_only_hint, annotations.destructive_hint) {
            (Some(true), _) => Self::ReadOnly,
            (_, Some(true)) | (Some(false), None) => Self::Destructive,
            (_, Some(false)) => Self::Additive,
            (None, None) => Self::Unknown,
        }
    }
}

/// What an approval policy does with a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Verdict {
    /// Let it go to the server.
    Allow,
    /// Ask the application's approver.
    Ask,
    /// Refuse it; the model reads why.
    Deny,
}
