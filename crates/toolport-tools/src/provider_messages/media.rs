//! Where each API accepts a tool's images and audio, in the block it takes them in; and what
//! the model is told of media an API does not take.

use serde_json::{Value, json};

use super::ApiShape;
use crate::MediaPart;

/// The image types both OpenAI APIs and Anthropic's take.
const COMMON_IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// One media part of an answer, as one API takes it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Placement {
    /// The API's own block for it.
    Block(Value),
    /// A note for the model that it was left out, and why.
    LeftOut(String),
}

/// `part` as `shape` takes it; `None` for a resource, which the model reads in the value.
///
/// Gemini takes images and audio as `inlineData`; the OpenAI APIs and Anthropic take PNG,
/// JPEG, GIF and WebP images; Chat Completions takes WAV and MP3 audio as `input_audio`, and
/// the Responses API and Anthropic take no audio.
pub(super) fn place(shape: ApiShape, part: &MediaPart) -> Option<Placement> {
    let (kind, mime_type, data) = match part {
        MediaPart::Image { mime_type, data } => ("image", mime_type, data),
        MediaPart::Audio { mime_type, data } => ("audio clip", mime_type, data),
        MediaPart::Resource { .. } => return None,
    };
    let is_image = matches!(part, MediaPart::Image { .. });
    let common_image = is_image && COMMON_IMAGE_TYPES.contains(&mime_type.as_str());
    let data_url = || format!("data:{mime_type};base64,{data}");
    let block = match shape {
        ApiShape::Gemini => Some(json!({"inlineData": {"mimeType": mime_type, "data": data}})),
        ApiShape::OpenAiChat if common_image => {
            Some(json!({"type": "image_url", "image_url": {"url": data_url()}}))
        }
        ApiShape::OpenAiChat if !is_image => chat_audio_format(mime_type).map(|format| {
            json!({"type": "input_audio", "input_audio": {"data": data, "format": format}})
        }),
        ApiShape::OpenAiResponses if common_image => {
            Some(json!({"type": "input_image", "image_url": data_url()}))
        }
        ApiShape::Anthropic if common_image => Some(json!({
            "type": "image",
            "source": {"type": "base64", "media_type": mime_type, "data": data},
        })),
        ApiShape::OpenAiChat | ApiShape::OpenAiResponses | ApiShape::Anthropic => None,
    };
    Some(block.map_or_else(
        || {
            Placement::LeftOut(format!(
                "(An {mime_type} {kind} was left out: the {shape} API does not take it here.)"
            ))
        },
        Placement::Block,
    ))
}

/// Chat Completions' `input_audio` format of `mime_type`, for the two it takes.
fn chat_audio_format(mime_type: &str) -> Option<&'static str> {
    match mime_type {
        "audio/wav" | "audio/x-wav" | "audio/wave" => Some("wav"),
        "audio/mpeg" | "audio/mp3" => Some("mp3"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(mime_type: &str) -> MediaPart {
        MediaPart::Image {
            mime_type: mime_type.to_owned(),
            data: "AAAA".to_owned(),
        }
    }

    fn audio(mime_type: &str) -> MediaPart {
        MediaPart::Audio {
            mime_type: mime_type.to_owned(),
            data: "UklG".to_owned(),
        }
    }

    fn is_block(shape: ApiShape, part: &MediaPart) -> bool {
        matches!(place(shape, part), Some(Placement::Block(_)))
    }

    #[test]
    fn gemini_takes_every_image_and_audio_clip_inline() {
        for part in [image("image/heic"), audio("audio/ogg")] {
            assert!(is_block(ApiShape::Gemini, &part), "{part:?}");
        }
    }

    #[test]
    fn only_chat_completions_takes_audio_among_the_others() {
        let wav = audio("audio/wav");
        assert_eq!(
            place(ApiShape::OpenAiChat, &wav),
            Some(Placement::Block(json!({
                "type": "input_audio",
                "input_audio": {"data": "UklG", "format": "wav"},
            })))
        );
        assert!(!is_block(ApiShape::OpenAiChat, &audio("audio/ogg")));
        for shape in [ApiShape::OpenAiResponses, ApiShape::Anthropic] {
            let Some(Placement::LeftOut(note)) = place(shape, &wav) else {
                panic!("{shape} takes no audio");
            };
            assert!(note.contains("audio/wav audio clip was left out"), "{note}");
        }
    }

    #[test]
    fn an_image_type_the_api_does_not_take_is_left_out() {
        for shape in [
            ApiShape::OpenAiChat,
            ApiShape::OpenAiResponses,
            ApiShape::Anthropic,
        ] {
            assert!(is_block(shape, &image("image/webp")), "{shape}");
            assert!(!is_block(shape, &image("image/tiff")), "{shape}");
        }
    }

    #[test]
    fn a_resource_stays_in_the_value() {
        let resource = MediaPart::Resource {
            uri: "file:///notes.txt".to_owned(),
            mime_type: None,
            text: Some("notes".to_owned()),
            blob: None,
        };
        assert_eq!(place(ApiShape::Anthropic, &resource), None);
    }
}
