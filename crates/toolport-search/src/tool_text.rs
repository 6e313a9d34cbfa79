//! [`ToolText`]: what the index reads of a tool, field by field.

use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::Value;
use toolport_tools::Tool;

/// The most characters of one field the index reads: a description is untrusted, and one of
/// megabytes must not cost every search.
const FIELD_LIMIT: usize = 8 * 1024;

/// The text of one tool, by field.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ToolText {
    /// The name the model calls it by.
    pub(crate) name: String,
    /// The name its server gave it, when that differs (a fleet's `{server}__{tool}`).
    pub(crate) server_name: Option<String>,
    /// The listing's `title`, if any.
    pub(crate) title: String,
    pub(crate) description: String,
    /// The names of its parameters, top level and nested.
    pub(crate) parameter_names: String,
    /// The descriptions of its parameters, and the values those that take one of a few may
    /// take (`enum`).
    pub(crate) parameter_descriptions: String,
    /// The id of its server, when a fleet knows it.
    pub(crate) server: Option<String>,
}

impl ToolText {
    /// The text of `tool`.
    pub(crate) fn of(tool: &dyn Tool) -> Self {
        let declaration = tool.declaration();
        let definition = tool.definition();
        let server_name = definition
            .map(|definition| definition.name.to_string())
            .filter(|name| *name != declaration.name);
        let title = definition
            .and_then(|definition| definition.title.clone())
            .unwrap_or_default();
        let mut parameter_names = String::new();
        let mut parameter_descriptions = String::new();
        collect_parameters(
            &declaration.parameters,
            &mut parameter_names,
            &mut parameter_descriptions,
            0,
        );
        Self {
            name: declaration.name.clone(),
            server_name,
            title: capped(&title),
            description: capped(&declaration.description),
            parameter_names: capped(&parameter_names),
            parameter_descriptions: capped(&parameter_descriptions),
            server: tool.server().map(str::to_owned),
        }
    }

    /// A digest of every field: equal for a tool listed again unchanged.
    pub(crate) fn fingerprint(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.hash(&mut hasher);
        hasher.finish()
    }

    /// The text an embedding model reads: the name, title, description and parameter names.
    pub(crate) fn for_embedding(&self) -> String {
        [
            self.name.as_str(),
            &self.title,
            &self.description,
            &self.parameter_names,
        ]
        .into_iter()
        .filter(|field| !field.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
    }
}

/// The first [`FIELD_LIMIT`] characters of `text`.
fn capped(text: &str) -> String {
    match text.char_indices().nth(FIELD_LIMIT) {
        Some((end, _)) => text[..end].to_owned(),
        None => text.to_owned(),
    }
}

/// Appends the property names of `schema` to `names`, and their descriptions and `enum` values
/// to `descriptions`, down to three levels of nesting.
fn collect_parameters(schema: &Value, names: &mut String, descriptions: &mut String, depth: usize) {
    if depth > 3 || names.len() > FIELD_LIMIT {
        return;
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        if let Some(items) = schema.get("items") {
            collect_parameters(items, names, descriptions, depth + 1);
        }
        return;
    };
    for (name, property) in properties {
        names.push_str(name);
        names.push(' ');
        if let Some(description) = property.get("description").and_then(Value::as_str) {
            descriptions.push_str(description);
            descriptions.push('\n');
        }
        for choice in property
            .get("enum")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(choice) = choice.as_str() {
                descriptions.push_str(choice);
                descriptions.push(' ');
            }
        }
        collect_parameters(property, names, descriptions, depth + 1);
    }
}
