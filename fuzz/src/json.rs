//! The fuzz input read as JSON, and the check that JSON a target produced is valid and reads
//! back as itself (floats to within serde_json's reading of them).

use serde_json::Value;

/// Nesting beyond which serde_json refuses to read a document back (its default limit is 128
/// levels; this stays clear of it). Deeper output is only checked to serialize.
const READ_BACK_DEPTH: usize = 100;

/// `data` as JSON, or `None` when it is not JSON (the target then skips it).
pub fn parse(data: &[u8]) -> Option<Value> {
    serde_json::from_slice(data).ok()
}

/// Asserts that `value` (named `what` in the panic) serializes to JSON text that reads back as
/// the same value.
pub fn assert_round_trips(value: &Value, what: &str) {
    let text = serde_json::to_string(value).expect("a JSON value always serializes");
    if depth(value) > READ_BACK_DEPTH {
        return;
    }
    let reread: Value = serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("{what} is not valid JSON ({error}): {text}"));
    assert!(
        same(&reread, value),
        "{what} changed when read back:\n{reread}\n{value}"
    );
}

/// Whether `a` and `b` are the same JSON. Floats may differ in their last bits: serde_json
/// prints the shortest text that names a float, but without its `float_roundtrip` feature
/// (which the workspace does not turn on) it reads such text back to within an ulp or so.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x != y => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(y.abs()),
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| same(x, y)))
        }
        _ => a == b,
    }
}

/// How deeply `value` nests arrays and objects: 0 for a scalar. Measured with a stack of its
/// own, so that a target's output too deep for the thread's stack fails an assertion rather
/// than this check.
pub fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 0)];
    while let Some((value, above)) = pending.pop() {
        match value {
            Value::Array(items) => pending.extend(items.iter().map(|item| (item, above + 1))),
            Value::Object(members) => {
                pending.extend(members.values().map(|member| (member, above + 1)));
            }
            _ => continue,
        }
        deepest = deepest.max(above + 1);
    }
    deepest
}
