//! The resources of a result as the model reads them: links it can follow, embedded text it
//! can read, and a word about each embedded blob, whose bytes stay in the parts.

use rmcp::model::{ContentBlock, ResourceContents};
use serde_json::{Map, Value};

/// One entry per embedded resource or resource link in `content`, in order.
pub(super) fn entries(content: &[ContentBlock]) -> Vec<Value> {
    content.iter().filter_map(entry).collect()
}

/// The entry for one block, or `None` when it is not a resource.
fn entry(block: &ContentBlock) -> Option<Value> {
    let mut entry = Map::new();
    match block {
        ContentBlock::ResourceLink(link) => {
            entry.insert("type".to_owned(), "resource_link".into());
            entry.insert("uri".to_owned(), link.uri.clone().into());
            entry.insert("name".to_owned(), link.name.clone().into());
            insert_some(&mut entry, "title", link.title.clone());
            insert_some(&mut entry, "description", link.description.clone());
            insert_some(&mut entry, "mimeType", link.mime_type.clone());
            if let Some(size) = link.size {
                entry.insert("size".to_owned(), size.into());
            }
        }
        ContentBlock::Resource(embedded) => match &embedded.resource {
            ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                ..
            } => {
                entry.insert("type".to_owned(), "resource".into());
                entry.insert("uri".to_owned(), uri.clone().into());
                insert_some(&mut entry, "mimeType", mime_type.clone());
                entry.insert("text".to_owned(), text.clone().into());
            }
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => {
                entry.insert("type".to_owned(), "resource".into());
                entry.insert("uri".to_owned(), uri.clone().into());
                insert_some(&mut entry, "mimeType", mime_type.clone());
                let attached = format!(
                    "binary content, {} bytes, as a media part",
                    decoded_size(blob)
                );
                entry.insert("attached".to_owned(), attached.into());
            }
            _ => return None,
        },
        _ => return None,
    }
    Some(Value::Object(entry))
}

/// Inserts `key` when `value` is set.
fn insert_some(entry: &mut Map<String, Value>, key: &str, value: Option<String>) {
    if let Some(value) = value {
        entry.insert(key.to_owned(), value.into());
    }
}

/// How many bytes a base64 string decodes to, padded or not.
fn decoded_size(base64: &str) -> usize {
    let symbols = base64
        .bytes()
        .filter(|byte| *byte != b'=' && !byte.is_ascii_whitespace())
        .count();
    symbols * 3 / 4
}
