//! [`OutputBudgets`]: a toolset's output budgets, one for the toolset and one per tool name.

use std::collections::HashMap;

use super::OutputBudget;

/// The output budgets of one toolset: a tool's own, else the toolset's, else none (the
/// default). An [`OutputBudget`] converts into the budget of every tool; give them to
/// [`McpToolsetBuilder::output_budget`](crate::McpToolsetBuilder::output_budget).
///
/// ```
/// use toolport_tools::{OutputBudget, OutputBudgets};
///
/// // About 2,000 tokens for each tool's result, 64 KiB for list_tasks, no bound for export.
/// let budgets = OutputBudgets::from(OutputBudget::tokens(2_000))
///     .tool("list_tasks", OutputBudget::bytes(64 * 1024))
///     .tool("export", OutputBudget::unlimited());
/// assert_eq!(budgets.for_tool("export"), Some(OutputBudget::unlimited()));
/// assert_eq!(budgets.for_tool("add_task"), Some(OutputBudget::tokens(2_000)));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[must_use]
pub struct OutputBudgets {
    toolset: Option<OutputBudget>,
    tools: HashMap<String, OutputBudget>,
}

impl From<OutputBudget> for OutputBudgets {
    fn from(budget: OutputBudget) -> Self {
        Self {
            toolset: Some(budget),
            tools: HashMap::new(),
        }
    }
}

impl OutputBudgets {
    /// Bounds the results of the tool the server names `name` by `budget`, which beats the
    /// toolset's; [`OutputBudget::unlimited`] exempts the tool.
    pub fn tool(mut self, name: impl Into<String>, budget: OutputBudget) -> Self {
        self.tools.insert(name.into(), budget);
        self
    }

    /// The budget of the tool the server names `name`: its own, else the toolset's.
    pub fn for_tool(&self, name: &str) -> Option<OutputBudget> {
        self.tools.get(name).copied().or(self.toolset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_budget_by_default() {
        assert_eq!(OutputBudgets::default().for_tool("any"), None);
    }

    #[test]
    fn a_tool_budget_beats_the_toolset_budget() {
        let budgets = OutputBudgets::from(OutputBudget::bytes(1_000))
            .tool("search", OutputBudget::tokens(50))
            .tool("export", OutputBudget::unlimited());
        assert_eq!(budgets.for_tool("search"), Some(OutputBudget::bytes(200)));
        assert_eq!(budgets.for_tool("export"), Some(OutputBudget::unlimited()));
        assert_eq!(budgets.for_tool("other"), Some(OutputBudget::bytes(1_000)));
    }

    #[test]
    fn a_tool_budget_applies_without_a_toolset_budget() {
        let budgets = OutputBudgets::default().tool("search", OutputBudget::bytes(10));
        assert_eq!(budgets.for_tool("search"), Some(OutputBudget::bytes(10)));
        assert_eq!(budgets.for_tool("other"), None);
    }
}
