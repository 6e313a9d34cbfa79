//! [`Pinned`]: one part of a tool as a lock keeps it, whole or as its sha256.

use serde_json::{Map, Value};

use crate::digest;

/// One part of a tool (a schema or the description) as a [`ToolPin`](super::ToolPin) keeps it.
///
/// A lock of format 2 keeps each part whole, so that a check can say what changed in it; a
/// lock of format 1 kept only its sha256, so that a check can say only that it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pinned<T> {
    /// The part itself; a schema in canonical form, its object keys sorted at every level.
    Whole(T),
    /// Only its sha256 (`sha256:` and 64 hex digits), as a lock of format 1 kept it.
    Sha256(String),
}

impl<T> Pinned<T> {
    /// The part, when it is kept whole.
    pub fn whole(&self) -> Option<&T> {
        match self {
            Self::Whole(part) => Some(part),
            Self::Sha256(_) => None,
        }
    }
}

impl Pinned<Map<String, Value>> {
    /// The sha256 of the schema's canonical JSON (its object keys sorted at every level, no
    /// whitespace), as a lock of format 1 keeps it.
    pub fn sha256(&self) -> String {
        match self {
            Self::Whole(schema) => digest::of_json(&Value::Object(schema.clone())),
            Self::Sha256(sha256) => sha256.clone(),
        }
    }
}

impl Pinned<String> {
    /// The sha256 of the text's UTF-8 bytes, as a lock of format 1 keeps it.
    pub fn sha256(&self) -> String {
        match self {
            Self::Whole(text) => digest::of_text(text),
            Self::Sha256(sha256) => sha256.clone(),
        }
    }
}
