//! The `rich` preset (the default): structured content first, text parsed where it is JSON,
//! resources readable in the value, media as parts.

mod parts;
mod resources;
mod summary;
#[cfg(test)]
mod tests;

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value};

use super::{MappingError, ResultMapper};
use crate::output::{MediaPart, ToolOutput};

/// The `error` text when a result has `"isError": true` and no text block.
const NO_ERROR_TEXT: &str = "the tool reported an error without a message";

/// Gives the model the most useful value the result holds, with every resource it can read or
/// follow, and every piece of media beside it.
///
/// **`value`**, for a result without `"isError": true`:
///
/// 1. `structuredContent`, when present and not `null`, alone and unchanged, since it is the
///    result the tool's output schema describes (the content beside it is, by the protocol,
///    its rendering for older clients). An explicit `null` counts as absent.
/// 2. Otherwise, when the content holds no resource (embedded or linked), the text blocks.
///    One text block becomes its parsed JSON when the text is valid JSON (of any kind: `"42"`
///    becomes the number 42), else the text as a string. Several text blocks become an array
///    with one such value per block, in order.
/// 3. Otherwise, when the content holds resources, an object with:
///    - `text`: the text blocks' value as in 2, when there is a text block;
///    - `content`: what arrived, when there is no text block (as in 4);
///    - `resources`: one entry per embedded resource or resource link, in content order.
///      A link is `{"type": "resource_link", "uri", "name"}` with `title`, `description`,
///      `mimeType` and `size` when the server gave them, so the model can follow it. An
///      embedded text resource is `{"type": "resource", "uri", "mimeType", "text"}`. An
///      embedded blob is `{"type": "resource", "uri", "mimeType", "attached": "binary
///      content, 48 bytes, as a media part"}`: its bytes stay in `parts`. `mimeType` is there
///      only when the server gave one.
/// 4. Otherwise, when the content holds images or audio only, an object that says what
///    arrived, so the model is not left with nothing: `{"content": "1 image and 2 audio clips
///    attached"}`. The kinds are counted as images, audio clips, resources (embedded) and
///    resource links, joined with `, ` and `and`.
/// 5. Otherwise (no content at all): `{}`.
///
/// **Errors.** With `"isError": true` the value is an object with `error`, every text block
/// joined with a newline (or `"the tool reported an error without a message"` when there is
/// no text block); `structuredContent`, the server's structured content unchanged, when it is
/// present and not `null`; and `resources` as in 3, when there are any. `is_error` is true.
///
/// **`parts`** holds, in content order and in every case above: images as
/// [`MediaPart::Image`], audio as [`MediaPart::Audio`], embedded resources (text or blob) and
/// resource links as [`MediaPart::Resource`]. A link has no `text` or `blob`. Text blocks are
/// never parts. Annotations, icons and `_meta` are not carried over.
#[derive(Debug, Clone, Copy, Default)]
pub struct RichMapper;

impl ResultMapper for RichMapper {
    fn map(&self, result: &CallToolResult) -> Result<ToolOutput, MappingError> {
        let parts: Vec<MediaPart> = result
            .content
            .iter()
            .filter_map(parts::media_part)
            .collect();
        let texts: Vec<&str> = result
            .content
            .iter()
            .filter_map(ContentBlock::as_text)
            .map(|block| block.text.as_str())
            .collect();
        let resources = resources::entries(&result.content);
        let structured = result
            .structured_content
            .as_ref()
            .filter(|structured| !structured.is_null());

        if result.is_error == Some(true) {
            let message = if texts.is_empty() {
                NO_ERROR_TEXT.to_owned()
            } else {
                texts.join("\n")
            };
            let mut value = Map::new();
            value.insert("error".to_owned(), Value::String(message));
            if let Some(structured) = structured {
                value.insert("structuredContent".to_owned(), structured.clone());
            }
            insert_resources(&mut value, resources);
            return Ok(ToolOutput::error(Value::Object(value)).with_parts(parts));
        }

        let value = match (structured, text_value(&texts)) {
            (Some(structured), _) => structured.clone(),
            (None, Some(text)) if resources.is_empty() => text,
            (None, None) if resources.is_empty() => {
                Value::Object(summary::attached(&result.content))
            }
            (None, text) => {
                let mut value = match text {
                    Some(text) => Map::from_iter([("text".to_owned(), text)]),
                    None => summary::attached(&result.content),
                };
                insert_resources(&mut value, resources);
                Value::Object(value)
            }
        };
        Ok(ToolOutput::value(value).with_parts(parts))
    }
}

/// The text blocks' value: `None` without one, the parsed text of a single one, or an array
/// with one parsed text per block.
fn text_value(texts: &[&str]) -> Option<Value> {
    match texts {
        [] => None,
        [text] => Some(parse_text(text)),
        several => Some(Value::Array(
            several.iter().map(|text| parse_text(text)).collect(),
        )),
    }
}

/// A text block's value: its JSON when it is valid JSON, else the text itself.
fn parse_text(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// Adds the `resources` member when there are resources.
fn insert_resources(value: &mut Map<String, Value>, resources: Vec<Value>) {
    if !resources.is_empty() {
        value.insert("resources".to_owned(), Value::Array(resources));
    }
}
