//! How `call` prints a result's value for a reader: a string wrapped as `{"result": "…"}` as
//! its text, and base64 media inside the value as the one-line description a media part gets.
//!
//! Media reach the value when a server copies them into its structured content (a Python SDK
//! tool returning a model that holds an image does), or with `--mapping raw`, whose value is
//! the whole result. [`media_within`] finds them, so that the media rules (a line each, a file
//! each with `--save-media`) apply to them as to the result's own media parts.

use serde_json::{Map, Value};
use toolport::MediaPart;

use crate::media;

/// The media inside `value`, in document order: every object with a string `data` and a
/// string `mimeType` that is an image or an audio clip (an MCP image or audio block, by its
/// `type` or, without one, by its MIME type), and every object with a string `blob` and `uri`
/// (an MCP binary resource).
pub(crate) fn media_within(value: &Value) -> Vec<MediaPart> {
    let mut found = Vec::new();
    visit(value, &mut |object| found.extend(media_part(object)));
    found
}

/// The value as text, when a reader is best shown text: a string, or an object whose only
/// member is a string `result` (how the Python SDK and FastMCP wrap a tool's string).
pub(crate) fn as_text(value: &Value) -> Option<&str> {
    match value {
        Value::String(text) => Some(text),
        Value::Object(object) if object.len() == 1 => object.get("result")?.as_str(),
        _ => None,
    }
}

/// The value as pretty JSON, with each base64 payload of [`media_within`] replaced by its
/// description, such as `"[image image/png, 68 bytes]"`.
pub(crate) fn described_json(value: &Value) -> anyhow::Result<String> {
    let mut value = value.clone();
    visit_mut(&mut value, &mut |object| {
        if let Some(part) = media_part(object) {
            let payload = if object.contains_key("blob") {
                "blob"
            } else {
                "data"
            };
            let described = format!("[{}]", media::describe(&part));
            object.insert(payload.to_owned(), Value::String(described));
        }
    });
    Ok(serde_json::to_string_pretty(&value)?)
}

/// The media part an object of the value is, if it is one.
fn media_part(object: &Map<String, Value>) -> Option<MediaPart> {
    let text = |key: &str| object.get(key).and_then(Value::as_str);
    if let (Some(blob), Some(uri)) = (text("blob"), text("uri")) {
        return Some(MediaPart::Resource {
            uri: uri.to_owned(),
            mime_type: text("mimeType").map(str::to_owned),
            text: None,
            blob: Some(blob.to_owned()),
        });
    }
    let (data, mime_type) = (text("data")?.to_owned(), text("mimeType")?.to_owned());
    let kind = text("type").or_else(|| mime_type.split_once('/').map(|(kind, _)| kind));
    match kind? {
        "image" => Some(MediaPart::Image { mime_type, data }),
        "audio" => Some(MediaPart::Audio { mime_type, data }),
        _ => None,
    }
}

/// Calls `each` with every object in `value`, outermost first. A value from the wire nests at
/// most 128 levels (serde_json's limit), so the recursion is bounded.
fn visit(value: &Value, each: &mut impl FnMut(&Map<String, Value>)) {
    match value {
        Value::Object(object) => {
            each(object);
            object.values().for_each(|member| visit(member, each));
        }
        Value::Array(items) => items.iter().for_each(|item| visit(item, each)),
        _ => {}
    }
}

/// [`visit`], with each object open to change.
fn visit_mut(value: &mut Value, each: &mut impl FnMut(&mut Map<String, Value>)) {
    match value {
        Value::Object(object) => {
            each(object);
            object
                .values_mut()
                .for_each(|member| visit_mut(member, each));
        }
        Value::Array(items) => items.iter_mut().for_each(|item| visit_mut(item, each)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_wrapped_string_is_shown_as_its_text() {
        assert_eq!(
            as_text(&json!({"result": "Hello, Ada"})),
            Some("Hello, Ada")
        );
        assert_eq!(as_text(&json!("plain")), Some("plain"));
        // Not a wrapped string: another member, or a result that is not a string.
        assert_eq!(as_text(&json!({"result": "ok", "count": 1})), None);
        assert_eq!(as_text(&json!({"result": 7})), None);
        assert_eq!(as_text(&json!(["a"])), None);
    }

    #[test]
    fn media_in_the_value_are_found_and_shown_described() {
        let value = json!({
            "caption": "a pixel",
            "clips": [{"data": "aGk=", "mimeType": "audio/wav"}],
            "file": {"uri": "file:///a.bin", "blob": "aGk=", "mimeType": "application/zip"},
            "image": {"type": "image", "data": "aGVsbG8h", "mimeType": "image/png", "_meta": null},
            "not_media": {"data": "aGk=", "mimeType": "text/plain"},
        });
        assert_eq!(
            media_within(&value),
            [
                MediaPart::Audio {
                    mime_type: "audio/wav".to_owned(),
                    data: "aGk=".to_owned()
                },
                MediaPart::Resource {
                    uri: "file:///a.bin".to_owned(),
                    mime_type: Some("application/zip".to_owned()),
                    text: None,
                    blob: Some("aGk=".to_owned()),
                },
                MediaPart::Image {
                    mime_type: "image/png".to_owned(),
                    data: "aGVsbG8h".to_owned()
                },
            ]
        );
        let shown: Value = serde_json::from_str(&described_json(&value).unwrap()).unwrap();
        assert_eq!(shown["image"]["data"], "[image image/png, 6 bytes]");
        assert_eq!(shown["clips"][0]["data"], "[audio audio/wav, 2 bytes]");
        assert_eq!(
            shown["file"]["blob"],
            "[resource file:///a.bin application/zip, 2 bytes]"
        );
        assert_eq!(shown["not_media"]["data"], "aGk=");
        assert_eq!(shown["caption"], "a pixel");
    }
}
