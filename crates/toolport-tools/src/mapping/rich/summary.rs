//! The words that say what media arrived, for a result the model has no text to read in.

use rmcp::model::ContentBlock;
use serde_json::{Map, Value};

/// `{"content": "1 image and 2 resources attached"}` for the media in `content`, or an empty
/// object when there is none.
pub(super) fn attached(content: &[ContentBlock]) -> Map<String, Value> {
    let mut images = 0;
    let mut audio = 0;
    let mut resources = 0;
    let mut links = 0;
    for block in content {
        match block {
            ContentBlock::Image(_) => images += 1,
            ContentBlock::Audio(_) => audio += 1,
            ContentBlock::Resource(_) => resources += 1,
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
    value
}
