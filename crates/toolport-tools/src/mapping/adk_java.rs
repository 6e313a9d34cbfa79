//! The `adk-java` preset: the `text_output` shape that ADK Java's MCP tools give the model.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};

use super::{MappingError, ResultMapper};
use crate::output::ToolOutput;

/// Maps a result the way ADK Java's `AbstractMcpTool.wrapCallResult` does, so that an agent
/// moved from ADK Java sees the same function responses.
///
/// - `"isError": true`: `{"error": "Tool execution failed. Details: <text>"}`, where `<text>`
///   is the first text block's text. With no text block, or an empty one, the value is
///   `{"error": "Tool execution failed."}` with no `Details:` part, as in ADK Java.
///   `is_error` is true.
/// - No content: `{}`.
/// - Otherwise every text block, in order, becomes one entry of
///   `{"text_output": [...]}`: the parsed object when the text is a JSON object, else
///   `{"text": "<the text>"}`. Other blocks beside text are skipped.
/// - Content with no text block at all (only images, say) is a [`MappingError`]. ADK Java
///   answers the model with an error map there; here the caller decides.
///
/// `structuredContent` and `_meta` are never read, and `parts` is always empty.
#[derive(Debug, Clone, Copy, Default)]
pub struct AdkJavaMapper;

impl ResultMapper for AdkJavaMapper {
    fn map(&self, result: &CallToolResult) -> Result<ToolOutput, MappingError> {
        if result.is_error == Some(true) {
            return Ok(ToolOutput::error(json!({
                "error": error_message(&result.content)
            })));
        }
        if result.content.is_empty() {
            return Ok(ToolOutput::value(json!({})));
        }
        let text_output: Vec<Value> = result
            .content
            .iter()
            .filter_map(ContentBlock::as_text)
            .map(|block| text_entry(&block.text))
            .collect();
        if text_output.is_empty() {
            return Err(MappingError::new(format!(
                "tool returned non-text content ({}); the adk-java mapping reads text only",
                kinds(&result.content)
            )));
        }
        Ok(ToolOutput::value(json!({ "text_output": text_output })))
    }
}

/// ADK Java's error string, with the first text block as its details.
fn error_message(content: &[ContentBlock]) -> String {
    match content.iter().find_map(ContentBlock::as_text) {
        Some(block) if !block.text.is_empty() => {
            format!("Tool execution failed. Details: {}", block.text)
        }
        _ => "Tool execution failed.".to_owned(),
    }
}

/// One `text_output` entry: a JSON object as itself, anything else wrapped as `{"text": ...}`.
fn text_entry(text: &str) -> Value {
    if let Ok(Value::Object(object)) = serde_json::from_str::<Value>(text) {
        Value::Object(object)
    } else {
        json!({ "text": text })
    }
}

/// The kinds of the blocks, in first-seen order without repeats: `image, audio`.
fn kinds(content: &[ContentBlock]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for block in content {
        let kind = match block {
            ContentBlock::Text(_) => "text",
            ContentBlock::Image(_) => "image",
            ContentBlock::Audio(_) => "audio",
            ContentBlock::Resource(_) => "resource",
            ContentBlock::ResourceLink(_) => "resource_link",
            _ => "unknown",
        };
        if !seen.contains(&kind) {
            seen.push(kind);
        }
    }
    seen.join(", ")
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn map(wire: Value) -> Result<ToolOutput, MappingError> {
        let result: CallToolResult = serde_json::from_value(wire).unwrap();
        AdkJavaMapper.map(&result)
    }

    fn ok(wire: Value) -> ToolOutput {
        map(wire).unwrap()
    }

    #[test]
    fn error_uses_the_first_text_block() {
        let output = ok(json!({
            "content": [
                {"type": "text", "text": "no such file"},
                {"type": "text", "text": "second block is dropped"}
            ],
            "isError": true
        }));
        assert_eq!(
            output.value,
            json!({"error": "Tool execution failed. Details: no such file"})
        );
        assert!(output.is_error);
        assert!(output.parts.is_empty());
    }

    #[test]
    fn error_without_content_has_no_details() {
        let output = ok(json!({"content": [], "isError": true}));
        assert_eq!(output.value, json!({"error": "Tool execution failed."}));
        assert!(output.is_error);
    }

    #[test]
    fn error_with_empty_text_has_no_details() {
        let output = ok(json!({"content": [{"type": "text", "text": ""}], "isError": true}));
        assert_eq!(output.value, json!({"error": "Tool execution failed."}));
    }

    #[test]
    fn error_reads_the_first_text_block_after_media() {
        let output = ok(json!({
            "content": [
                {"type": "image", "data": "iVBORw0=", "mimeType": "image/png"},
                {"type": "text", "text": "too late"}
            ],
            "isError": true
        }));
        assert_eq!(
            output.value,
            json!({"error": "Tool execution failed. Details: too late"})
        );
        assert!(output.is_error);
    }

    #[test]
    fn error_ignores_structured_content_and_json_text() {
        let output = ok(json!({
            "content": [{"type": "text", "text": "{\"code\": 4}"}],
            "structuredContent": {"code": 4},
            "isError": true
        }));
        assert_eq!(
            output.value,
            json!({"error": "Tool execution failed. Details: {\"code\": 4}"})
        );
    }

    #[test]
    fn empty_content_is_an_empty_object() {
        let output = ok(json!({"content": []}));
        assert_eq!(output.value, json!({}));
        assert!(!output.is_error);
        assert!(output.parts.is_empty());
    }

    #[test]
    fn empty_content_ignores_structured_content() {
        let output = ok(json!({"content": [], "structuredContent": {"a": 1}}));
        assert_eq!(output.value, json!({}));
    }

    #[test]
    fn is_error_false_is_a_success() {
        let output = ok(json!({"content": [{"type": "text", "text": "ok"}], "isError": false}));
        assert_eq!(output.value, json!({"text_output": [{"text": "ok"}]}));
        assert!(!output.is_error);
    }

    #[test]
    fn plain_text_is_wrapped() {
        let output = ok(json!({"content": [{"type": "text", "text": "hello"}]}));
        assert_eq!(output.value, json!({"text_output": [{"text": "hello"}]}));
    }

    #[test]
    fn json_object_text_is_used_as_is() {
        let output = ok(json!({
            "content": [{"type": "text", "text": "{\"temp\": 21, \"unit\": \"C\"}"}]
        }));
        assert_eq!(
            output.value,
            json!({"text_output": [{"temp": 21, "unit": "C"}]})
        );
    }

    #[test]
    fn json_that_is_not_an_object_is_wrapped_as_text() {
        let output = ok(json!({
            "content": [
                {"type": "text", "text": "[1, 2]"},
                {"type": "text", "text": "42"},
                {"type": "text", "text": "\"quoted\""},
                {"type": "text", "text": ""}
            ]
        }));
        assert_eq!(
            output.value,
            json!({"text_output": [
                {"text": "[1, 2]"},
                {"text": "42"},
                {"text": "\"quoted\""},
                {"text": ""}
            ]})
        );
    }

    #[test]
    fn several_text_blocks_keep_their_order() {
        let output = ok(json!({
            "content": [
                {"type": "text", "text": "first"},
                {"type": "text", "text": "{\"n\": 2}"},
                {"type": "text", "text": "third"}
            ]
        }));
        assert_eq!(
            output.value,
            json!({"text_output": [{"text": "first"}, {"n": 2}, {"text": "third"}]})
        );
    }

    #[test]
    fn media_beside_text_is_skipped() {
        let output = ok(json!({
            "content": [
                {"type": "image", "data": "iVBORw0=", "mimeType": "image/png"},
                {"type": "text", "text": "caption"},
                {"type": "resource", "resource": {"uri": "file:///a.txt", "text": "body"}}
            ]
        }));
        assert_eq!(output.value, json!({"text_output": [{"text": "caption"}]}));
        assert!(output.parts.is_empty());
    }

    #[test]
    fn structured_content_is_never_read() {
        let output = ok(json!({
            "content": [{"type": "text", "text": "summary"}],
            "structuredContent": {"rows": 3}
        }));
        assert_eq!(output.value, json!({"text_output": [{"text": "summary"}]}));
    }

    #[test]
    fn structured_content_without_content_is_an_empty_object() {
        let output = ok(json!({"structuredContent": {"rows": 3}}));
        assert_eq!(output.value, json!({}));
    }

    #[test]
    fn only_an_image_is_an_error() {
        let error = map(json!({
            "content": [{"type": "image", "data": "iVBORw0=", "mimeType": "image/png"}]
        }))
        .unwrap_err();
        assert_eq!(
            error.reason,
            "tool returned non-text content (image); the adk-java mapping reads text only"
        );
    }

    #[test]
    fn the_error_names_each_kind_once_in_order() {
        let error = map(json!({
            "content": [
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                {"type": "image", "data": "iVBORw0=", "mimeType": "image/png"},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                {"type": "resource", "resource": {"uri": "file:///a.bin", "blob": "AAE="}},
                {"type": "resource_link", "uri": "file:///b", "name": "b"}
            ]
        }))
        .unwrap_err();
        assert_eq!(
            error.reason,
            "tool returned non-text content (audio, image, resource, resource_link); \
             the adk-java mapping reads text only"
        );
    }
}
