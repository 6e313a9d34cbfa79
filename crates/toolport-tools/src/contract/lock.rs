//! [`ContractLock`]: what a server's tools looked like when they were pinned, and the check of
//! what they look like now.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::diff::{ContractChange, ContractChangeKind};
use super::digest;
use crate::ToolDefinition;

/// The version of the lock file's format.
const FORMAT: u32 = 1;

/// A pin of a server's tools: for each tool by its server name, a sha256 of its canonical input
/// schema, output schema and description.
///
/// Write it with [`to_json`](Self::to_json) (the `toolport.lock` that `toolport lock` writes),
/// read it with [`from_json`](Self::from_json), and compare it with the server's tools of
/// today with [`check`](Self::check), so that a CI run fails when a server it depends on
/// changes a tool under it.
///
/// ```
/// use serde_json::json;
/// use toolport_tools::ToolDefinition;
/// use toolport_tools::contract::ContractLock;
///
/// let tool = |description: &str| -> ToolDefinition {
///     serde_json::from_value(json!({
///         "name": "search", "description": description,
///         "inputSchema": {"type": "object"},
///     }))
///     .unwrap()
/// };
/// let pinned = ContractLock::from_tools([&tool("Searches.")]);
/// assert!(pinned.check(&ContractLock::from_tools([&tool("Searches.")])).is_empty());
/// let now = ContractLock::from_tools([&tool("Searches, and deletes what it finds.")]);
/// let changes = pinned.check(&now);
/// assert_eq!(changes[0].to_string(), "search: the description changed");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ContractLock {
    /// The format's version.
    pub format: u32,
    /// The allowlist the pin was made with, if any: the only tools [`check`](Self::check)
    /// compares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow: Option<BTreeSet<String>>,
    /// Each tool's pin, by the server's name.
    pub tools: BTreeMap<String, ToolPin>,
}

/// One tool's pin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolPin {
    /// The sha256 of the canonical input schema.
    pub input_schema: String,
    /// The sha256 of the canonical output schema, when the tool has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<String>,
    /// The sha256 of the description (of the empty text when it has none).
    pub description: String,
}

impl ToolPin {
    /// The pin of `tool` as it is listed now.
    pub fn of(tool: &ToolDefinition) -> Self {
        Self {
            input_schema: digest::of_json(&Value::Object(tool.input_schema.as_ref().clone())),
            output_schema: tool
                .output_schema
                .as_ref()
                .map(|schema| digest::of_json(&Value::Object(schema.as_ref().clone()))),
            description: digest::of_text(tool.description.as_deref().unwrap_or_default()),
        }
    }
}

impl ContractLock {
    /// The pin of `tools`, as listed now (filter them first: a lock pins what the agent uses).
    pub fn from_tools<'a>(tools: impl IntoIterator<Item = &'a ToolDefinition>) -> Self {
        Self {
            format: FORMAT,
            allow: None,
            tools: tools
                .into_iter()
                .map(|tool| (tool.name.to_string(), ToolPin::of(tool)))
                .collect(),
        }
    }

    /// The lock, noting the allowlist its tools were filtered by: the only tools
    /// [`check`](Self::check) compares. Given to a lock read back, it narrows what a check
    /// compares to these tools.
    #[must_use]
    pub fn with_allowlist(mut self, allow: impl IntoIterator<Item = String>) -> Self {
        self.allow = Some(allow.into_iter().collect());
        self
    }

    /// Every way the tools pinned in `now` (the server's tools as listed today, from
    /// [`from_tools`](Self::from_tools) or
    /// [`McpToolset::contract_lock`](crate::McpToolset::contract_lock)) differ from this pin, by
    /// tool name: tools added, removed, or with a changed input schema, output schema or
    /// description. Empty when they match.
    ///
    /// With an allowlist (see [`with_allowlist`](Self::with_allowlist)), only the tools it
    /// names are compared, on both sides: a tool it leaves out is neither added nor removed,
    /// and a tool it names that the server no longer lists is removed.
    pub fn check(&self, now: &ContractLock) -> Vec<ContractChange> {
        let compared = |name: &String| self.allow.as_ref().is_none_or(|allow| allow.contains(name));
        let mut changes = Vec::new();
        for (name, pinned) in self.tools.iter().filter(|(name, _)| compared(name)) {
            let Some(current) = now.tools.get(name) else {
                changes.push(ContractChange::new(name, ContractChangeKind::Removed));
                continue;
            };
            if pinned.input_schema != current.input_schema {
                changes.push(ContractChange::new(name, ContractChangeKind::InputSchema));
            }
            if pinned.output_schema != current.output_schema {
                changes.push(ContractChange::new(name, ContractChangeKind::OutputSchema));
            }
            if pinned.description != current.description {
                changes.push(ContractChange::new(name, ContractChangeKind::Description));
            }
        }
        for name in now
            .tools
            .keys()
            .filter(|name| compared(name) && !self.tools.contains_key(*name))
        {
            changes.push(ContractChange::new(name, ContractChangeKind::Added));
        }
        changes.sort_by(|a, b| a.tool.cmp(&b.tool));
        changes
    }

    /// The lock as the pretty JSON of a `toolport.lock` file, ending in a newline.
    pub fn to_json(&self) -> String {
        let mut json = serde_json::to_string_pretty(self).expect("a lock always serializes");
        json.push('\n');
        json
    }

    /// A lock read back from [`to_json`](Self::to_json)'s text.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }
}
