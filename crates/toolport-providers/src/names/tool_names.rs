//! [`ToolNames`]: the names the model sees, each mapped back to the server's name, and what was
//! changed to get them.

use std::collections::{BTreeMap, HashMap};

use super::change::NameChange;

/// The model-facing names of a list of tools, both ways, with every change made to them.
///
/// Made by [`ToolNamer::name_all`](super::ToolNamer::name_all). Two lists with the same names
/// in another order give equal `ToolNames`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolNames {
    /// Model-facing name to the server's name, in the model-facing names' order.
    pub(super) by_name: BTreeMap<String, String>,
    /// The server's name to the model-facing name.
    pub(super) by_original: HashMap<String, String>,
    /// What was changed, by the server's names in order.
    pub(super) changes: Vec<NameChange>,
}

impl ToolNames {
    /// The server's name of the tool the model calls `model_name`, if it is one of these.
    pub fn lookup(&self, model_name: &str) -> Option<&str> {
        self.by_name.get(model_name).map(String::as_str)
    }

    /// The name the model sees for the server's tool `original`, if it is one of these and was
    /// not withheld.
    pub fn model_name(&self, original: &str) -> Option<&str> {
        self.by_original.get(original).map(String::as_str)
    }

    /// Each model-facing name with the server's name, sorted by the model-facing name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.by_name
            .iter()
            .map(|(name, original)| (name.as_str(), original.as_str()))
    }

    /// How many tools have a model-facing name.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// Whether no tool has a model-facing name.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// What was changed to get the names, sorted by the server's names, each tool's changes in
    /// the order they were made. Empty when every name went through unchanged. A prefix asked
    /// for is not a change.
    pub fn changes(&self) -> &[NameChange] {
        &self.changes
    }
}
