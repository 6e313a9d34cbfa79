//! [`ContractChange`]: one way a server's tools differ from their pin.

use std::fmt;

use serde::Serialize;

/// One way a tool differs from its pin in a [`ContractLock`](super::ContractLock).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ContractChange {
    /// The tool, by the server's name.
    pub tool: String,
    /// What changed.
    pub kind: ContractChangeKind,
}

impl ContractChange {
    pub(crate) fn new(tool: &str, kind: ContractChangeKind) -> Self {
        Self {
            tool: tool.to_owned(),
            kind,
        }
    }
}

/// What changed about a pinned tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ContractChangeKind {
    /// The server lists a tool the pin does not have.
    Added,
    /// The server no longer lists a pinned tool.
    Removed,
    /// The input schema is not the pinned one.
    InputSchema,
    /// The output schema is not the pinned one (or one appeared or went).
    OutputSchema,
    /// The description is not the pinned one.
    Description,
}

impl fmt::Display for ContractChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ContractChangeKind::Added => "added: the server lists it, the lock does not",
            ContractChangeKind::Removed => {
                "removed: the lock pins it, the server no longer lists it"
            }
            ContractChangeKind::InputSchema => "the input schema changed",
            ContractChangeKind::OutputSchema => "the output schema changed",
            ContractChangeKind::Description => "the description changed",
        };
        write!(f, "{}: {what}", self.tool)
    }
}
