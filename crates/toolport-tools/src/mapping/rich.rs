//! The `rich` preset (the default): structured content first, text parsed where it is JSON, media as parts.

use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::{Map, Value, json};

use super::{MappingError, ResultMapper};
use crate::output::{MediaPart, ToolOutput};

/// The `error` text when a result has `"isError": true` and no text block.
const NO_ERROR_TEXT: &str = "the tool reported an error without a message";

/// Gives the model the most useful value the result holds and every piece of media beside it.
///
/// **`value`**, for a result without `"isError": true`:
///
/// 1. `structuredContent`, when present and not `null`. An explicit `null` counts as absent.
/// 2. Otherwise the text blocks. One text block becomes its parsed JSON when the text is valid
///    JSON (of any kind: `"42"` becomes the number 42), else the text as a string. Several text
///    blocks become an array with one such value per block, in order.
/// 3. Otherwise, when the content holds media, an object that says what arrived, so the model
///    is not left with nothing:
///    `{"content": "1 image and 2 resources attached"}`. The kinds are counted as images,
///    audio clips, resources (embedded) and resource links, joined with `, ` and `and`.
///    Embedded *text* resources are also listed under `resources` with their text, since a
///    text-only model could not read them otherwise:
///    `{"content": "1 resource attached", "resources": [{"uri": "file:///a.md",
///    "mimeType": "text/markdown", "text": "..."}]}` (`mimeType` only when the server gave
///    one). When a text block or structured content exists, resource text stays in `parts`
///    only.
/// 4. Otherwise (no content at all): `{}`.
///
/// **Errors.** With `"isError": true` the value is `{"error": "<every text block, joined with
/// a newline>"}`, or `{"error": "the tool reported an error without a message"}` when there is
/// no text block. `structuredContent` is not read for an error. `is_error` is true.
///
/// **`parts`** holds, in content order and in every case above: images as
/// [`MediaPart::Image`], audio as [`MediaPart::Audio`], embedded resources (text or blob) and
/// resource links as [`MediaPart::Resource`]. A link has no `text` or `blob`. Text blocks are
/// never parts. Annotations and `_meta` are not carried over.
#[derive(Debug, Clone, Copy, Default)]
pub struct RichMapper;

impl ResultMapper for RichMapper {
    fn map(&self, result: &CallToolResult) -> Result<ToolOutput, MappingError> {
        let parts: Vec<MediaPart> = result.content.iter().filter_map(media_part).collect();
        let texts: Vec<&str> = result
            .content
            .iter()
            .filter_map(ContentBlock::as_text)
            .map(|block| block.text.as_str())
            .collect();

        if result.is_error == Some(true) {
            let message = if texts.is_empty() {
                NO_ERROR_TEXT.to_owned()
            } else {
                texts.join("\n")
            };
            return Ok(ToolOutput {
                value: json!({ "error": message }),
                parts,
                is_error: true,
            });
        }

        let value = match &result.structured_content {
            Some(structured) if !structured.is_null() => structured.clone(),
            _ => match texts.as_slice() {
                [] => media_summary(&result.content),
                [text] => parse_text(text),
                several => Value::Array(several.iter().map(|text| parse_text(text)).collect()),
            },
        };
        Ok(ToolOutput {
            value,
            parts,
            is_error: false,
        })
    }
}

/// A text block's value: its JSON when it is valid JSON, else the text itself.
fn parse_text(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// The media part for one block, or `None` for text (and for kinds rmcp may add later).
fn media_part(block: &ContentBlock) -> Option<MediaPart> {
    match block {
        ContentBlock::Image(image) => Some(MediaPart::Image {
            mime_type: image.mime_type.clone(),
            data: image.data.clone(),
        }),
        ContentBlock::Audio(audio) => Some(MediaPart::Audio {
            mime_type: audio.mime_type.clone(),
            data: audio.data.clone(),
        }),
        ContentBlock::Resource(embedded) => match &embedded.resource {
            ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                ..
            } => Some(MediaPart::Resource {
                uri: uri.clone(),
                mime_type: mime_type.clone(),
                text: Some(text.clone()),
                blob: None,
            }),
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => Some(MediaPart::Resource {
                uri: uri.clone(),
                mime_type: mime_type.clone(),
                text: None,
                blob: Some(blob.clone()),
            }),
            _ => None,
        },
        ContentBlock::ResourceLink(link) => Some(MediaPart::Resource {
            uri: link.uri.clone(),
            mime_type: link.mime_type.clone(),
            text: None,
            blob: None,
        }),
        _ => None,
    }
}

/// The value for a result with no text block and no structured content: `{}` when there is
/// no media either, else what arrived and the text of any embedded text resources.
fn media_summary(content: &[ContentBlock]) -> Value {
    let mut images = 0;
    let mut audio = 0;
    let mut resources = 0;
    let mut links = 0;
    let mut resource_texts = Vec::new();
    for block in content {
        match block {
            ContentBlock::Image(_) => images += 1,
            ContentBlock::Audio(_) => audio += 1,
            ContentBlock::Resource(embedded) => {
                resources += 1;
                if let ResourceContents::TextResourceContents {
                    uri,
                    mime_type,
                    text,
                    ..
                } = &embedded.resource
                {
                    let mut entry = Map::new();
                    entry.insert("uri".to_owned(), Value::String(uri.clone()));
                    if let Some(mime_type) = mime_type {
                        entry.insert("mimeType".to_owned(), Value::String(mime_type.clone()));
                    }
                    entry.insert("text".to_owned(), Value::String(text.clone()));
                    resource_texts.push(Value::Object(entry));
                }
            }
            ContentBlock::ResourceLink(_) => links += 1,
            _ => {}
        }
    }

    let counted: Vec<String> = [
        (images, "image", "images"),
        (audio, "audio clip", "audio clips"),
        (resources, "resource", "resources"),
        (links, "resource link", "resource links"),
    ]
    .into_iter()
    .filter(|(count, _, _)| *count > 0)
    .map(|(count, one, many)| format!("{count} {}", if count == 1 { one } else { many }))
    .collect();

    let mut value = Map::new();
    if let Some((last, rest)) = counted.split_last() {
        let listed = if rest.is_empty() {
            last.clone()
        } else {
            format!("{} and {last}", rest.join(", "))
        };
        value.insert(
            "content".to_owned(),
            Value::String(format!("{listed} attached")),
        );
    }
    if !resource_texts.is_empty() {
        value.insert("resources".to_owned(), Value::Array(resource_texts));
    }
    Value::Object(value)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn map(wire: Value) -> ToolOutput {
        let result: CallToolResult = serde_json::from_value(wire).unwrap();
        RichMapper.map(&result).unwrap()
    }

    fn image(data: &str) -> MediaPart {
        MediaPart::Image {
            mime_type: "image/png".to_owned(),
            data: data.to_owned(),
        }
    }

    // Structured content.

    #[test]
    fn structured_content_is_the_value() {
        let output = map(json!({
            "content": [{"type": "text", "text": "{\"rows\": 3}"}],
            "structuredContent": {"rows": 3, "names": ["a", "b"]}
        }));
        assert_eq!(output.value, json!({"rows": 3, "names": ["a", "b"]}));
        assert!(output.parts.is_empty());
        assert!(!output.is_error);
    }

    #[test]
    fn structured_content_wins_over_text_that_differs() {
        let output = map(json!({
            "content": [{"type": "text", "text": "three rows"}],
            "structuredContent": {"rows": 3}
        }));
        assert_eq!(output.value, json!({"rows": 3}));
    }

    #[test]
    fn structured_content_need_not_be_an_object() {
        let output = map(json!({"content": [], "structuredContent": [1, 2, 3]}));
        assert_eq!(output.value, json!([1, 2, 3]));
    }

    #[test]
    fn null_structured_content_counts_as_absent() {
        let output = map(json!({
            "content": [{"type": "text", "text": "fallback"}],
            "structuredContent": null
        }));
        assert_eq!(output.value, json!("fallback"));
    }

    #[test]
    fn structured_content_keeps_media_parts() {
        let output = map(json!({
            "content": [
                {"type": "text", "text": "chart attached"},
                {"type": "image", "data": "iVBORw0=", "mimeType": "image/png"}
            ],
            "structuredContent": {"points": 12}
        }));
        assert_eq!(output.value, json!({"points": 12}));
        assert_eq!(output.parts, vec![image("iVBORw0=")]);
    }

    // Text blocks.

    #[test]
    fn one_json_text_block_is_parsed() {
        let output = map(json!({"content": [{"type": "text", "text": "{\"temp\": 21}"}]}));
        assert_eq!(output.value, json!({"temp": 21}));
    }

    #[test]
    fn one_text_block_of_any_json_kind_is_parsed() {
        for (text, expected) in [
            ("42", json!(42)),
            ("[1, \"two\"]", json!([1, "two"])),
            ("true", json!(true)),
            ("null", Value::Null),
            ("\"quoted\"", json!("quoted")),
            ("  {\"padded\": 1}\n", json!({"padded": 1})),
        ] {
            let output = map(json!({"content": [{"type": "text", "text": text}]}));
            assert_eq!(output.value, expected, "text {text:?}");
        }
    }

    #[test]
    fn one_plain_text_block_is_a_string() {
        for text in ["hello", "", "{not json", "42 apples"] {
            let output = map(json!({"content": [{"type": "text", "text": text}]}));
            assert_eq!(output.value, json!(text), "text {text:?}");
        }
    }

    #[test]
    fn several_text_blocks_are_an_array_in_order() {
        let output = map(json!({
            "content": [
                {"type": "text", "text": "first"},
                {"type": "text", "text": "{\"n\": 2}"},
                {"type": "text", "text": "3"}
            ]
        }));
        assert_eq!(output.value, json!(["first", {"n": 2}, 3]));
    }

    #[test]
    fn text_with_media_keeps_text_as_value_and_media_as_parts() {
        let output = map(json!({
            "content": [
                {"type": "image", "data": "AAA=", "mimeType": "image/png"},
                {"type": "text", "text": "a cat"}
            ]
        }));
        assert_eq!(output.value, json!("a cat"));
        assert_eq!(output.parts, vec![image("AAA=")]);
    }

    #[test]
    fn text_resource_stays_out_of_the_value_when_text_exists() {
        let output = map(json!({
            "content": [
                {"type": "text", "text": "see the file"},
                {"type": "resource", "resource": {"uri": "file:///a.md", "text": "# A"}}
            ]
        }));
        assert_eq!(output.value, json!("see the file"));
        assert_eq!(
            output.parts,
            vec![MediaPart::Resource {
                uri: "file:///a.md".to_owned(),
                mime_type: None,
                text: Some("# A".to_owned()),
                blob: None,
            }]
        );
    }

    // No text, no structured content.

    #[test]
    fn no_content_is_an_empty_object() {
        let output = map(json!({"content": []}));
        assert_eq!(output.value, json!({}));
        assert!(output.parts.is_empty());
        assert!(!output.is_error);
    }

    #[test]
    fn one_image_is_announced() {
        let output = map(json!({
            "content": [{"type": "image", "data": "iVBORw0=", "mimeType": "image/png"}]
        }));
        assert_eq!(output.value, json!({"content": "1 image attached"}));
        assert_eq!(output.parts, vec![image("iVBORw0=")]);
    }

    #[test]
    fn two_kinds_are_joined_with_and() {
        let output = map(json!({
            "content": [
                {"type": "image", "data": "AAA=", "mimeType": "image/png"},
                {"type": "image", "data": "BBB=", "mimeType": "image/png"},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}
            ]
        }));
        assert_eq!(
            output.value,
            json!({"content": "2 images and 1 audio clip attached"})
        );
    }

    #[test]
    fn every_kind_is_counted() {
        let output = map(json!({
            "content": [
                {"type": "resource_link", "uri": "file:///l1", "name": "l1"},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                {"type": "image", "data": "AAA=", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "file:///b", "blob": "AAE="}},
                {"type": "resource_link", "uri": "file:///l2", "name": "l2"}
            ]
        }));
        assert_eq!(
            output.value,
            json!({
                "content": "1 image, 2 audio clips, 1 resource and 2 resource links attached"
            })
        );
        assert_eq!(output.parts.len(), 6);
    }

    #[test]
    fn text_resource_is_listed_when_no_text_block_exists() {
        let output = map(json!({
            "content": [
                {"type": "resource", "resource": {
                    "uri": "file:///a.md", "mimeType": "text/markdown", "text": "# A"
                }},
                {"type": "resource", "resource": {"uri": "file:///b.txt", "text": "b"}},
                {"type": "resource", "resource": {"uri": "file:///c.bin", "blob": "AAE="}}
            ]
        }));
        assert_eq!(
            output.value,
            json!({
                "content": "3 resources attached",
                "resources": [
                    {"uri": "file:///a.md", "mimeType": "text/markdown", "text": "# A"},
                    {"uri": "file:///b.txt", "text": "b"}
                ]
            })
        );
        assert_eq!(output.parts.len(), 3);
    }

    // Errors.

    #[test]
    fn error_joins_every_text_block() {
        let output = map(json!({
            "content": [
                {"type": "text", "text": "query failed"},
                {"type": "image", "data": "AAA=", "mimeType": "image/png"},
                {"type": "text", "text": "{\"hint\": \"check the column name\"}"}
            ],
            "isError": true
        }));
        assert_eq!(
            output.value,
            json!({"error": "query failed\n{\"hint\": \"check the column name\"}"})
        );
        assert!(output.is_error);
        assert_eq!(output.parts, vec![image("AAA=")]);
    }

    #[test]
    fn error_without_text_has_a_generic_message() {
        let output = map(json!({
            "content": [{"type": "resource", "resource": {"uri": "file:///log", "text": "trace"}}],
            "isError": true
        }));
        assert_eq!(
            output.value,
            json!({"error": "the tool reported an error without a message"})
        );
        assert!(output.is_error);
        assert_eq!(output.parts.len(), 1);
    }

    #[test]
    fn error_ignores_structured_content() {
        let output = map(json!({
            "content": [{"type": "text", "text": "bad input"}],
            "structuredContent": {"rows": 0},
            "isError": true
        }));
        assert_eq!(output.value, json!({"error": "bad input"}));
        assert!(output.is_error);
    }

    #[test]
    fn is_error_false_is_a_success() {
        let output = map(json!({"content": [{"type": "text", "text": "ok"}], "isError": false}));
        assert_eq!(output.value, json!("ok"));
        assert!(!output.is_error);
    }

    // Parts.

    #[test]
    fn parts_map_every_media_kind_in_order() {
        let output = map(json!({
            "content": [
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                {"type": "text", "text": "skipped as a part"},
                {"type": "resource", "resource": {
                    "uri": "file:///a.txt", "mimeType": "text/plain", "text": "hello"
                }},
                {"type": "resource", "resource": {
                    "uri": "file:///b.pdf", "mimeType": "application/pdf", "blob": "JVBERi0="
                }},
                {"type": "resource_link", "uri": "https://example.com/c.csv", "name": "c.csv",
                 "mimeType": "text/csv", "description": "not carried"},
                {"type": "image", "data": "/9j/4A==", "mimeType": "image/jpeg"}
            ]
        }));
        assert_eq!(
            output.parts,
            vec![
                MediaPart::Audio {
                    mime_type: "audio/wav".to_owned(),
                    data: "UklGRg==".to_owned(),
                },
                MediaPart::Resource {
                    uri: "file:///a.txt".to_owned(),
                    mime_type: Some("text/plain".to_owned()),
                    text: Some("hello".to_owned()),
                    blob: None,
                },
                MediaPart::Resource {
                    uri: "file:///b.pdf".to_owned(),
                    mime_type: Some("application/pdf".to_owned()),
                    text: None,
                    blob: Some("JVBERi0=".to_owned()),
                },
                MediaPart::Resource {
                    uri: "https://example.com/c.csv".to_owned(),
                    mime_type: Some("text/csv".to_owned()),
                    text: None,
                    blob: None,
                },
                MediaPart::Image {
                    mime_type: "image/jpeg".to_owned(),
                    data: "/9j/4A==".to_owned(),
                },
            ]
        );
        assert_eq!(output.value, json!("skipped as a part"));
    }

    #[test]
    fn annotations_and_meta_do_not_change_the_mapping() {
        let output = map(json!({
            "content": [{
                "type": "image", "data": "AAA=", "mimeType": "image/png",
                "annotations": {"audience": ["user"], "priority": 1.0},
                "_meta": {"trace": "abc"}
            }],
            "_meta": {"request": 7}
        }));
        assert_eq!(output.value, json!({"content": "1 image attached"}));
        assert_eq!(output.parts, vec![image("AAA=")]);
    }

    #[test]
    fn deeply_nested_text_does_not_panic() {
        let deep = "[".repeat(10_000);
        let output = map(json!({"content": [{"type": "text", "text": deep}]}));
        assert_eq!(output.value, json!(deep));
    }
}
