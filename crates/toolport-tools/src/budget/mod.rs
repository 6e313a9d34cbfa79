//! [`OutputBudget`]: a bound on how much of one tool result the model reads. Text over budget
//! keeps its head and tail; JSON keeps whole values and stays valid.

mod budgets;
mod json;
mod text;

use serde_json::Value;

pub use budgets::OutputBudgets;

use crate::ToolOutput;

/// A bound on the size of what the model reads of one tool result ([`ToolOutput::value`]), in
/// bytes. Set one for a whole toolset, or for one tool, with
/// [`McpToolsetBuilder::output_budget`](crate::McpToolsetBuilder::output_budget) (see
/// [`OutputBudgets`]).
///
/// The size is that of the text when the value is a string, else that of its compact JSON.
/// Over budget:
///
/// - **A string** keeps its head and tail, about half the budget each, with the marker
///   `[… 12,345 bytes cut …]` on a line of its own between them. Cuts fall on UTF-8 character
///   boundaries, and on line boundaries when one is near.
/// - **JSON** is never cut mid-value, and stays valid. An array keeps its leading elements
///   that fit and ends with the element `"[… 3 elements cut, 1,234 bytes …]"`; an object keeps
///   every member that fits whole, in order, and ends with the member `"…": "[… 2 members
///   cut, 99 bytes …]"`. The first element or member left out is trimmed itself by the same
///   rules into the room that is left: an array or object, or a string outside the server's
///   `structuredContent` (an error message, say, or a resource's text). The server's
///   structured content keeps every string, number, boolean and null whole or leaves it out.
/// - A budget too small for even a note gives the marker alone, which may exceed it.
///
/// Media parts are not budgeted. The whole value stays in [`ToolOutput::uncut_value`], and
/// the server's whole result in [`ToolOutput::result`], for the application.
///
/// ```
/// use toolport_tools::OutputBudget;
///
/// assert_eq!(OutputBudget::tokens(2_000), OutputBudget::bytes(8_000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OutputBudget {
    max_bytes: usize,
}

impl OutputBudget {
    /// The approximation behind [`tokens`](Self::tokens): a token is about 4 bytes of English
    /// text or JSON for the tokenizers of the major providers. Code, numbers and other scripts
    /// take more tokens per byte, so a budget in tokens is an estimate, not a guarantee.
    pub const BYTES_PER_TOKEN: usize = 4;

    /// At most `max_bytes` bytes.
    pub const fn bytes(max_bytes: usize) -> Self {
        Self { max_bytes }
    }

    /// About `max_tokens` tokens: [`BYTES_PER_TOKEN`](Self::BYTES_PER_TOKEN) bytes each.
    pub const fn tokens(max_tokens: usize) -> Self {
        Self::bytes(max_tokens.saturating_mul(Self::BYTES_PER_TOKEN))
    }

    /// No bound: for one tool of a toolset whose other tools have a budget.
    pub const fn unlimited() -> Self {
        Self::bytes(usize::MAX)
    }

    /// The bound, in bytes.
    pub const fn max_bytes(self) -> usize {
        self.max_bytes
    }

    /// `output` with its value fitted to the budget, the whole value kept in
    /// [`ToolOutput::uncut_value`] when anything was cut. `structured` is the server's
    /// `structuredContent`, whose strings are never cut.
    pub(crate) fn apply(self, mut output: ToolOutput, structured: Option<&Value>) -> ToolOutput {
        if self.max_bytes == usize::MAX {
            return output;
        }
        let fitted = match &output.value {
            Value::String(text) if structured != Some(&output.value) => {
                text::cut(text, self.max_bytes).map(Value::String)
            }
            value => {
                let size = json::size(value);
                (size > self.max_bytes).then(|| {
                    json::Trimmer::new(structured)
                        .fit(value, self.max_bytes, false)
                        .unwrap_or_else(|| Value::String(text::marker(size)))
                })
            }
        };
        if let Some(fitted) = fitted {
            output.uncut_value = Some(std::mem::replace(&mut output.value, fitted));
        }
        output
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn tokens_are_four_bytes() {
        assert_eq!(OutputBudget::tokens(10).max_bytes(), 40);
        assert_eq!(OutputBudget::tokens(usize::MAX), OutputBudget::unlimited());
    }

    #[test]
    fn an_output_within_budget_is_untouched() {
        let output = OutputBudget::bytes(5).apply(ToolOutput::value(json!("hello")), None);
        assert_eq!(output.value, json!("hello"));
        assert_eq!(output.uncut_value, None);
    }

    #[test]
    fn the_budget_edge_is_inclusive() {
        let budget = OutputBudget::bytes(64);
        let exact = budget.apply(ToolOutput::value(json!("é".repeat(32))), None);
        assert!(!exact.is_cut());
        let over = budget.apply(
            ToolOutput::value(json!(format!("{}x", "é".repeat(32)))),
            None,
        );
        assert!(over.is_cut());
        assert!(over.value.as_str().unwrap().len() <= 64);
    }

    #[test]
    fn a_text_value_is_cut_and_the_whole_kept() {
        let text = "word ".repeat(1_000);
        let output = OutputBudget::bytes(200).apply(ToolOutput::value(json!(text)), None);
        let cut = output.value.as_str().unwrap();
        assert!(cut.len() <= 200, "{cut}");
        assert!(cut.contains("bytes cut …]"));
        assert_eq!(output.uncut_value, Some(json!(text)));
    }

    #[test]
    fn a_json_value_is_trimmed_and_the_whole_kept() {
        let value = json!({"items": (0..1_000).collect::<Vec<_>>()});
        let output = OutputBudget::bytes(100).apply(ToolOutput::value(value.clone()), None);
        assert!(json::size(&output.value) <= 100, "{}", output.value);
        assert!(output.value["items"].is_array());
        assert_eq!(output.uncut_value, Some(value));
    }

    #[test]
    fn structured_text_is_never_cut_mid_string() {
        let structured = json!("s".repeat(1_000));
        let output = OutputBudget::bytes(100)
            .apply(ToolOutput::value(structured.clone()), Some(&structured));
        assert_eq!(output.value, json!(text::marker(1_002)));
    }

    #[test]
    fn an_unlimited_budget_cuts_nothing() {
        let value = json!("x".repeat(10_000));
        let output = OutputBudget::unlimited().apply(ToolOutput::value(value.clone()), None);
        assert_eq!(output.value, value);
        assert_eq!(output.uncut_value, None);
    }

    #[test]
    fn the_error_flag_and_parts_survive() {
        let output = ToolOutput::error(json!({"error": "e".repeat(500)}));
        let output = OutputBudget::bytes(120).apply(output, None);
        assert!(output.is_error);
        assert!(
            output.value["error"]
                .as_str()
                .unwrap()
                .contains("bytes cut")
        );
    }
}
