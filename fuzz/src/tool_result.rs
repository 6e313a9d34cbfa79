//! The fuzz input as a server's `CallToolResult`, and what every [`ResultMapper`]'s output must
//! be: valid JSON, flagged as an error exactly when the result was, and never cut.

use rmcp::model::{CallToolResult, ContentBlock};
use toolport_tools::ToolOutput;

use crate::json::assert_round_trips;

/// `data` as a `CallToolResult`, or `None` when it is not one (the target then skips it).
pub fn parse(data: &[u8]) -> Option<CallToolResult> {
    serde_json::from_slice(data).ok()
}

/// Asserts what every mapper's `output` of `result` must be.
pub fn assert_sane_output(result: &CallToolResult, output: &ToolOutput) {
    assert_round_trips(&output.value, "the mapped value");
    assert_eq!(
        output.is_error,
        result.is_error == Some(true),
        "`is_error` does not follow the result's `isError`"
    );
    assert!(output.uncut_value.is_none(), "a mapper cut the value");
}

/// How many text blocks `result` holds.
pub fn text_blocks(result: &CallToolResult) -> usize {
    result
        .content
        .iter()
        .filter(|block| block.as_text().is_some())
        .count()
}

/// How many blocks of `result` are media: images, audio, embedded resources and links.
pub fn media_blocks(result: &CallToolResult) -> usize {
    result
        .content
        .iter()
        .filter(|block| {
            matches!(
                block,
                ContentBlock::Image(_)
                    | ContentBlock::Audio(_)
                    | ContentBlock::Resource(_)
                    | ContentBlock::ResourceLink(_)
            )
        })
        .count()
}
