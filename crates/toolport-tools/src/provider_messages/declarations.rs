//! The tool declarations in each API's request form, from the function declarations the
//! provider's schema adapter writes, and one schema cache per provider for the whole process.

use std::sync::OnceLock;

use serde_json::{Value, json};

use super::ApiShape;
use crate::schema::SchemaCache;

/// The cache of the adapter of `shape`'s provider, shared by every
/// [`OfferedTools`](super::OfferedTools): a loop that offers the same tools every turn adapts
/// each schema once. Both OpenAI APIs share OpenAI's. (Matched on the shape, which this crate
/// owns: `Provider` is non-exhaustive outside `toolport-providers`.)
pub(super) fn schema_cache(shape: ApiShape) -> &'static SchemaCache {
    static GEMINI: OnceLock<SchemaCache> = OnceLock::new();
    static OPENAI: OnceLock<SchemaCache> = OnceLock::new();
    static ANTHROPIC: OnceLock<SchemaCache> = OnceLock::new();
    let cache = match shape {
        ApiShape::Gemini => &GEMINI,
        ApiShape::OpenAiChat | ApiShape::OpenAiResponses => &OPENAI,
        ApiShape::Anthropic => &ANTHROPIC,
    };
    cache.get_or_init(|| SchemaCache::new(shape.provider().adapter()))
}

/// One tool's declaration as `shape`'s request lists it, from `function`, the declaration the
/// adapter of `shape`'s provider wrote. Only the Responses API differs from its provider's
/// form: its function tools are flat (`{"type": "function", "name", "description",
/// "parameters", "strict"}`), where Chat Completions nests them under `function`.
pub(super) fn request_form(shape: ApiShape, mut function: Value) -> Value {
    match shape {
        ApiShape::OpenAiResponses => {
            let mut flat = json!({"type": "function"});
            if let (Value::Object(flat), Value::Object(nested)) =
                (&mut flat, function["function"].take())
            {
                flat.extend(nested);
            }
            flat
        }
        ApiShape::Gemini | ApiShape::OpenAiChat | ApiShape::Anthropic => function,
    }
}

/// The request's `tools`: Gemini's one tool of `functionDeclarations` (none without
/// declarations), or the declarations themselves.
pub(super) fn request_tools(shape: ApiShape, declarations: &[Value]) -> Value {
    match shape {
        ApiShape::Gemini if declarations.is_empty() => json!([]),
        ApiShape::Gemini => json!([{"functionDeclarations": declarations}]),
        ApiShape::OpenAiChat | ApiShape::OpenAiResponses | ApiShape::Anthropic => {
            Value::Array(declarations.to_vec())
        }
    }
}
