//! [`ContractLock`]: what a server's tools looked like when they were pinned, and the check of
//! what they look like now.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::diff::{ContractChange, ContractChangeKind, ToolSchema};
use super::pinned::Pinned;
use super::schema_diff::schema_changes;
use crate::ToolDefinition;
use crate::digest;

/// A pin of a server's tools: for each tool by its server name, its description and its
/// canonical input and output schemas (object keys sorted, so key order and formatting do not
/// count).
///
/// Write it with [`to_json`](Self::to_json) (the `toolport.lock` that `toolport lock` writes),
/// read it with [`from_json`](Self::from_json), and compare it with the server's tools of
/// today with [`check`](Self::check), so that a CI run fails when a server it depends on
/// changes a tool under it, and says what changed.
///
/// ```
/// use serde_json::json;
/// use toolport_tools::ToolDefinition;
/// use toolport_tools::contract::ContractLock;
///
/// let tool = |limit_type: &str| -> ToolDefinition {
///     serde_json::from_value(json!({
///         "name": "search", "description": "Searches.",
///         "inputSchema": {
///             "type": "object",
///             "properties": {"query": {"type": "string"}, "limit": {"type": limit_type}},
///         },
///     }))
///     .unwrap()
/// };
/// let pinned = ContractLock::from_tools([&tool("integer")]);
/// assert!(pinned.check(&ContractLock::from_tools([&tool("integer")])).is_empty());
/// let changes = pinned.check(&ContractLock::from_tools([&tool("string")]));
/// assert_eq!(
///     changes[0].to_string(),
///     "search: input property `limit` retyped from integer to string"
/// );
/// ```
///
/// A lock file of format 1, from an earlier version, kept only a sha256 of each part: it is
/// still read, and a check against it says only that a schema changed, not what changed in it.
/// [`to_json`](Self::to_json) writes format 2 unless a pin holds only sha256s.
///
/// It is serialized as its file has it (`file.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ContractLock {
    /// The allowlist the pin was made with, if any: the only tools [`check`](Self::check)
    /// compares.
    pub allow: Option<BTreeSet<String>>,
    /// Each tool's pin, by the server's name.
    pub tools: BTreeMap<String, ToolPin>,
}

/// One tool's pin.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolPin {
    /// The input schema, canonical.
    pub input_schema: Pinned<Map<String, Value>>,
    /// The output schema, canonical, when the tool has one.
    pub output_schema: Option<Pinned<Map<String, Value>>>,
    /// The description (the empty text when it has none).
    pub description: Pinned<String>,
}

impl ToolPin {
    /// The pin of `tool` as it is listed now, every part whole.
    pub fn of(tool: &ToolDefinition) -> Self {
        Self {
            input_schema: Pinned::Whole(digest::canonical_object(&tool.input_schema)),
            output_schema: tool
                .output_schema
                .as_ref()
                .map(|schema| Pinned::Whole(digest::canonical_object(schema))),
            description: Pinned::Whole(tool.description.as_deref().unwrap_or_default().to_owned()),
        }
    }

    /// Every way `now` differs from this pin of the same tool.
    fn changes_to(&self, now: &ToolPin) -> Vec<ContractChangeKind> {
        let mut changes = Vec::new();
        if self.description.sha256() != now.description.sha256() {
            changes.push(ContractChangeKind::Description);
        }
        changes.extend(changes_in_schema(
            ToolSchema::Input,
            &self.input_schema,
            &now.input_schema,
        ));
        match (&self.output_schema, &now.output_schema) {
            (None, None) => {}
            (None, Some(_)) => changes.push(ContractChangeKind::OutputSchemaAdded),
            (Some(_), None) => changes.push(ContractChangeKind::OutputSchemaRemoved),
            (Some(pinned), Some(now)) => {
                changes.extend(changes_in_schema(ToolSchema::Output, pinned, now));
            }
        }
        changes
    }
}

/// How `now` differs from the `pinned` schema: property by property when both are whole, else
/// by their sha256s.
fn changes_in_schema(
    schema: ToolSchema,
    pinned: &Pinned<Map<String, Value>>,
    now: &Pinned<Map<String, Value>>,
) -> Vec<ContractChangeKind> {
    match (pinned.whole(), now.whole()) {
        (Some(pinned), Some(now)) if pinned != now => schema_changes(schema, pinned, now),
        (Some(_), Some(_)) => Vec::new(),
        _ if pinned.sha256() != now.sha256() => {
            vec![ContractChangeKind::SchemaSha256Changed { schema }]
        }
        _ => Vec::new(),
    }
}

impl ContractLock {
    /// The pin of `tools`, as listed now (filter them first: a lock pins what the agent uses).
    pub fn from_tools<'a>(tools: impl IntoIterator<Item = &'a ToolDefinition>) -> Self {
        Self {
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
    /// tool name: tools added or removed, descriptions changed, and what changed in each schema.
    /// Empty when they match.
    ///
    /// With an allowlist (see [`with_allowlist`](Self::with_allowlist)), only the tools it
    /// names are compared, on both sides: a tool it leaves out is neither added nor removed,
    /// and a tool it names that the server no longer lists is removed.
    pub fn check(&self, now: &ContractLock) -> Vec<ContractChange> {
        let compared = |name: &String| self.allow.as_ref().is_none_or(|allow| allow.contains(name));
        let mut changes = Vec::new();
        for (name, pinned) in self.tools.iter().filter(|(name, _)| compared(name)) {
            match now.tools.get(name) {
                Some(current) => changes.extend(
                    pinned
                        .changes_to(current)
                        .into_iter()
                        .map(|kind| ContractChange::new(name, kind)),
                ),
                None => changes.push(ContractChange::new(name, ContractChangeKind::Removed)),
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

    /// A lock read back from [`to_json`](Self::to_json)'s text, of format 2 or 1.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }
}
