//! [`Budgets`]: a toolset's output budgets, one for the toolset and one per tool name.

use std::collections::HashMap;

use super::OutputBudget;

/// The output budgets of one toolset: a tool's own, else the toolset's, else none.
#[derive(Debug, Clone, Default)]
pub(crate) struct Budgets {
    toolset: Option<OutputBudget>,
    tools: HashMap<String, OutputBudget>,
}

impl Budgets {
    /// Sets the budget of every tool without one of its own.
    pub(crate) fn set_toolset(&mut self, budget: OutputBudget) {
        self.toolset = Some(budget);
    }

    /// Sets the budget of the tool the server names `name`.
    pub(crate) fn set_tool(&mut self, name: String, budget: OutputBudget) {
        self.tools.insert(name, budget);
    }

    /// The budget of the tool named `name`: its own, else the toolset's.
    pub(crate) fn for_tool(&self, name: &str) -> Option<OutputBudget> {
        self.tools.get(name).copied().or(self.toolset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_budget_by_default() {
        assert_eq!(Budgets::default().for_tool("any"), None);
    }

    #[test]
    fn a_tool_budget_beats_the_toolset_budget() {
        let mut budgets = Budgets::default();
        budgets.set_toolset(OutputBudget::bytes(1_000));
        budgets.set_tool("search".to_owned(), OutputBudget::tokens(50));
        budgets.set_tool("export".to_owned(), OutputBudget::unlimited());
        assert_eq!(budgets.for_tool("search"), Some(OutputBudget::bytes(200)));
        assert_eq!(budgets.for_tool("export"), Some(OutputBudget::unlimited()));
        assert_eq!(budgets.for_tool("other"), Some(OutputBudget::bytes(1_000)));
    }

    #[test]
    fn a_tool_budget_applies_without_a_toolset_budget() {
        let mut budgets = Budgets::default();
        budgets.set_tool("search".to_owned(), OutputBudget::bytes(10));
        assert_eq!(budgets.for_tool("search"), Some(OutputBudget::bytes(10)));
        assert_eq!(budgets.for_tool("other"), None);
    }
}
