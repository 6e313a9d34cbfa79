//! What any [`SchemaAdapter`] must do with any JSON given as a tool's input schema: finish,
//! stay within its bounds (no deeper than the depth bound, no larger than a multiple of the
//! input and the bytes copies may add, no more changes than it lists), give an object root,
//! report its changes at JSON Pointers, produce valid JSON, and change nothing more when given
//! its own output (the golden tests' invariants, on every input).

use serde_json::Value;
use toolport_tools::schema::{MAX_ADDED_BYTES, MAX_CHANGES, MAX_DEPTH, SchemaAdapter};

use crate::json::{assert_round_trips, depth};

/// How many levels an adapter's rewrites may add to a schema besides inlining: a type array
/// as a union (Gemini), and a property made nullable in each of strict mode's 10 object levels
/// (OpenAI).
const REWRITE_LEVELS: usize = 24;

/// How many times larger than its input an adapter's own rewrites (a closed object, a
/// nullable property, a type array's union) may make a schema, copies aside.
const REWRITE_GROWTH: usize = 16;

/// Adapts `schema` with `adapter` and asserts the adapter's invariants.
pub fn check_adapter(adapter: &dyn SchemaAdapter, schema: &Value) {
    let provider = adapter.provider();
    // serde_json reads nothing deeper than the bound, so every fuzzed schema is adapted.
    let adapted = adapter
        .adapt(schema)
        .unwrap_or_else(|error| panic!("{provider}: {error}"));
    let output_depth = depth(&adapted.schema);
    assert!(
        output_depth <= MAX_DEPTH + REWRITE_LEVELS,
        "{provider}: the adapted schema nests {output_depth} levels"
    );
    let (input, output) = (schema.to_string().len(), adapted.schema.to_string().len());
    assert!(
        output <= REWRITE_GROWTH * input + MAX_ADDED_BYTES,
        "{provider}: {input} bytes became {output}"
    );
    assert!(adapted.changes.len() <= MAX_CHANGES + 1, "{provider}");
    assert_eq!(
        adapted.schema["type"], "object",
        "{provider}: the adapted root is not an object schema: {}",
        adapted.schema
    );
    for change in &adapted.changes {
        assert!(
            change.path.is_empty() || change.path.starts_with('/'),
            "{provider}: a change's path is not a JSON Pointer: {change:?}"
        );
        assert!(!change.to_string().is_empty());
    }
    let report = serde_json::to_value(&adapted).expect("an adapted schema serializes");
    assert_round_trips(&report, "the adapted schema with its changes");
    let declaration = adapter.function_declaration("fuzzed_tool", "A fuzzed tool.", &adapted);
    assert_round_trips(&declaration, "the function declaration");

    if output_depth > MAX_DEPTH {
        // Rewrites took it past the bound that adapting refuses; nothing more to compare.
        return;
    }
    let again = adapter
        .adapt(&adapted.schema)
        .unwrap_or_else(|error| panic!("{provider}: adapting its own output: {error}"));
    assert_eq!(
        again.schema, adapted.schema,
        "{provider}: adapting the adapted schema changed it again"
    );
    assert_eq!(
        again.strict, adapted.strict,
        "{provider}: strictness changed"
    );

    // The input doubles as arguments a model sent: taking out the nulls strict mode added
    // must finish on any value.
    let mut arguments = schema.clone();
    adapted.strip_added_nulls(&mut arguments);
}
