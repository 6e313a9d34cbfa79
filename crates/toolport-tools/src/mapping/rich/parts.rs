//! The media parts of a result: images, audio, embedded resources and resource links.

use rmcp::model::{ContentBlock, ResourceContents};

use crate::output::MediaPart;

/// The media part for one block, or `None` for text (and for kinds rmcp may add later).
pub(super) fn media_part(block: &ContentBlock) -> Option<MediaPart> {
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
