//! [`ToolAnswer`]: the answer to one call, as the model will read it.

use super::FunctionCall;
use crate::ToolOutput;

/// The answer to one [`FunctionCall`], made by
/// [`OfferedTools::call_all`](super::OfferedTools::call_all).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolAnswer {
    /// The call answered.
    pub call: FunctionCall,
    /// The tool's output, its value already fitted to the tool's
    /// [`OutputBudget`](crate::OutputBudget) (the whole in
    /// [`uncut_value`](ToolOutput::uncut_value)); or, for a call that could not run (a name no
    /// tool has, arguments that are not a JSON object, a tool-level [`ToolError`](crate::ToolError)),
    /// an error output whose value is `{"error": "…"}`.
    pub output: ToolOutput,
}
