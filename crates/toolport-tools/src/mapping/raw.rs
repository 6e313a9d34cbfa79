//! The `raw` preset: the `CallToolResult` exactly as it came over the wire, as JSON.

use rmcp::model::CallToolResult;

use super::{MappingError, ResultMapper};
use crate::output::ToolOutput;

/// Hands the model the whole `CallToolResult`, serialized as MCP puts it on the wire.
///
/// - `value` is the result as JSON with the wire's camelCase names: `content`,
///   `structuredContent`, `isError` and `_meta` when they are set (and `resultType` when the
///   result carries one). Nothing is parsed, dropped or reordered.
/// - `parts` is always empty: any media stays inside `value["content"]`.
/// - `is_error` is true exactly when the result says `"isError": true`.
#[derive(Debug, Clone, Copy, Default)]
pub struct RawMapper;

impl ResultMapper for RawMapper {
    fn map(&self, result: &CallToolResult) -> Result<ToolOutput, MappingError> {
        let value = serde_json::to_value(result).map_err(|error| {
            MappingError::new(format!("cannot serialize the tool result as JSON: {error}"))
        })?;
        Ok(if result.is_error == Some(true) {
            ToolOutput::error(value)
        } else {
            ToolOutput::value(value)
        })
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{CallToolResult, ContentBlock};
    use serde_json::{Value, json};

    use super::*;

    fn result(wire: Value) -> CallToolResult {
        serde_json::from_value(wire).unwrap()
    }

    fn map(wire: Value) -> ToolOutput {
        RawMapper.map(&result(wire)).unwrap()
    }

    #[test]
    fn value_is_the_result_as_sent() {
        let wire = json!({
            "content": [
                {"type": "text", "text": "{\"a\": 1}"},
                {"type": "image", "data": "iVBORw0=", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "hi"}},
                {"type": "resource_link", "uri": "file:///b.bin", "name": "b.bin"}
            ],
            "structuredContent": {"a": 1}
        });
        let output = map(wire.clone());
        assert_eq!(output.value, wire);
        assert!(output.parts.is_empty());
        assert!(!output.is_error);
    }

    #[test]
    fn is_error_true_is_kept_and_flagged() {
        let wire = json!({
            "content": [{"type": "text", "text": "no such file"}],
            "isError": true
        });
        let output = map(wire.clone());
        assert_eq!(output.value, wire);
        assert_eq!(output.value["isError"], json!(true));
        assert!(output.is_error);
    }

    #[test]
    fn is_error_false_is_kept_and_not_flagged() {
        let wire = json!({"content": [], "isError": false});
        let output = map(wire.clone());
        assert_eq!(output.value, wire);
        assert!(!output.is_error);
    }

    #[test]
    fn absent_fields_stay_absent() {
        let output = map(json!({"structuredContent": {"n": 2}}));
        assert_eq!(
            output.value,
            json!({"content": [], "structuredContent": {"n": 2}})
        );
        assert!(!output.is_error);
    }

    #[test]
    fn annotations_and_meta_survive() {
        let wire = json!({
            "content": [{
                "type": "text",
                "text": "hi",
                "annotations": {"audience": ["user"], "priority": 0.5},
                "_meta": {"trace": "abc"}
            }],
            "_meta": {"request": 7}
        });
        assert_eq!(map(wire.clone()).value, wire);
    }

    #[test]
    fn explicit_null_structured_content_survives() {
        let wire = json!({"content": [], "structuredContent": null});
        assert_eq!(map(wire.clone()).value, wire);
    }

    #[test]
    fn a_result_built_in_code_shows_its_result_type() {
        let output = RawMapper
            .map(&CallToolResult::success(vec![ContentBlock::text("ok")]))
            .unwrap();
        assert_eq!(
            output.value,
            json!({
                "resultType": "complete",
                "content": [{"type": "text", "text": "ok"}],
                "isError": false
            })
        );
    }
}
