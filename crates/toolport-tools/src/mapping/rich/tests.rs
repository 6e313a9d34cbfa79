//! Tests of the `rich` preset, on hand-built results.

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
fn text_resource_beside_text_reaches_the_value() {
    let output = map(json!({
        "content": [
            {"type": "text", "text": "see the file"},
            {"type": "resource", "resource": {"uri": "file:///a.md", "text": "# A"}}
        ]
    }));
    assert_eq!(
        output.value,
        json!({
            "text": "see the file",
            "resources": [{"type": "resource", "uri": "file:///a.md", "text": "# A"}]
        })
    );
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
        output.value["content"],
        json!("1 image, 2 audio clips, 1 resource and 2 resource links attached")
    );
    assert_eq!(output.value["resources"].as_array().unwrap().len(), 3);
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
                {"type": "resource", "uri": "file:///a.md", "mimeType": "text/markdown", "text": "# A"},
                {"type": "resource", "uri": "file:///b.txt", "text": "b"},
                {"type": "resource", "uri": "file:///c.bin",
                 "attached": "binary content, 2 bytes, as a media part"}
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
        json!({
            "error": "the tool reported an error without a message",
            "resources": [{"type": "resource", "uri": "file:///log", "text": "trace"}]
        })
    );
    assert!(output.is_error);
    assert_eq!(output.parts.len(), 1);
}

#[test]
fn error_keeps_its_structured_content() {
    let output = map(json!({
        "content": [{"type": "text", "text": "bad input"}],
        "structuredContent": {"field": "date", "expected": "YYYY-MM-DD"},
        "isError": true
    }));
    assert_eq!(
        output.value,
        json!({
            "error": "bad input",
            "structuredContent": {"field": "date", "expected": "YYYY-MM-DD"}
        })
    );
    assert!(output.is_error);
}

#[test]
fn error_with_null_structured_content_has_only_its_text() {
    let output = map(json!({
        "content": [{"type": "text", "text": "bad input"}],
        "structuredContent": null,
        "isError": true
    }));
    assert_eq!(output.value, json!({"error": "bad input"}));
}

#[test]
fn error_keeps_its_resource_links() {
    let output = map(json!({
        "content": [
            {"type": "text", "text": "build failed"},
            {"type": "resource_link", "uri": "file:///build.log", "name": "build.log"}
        ],
        "isError": true
    }));
    assert_eq!(
        output.value,
        json!({
            "error": "build failed",
            "resources": [
                {"type": "resource_link", "uri": "file:///build.log", "name": "build.log"}
            ]
        })
    );
    assert_eq!(output.parts.len(), 1);
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
    assert_eq!(output.value["text"], json!("skipped as a part"));
    assert_eq!(output.value["resources"].as_array().unwrap().len(), 3);
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

// Images and audio.

#[test]
fn one_audio_clip_is_a_part_and_announced() {
    let output = map(json!({
        "content": [{"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}]
    }));
    assert_eq!(output.value, json!({"content": "1 audio clip attached"}));
    assert_eq!(
        output.parts,
        vec![MediaPart::Audio {
            mime_type: "audio/wav".to_owned(),
            data: "UklGRg==".to_owned(),
        }]
    );
}

#[test]
fn media_bytes_never_reach_the_value() {
    let output = map(json!({
        "content": [
            {"type": "image", "data": "SU1BR0VCWVRFUw==", "mimeType": "image/png"},
            {"type": "audio", "data": "QVVESU9CWVRFUw==", "mimeType": "audio/wav"},
            {"type": "resource", "resource": {
                "uri": "file:///c.bin", "mimeType": "application/octet-stream",
                "blob": "QkxPQkJZVEVT"
            }}
        ]
    }));
    let value = output.value.to_string();
    for data in ["SU1BR0VCWVRFUw==", "QVVESU9CWVRFUw==", "QkxPQkJZVEVT"] {
        assert!(!value.contains(data), "{value}");
    }
    assert_eq!(output.parts.len(), 3);
}

// Resources the model reads or follows.

#[test]
fn resource_links_reach_the_value_with_their_metadata() {
    let output = map(json!({
        "content": [
            {"type": "text", "text": "Here are 2 resource links:"},
            {"type": "resource_link", "uri": "demo://resource/1", "name": "Blob Resource 1",
             "title": "The first", "description": "Resource 1: binary blob resource",
             "mimeType": "application/octet-stream", "size": 1024,
             "annotations": {"audience": ["assistant"]}, "_meta": {"trace": "abc"}},
            {"type": "resource_link", "uri": "demo://resource/2", "name": "Text Resource 2"}
        ]
    }));
    assert_eq!(
        output.value,
        json!({
            "text": "Here are 2 resource links:",
            "resources": [
                {"type": "resource_link", "uri": "demo://resource/1", "name": "Blob Resource 1",
                 "title": "The first", "description": "Resource 1: binary blob resource",
                 "mimeType": "application/octet-stream", "size": 1024},
                {"type": "resource_link", "uri": "demo://resource/2", "name": "Text Resource 2"}
            ]
        })
    );
    assert_eq!(output.parts.len(), 2);
}

#[test]
fn embedded_text_between_text_blocks_reaches_the_value() {
    let output = map(json!({
        "content": [
            {"type": "text", "text": "Returning resource reference for Resource 1:"},
            {"type": "resource", "resource": {
                "uri": "demo://resource/dynamic/text/1", "mimeType": "text/plain",
                "text": "Resource 1: This is a plaintext resource"
            }},
            {"type": "text", "text": "You can access this resource using the URI: demo://resource/dynamic/text/1"}
        ]
    }));
    assert_eq!(
        output.value,
        json!({
            "text": [
                "Returning resource reference for Resource 1:",
                "You can access this resource using the URI: demo://resource/dynamic/text/1"
            ],
            "resources": [{
                "type": "resource", "uri": "demo://resource/dynamic/text/1",
                "mimeType": "text/plain", "text": "Resource 1: This is a plaintext resource"
            }]
        })
    );
}

#[test]
fn an_embedded_blob_is_named_in_the_value_and_kept_as_a_part() {
    let output = map(json!({
        "content": [
            {"type": "text", "text": "the report"},
            {"type": "resource", "resource": {
                "uri": "file:///report.pdf", "mimeType": "application/pdf", "blob": "JVBERi0xLjQ="
            }}
        ]
    }));
    assert_eq!(
        output.value,
        json!({
            "text": "the report",
            "resources": [{
                "type": "resource", "uri": "file:///report.pdf", "mimeType": "application/pdf",
                "attached": "binary content, 8 bytes, as a media part"
            }]
        })
    );
    assert_eq!(
        output.parts,
        vec![MediaPart::Resource {
            uri: "file:///report.pdf".to_owned(),
            mime_type: Some("application/pdf".to_owned()),
            text: None,
            blob: Some("JVBERi0xLjQ=".to_owned()),
        }]
    );
}

#[test]
fn structured_content_stays_whole_beside_resource_links() {
    let output = map(json!({
        "content": [
            {"type": "text", "text": "{\"rows\": 3}"},
            {"type": "resource_link", "uri": "file:///rows.csv", "name": "rows.csv"}
        ],
        "structuredContent": {"rows": 3}
    }));
    assert_eq!(output.value, json!({"rows": 3}));
    assert_eq!(output.parts.len(), 1);
}
