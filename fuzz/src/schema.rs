//! What any [`SchemaAdapter`] must do with any JSON given as a tool's input schema: finish,
//! give an object root, report its changes at JSON Pointers, produce valid JSON, and change
//! nothing more when given its own output (the golden tests' invariants, on every input).

use serde_json::Value;
use toolport_tools::schema::SchemaAdapter;

use crate::json::assert_round_trips;

/// Adapts `schema` with `adapter` and asserts the adapter's invariants.
pub fn check_adapter(adapter: &dyn SchemaAdapter, schema: &Value) {
    let provider = adapter.provider();
    let adapted = adapter.adapt(schema);
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

    let again = adapter.adapt(&adapted.schema);
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
