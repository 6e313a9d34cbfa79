//! How large and how deep a JSON value is, measured without recursion where the value may be
//! deeper than the stack allows.
//!
//! The adapters measure what copying a schema's parts costs with it, and `toolport-tools`'
//! output budgets the size of what the model reads: [`size`] of a value and [`size_of_str`] of
//! a string, as compact JSON, without building the text.

use serde_json::Value;

/// The size of `value`'s compact JSON, in bytes. It serializes the value, which recurses: call
/// it on values no deeper than [`crate::schema::MAX_DEPTH`], as everything parsed by
/// serde_json is.
pub fn size(value: &Value) -> usize {
    let mut counter = ByteCounter(0);
    // Writing to a counter cannot fail, and a `Value` always serializes.
    let _ = serde_json::to_writer(&mut counter, value);
    counter.0
}

/// The size of `text` as a JSON string, quotes and escapes included.
pub fn size_of_str(text: &str) -> usize {
    let mut counter = ByteCounter(0);
    let _ = serde_json::to_writer(&mut counter, text);
    counter.0
}

/// How many arrays and objects `value` nests, one within the other, at its deepest: 0 for a
/// scalar, 1 for `[]` or `{"a": 1}`. Measured with a stack of its own, so any depth is safe.
pub(crate) fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 0)];
    while let Some((value, above)) = pending.pop() {
        let level = above + 1;
        match value {
            Value::Array(items) => pending.extend(items.iter().map(|item| (item, level))),
            Value::Object(members) => {
                pending.extend(members.values().map(|member| (member, level)))
            }
            _ => continue,
        }
        deepest = deepest.max(level);
    }
    deepest
}

/// Whether `value` nests more than `max` arrays and objects, one within the other.
pub(crate) fn nests_deeper_than(value: &Value, max: usize) -> bool {
    depth(value) > max
}

/// A writer that only counts.
struct ByteCounter(usize);

impl std::io::Write for ByteCounter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn depth_counts_arrays_and_objects() {
        assert_eq!(depth(&json!(1)), 0);
        assert_eq!(depth(&json!([])), 1);
        assert_eq!(depth(&json!({"a": [1, {"b": {}}], "c": 2})), 4);
    }

    #[test]
    fn depth_is_measured_without_recursion() {
        let mut value = json!(0);
        for _ in 0..100_000 {
            value = Value::Array(vec![value]);
        }
        let measured = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || {
                let measured = depth(&value);
                // Dropping a value this deep recurses; take it apart first.
                let mut next = Some(value);
                while let Some(Value::Array(mut items)) = next {
                    next = items.pop();
                }
                measured
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(measured, 100_000);
    }

    #[test]
    fn size_is_the_compact_length() {
        let value = json!({"a": [1, "é"], "b": null});
        assert_eq!(size(&value), value.to_string().len());
        assert_eq!(size_of_str("a\"b"), 6);
    }
}
