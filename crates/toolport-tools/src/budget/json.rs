//! The JSON trimmer: a value over budget keeps the array elements and object members that
//! fit, says how many were left out, and stays valid JSON.

use serde_json::{Map, Value};
pub(super) use toolport_providers::json_measure::size;
use toolport_providers::json_measure::size_of_str;

use super::text;

/// The key of the member that says what an object lost, made longer when the object has it.
const NOTE_KEY: &str = "…";

/// Trims JSON values to a size in bytes (of their compact serialization).
///
/// An array keeps its leading elements that fit; an object keeps every member that fits, in
/// order. Each ends with a note of what was left out: an element `"[… 3 elements cut, 1,234
/// bytes …]"`, or a member `"…": "[… 2 members cut, 99 bytes …]"`. The first element or
/// member left out is trimmed itself into the room that is left, when there is some: an
/// array or object by the same rules, a string by the text cutter, except inside the server's
/// structured content, whose strings (like its numbers, booleans and nulls) are kept or left
/// out whole.
#[derive(Debug)]
pub(super) struct Trimmer<'a> {
    /// The server's `structuredContent`, wherever it appears in the value.
    structured: Option<&'a Value>,
    /// Its size, so that only a subtree of the same size is compared with it.
    structured_size: usize,
}

impl<'a> Trimmer<'a> {
    /// A trimmer that keeps the strings of `structured` whole.
    pub(super) fn new(structured: Option<&'a Value>) -> Self {
        Self {
            structured,
            structured_size: structured.map_or(0, size),
        }
    }

    /// `value` in at most `max` bytes, or `None` when not even a note of it fits. A value
    /// that fits comes back unchanged; an array or object of which nothing fits is its note
    /// alone.
    pub(super) fn fit(&self, value: &Value, max: usize, in_structured: bool) -> Option<Value> {
        self.trim(value, max, in_structured)
            .map(|fitted| fitted.value)
    }

    /// The part of an element or member that did not fit whole: `None` unless something of
    /// it is kept besides a note, so that a note alone is not nested in another.
    fn fit_part(&self, value: &Value, max: usize, in_structured: bool) -> Option<Value> {
        self.trim(value, max, in_structured)
            .filter(|fitted| fitted.kept_some)
            .map(|fitted| fitted.value)
    }

    /// `value` in at most `max` bytes, saying whether anything of it is kept besides a note.
    fn trim(&self, value: &Value, max: usize, in_structured: bool) -> Option<Fitted> {
        let value_size = size(value);
        if value_size <= max {
            return Some(Fitted::whole(value.clone()));
        }
        let in_structured =
            in_structured || (value_size == self.structured_size && self.structured == Some(value));
        match value {
            Value::Array(elements) => self.fit_array(elements, value_size, max, in_structured),
            Value::Object(members) => self.fit_object(members, value_size, max, in_structured),
            Value::String(string) if !in_structured => fit_string(string, max),
            _ => None,
        }
    }

    /// A prefix of `elements` and a note of the rest; `whole` is the array's size.
    fn fit_array(
        &self,
        elements: &[Value],
        whole: usize,
        max: usize,
        in_structured: bool,
    ) -> Option<Fitted> {
        // Room for the brackets, and for a note that names every element and byte.
        let note_room = size_of_str(&array_note(elements.len(), whole)) + 1;
        let room = max.checked_sub(2 + note_room)?;
        let mut kept = Vec::new();
        let mut used = 0;
        let mut cut_from = elements.len();
        for (index, element) in elements.iter().enumerate() {
            let separator = usize::from(!kept.is_empty());
            let element_size = size(element);
            if used + separator + element_size <= room {
                kept.push(element.clone());
                used += separator + element_size;
                continue;
            }
            cut_from = index;
            // The last element needs no note after it, and may have the note's room.
            let limit = if index + 1 == elements.len() {
                max - 2
            } else {
                room
            };
            if let Some(left) = limit.checked_sub(used + separator)
                && left > 0
                && let Some(part) = self.fit_part(element, left, in_structured)
            {
                kept.push(part);
                cut_from = index + 1;
            }
            break;
        }
        let kept_some = !kept.is_empty();
        let cut = &elements[cut_from..];
        if !cut.is_empty() {
            let bytes = cut.iter().map(size).sum();
            kept.push(Value::String(array_note(cut.len(), bytes)));
        }
        Some(Fitted {
            value: Value::Array(kept),
            kept_some,
        })
    }

    /// The members that fit and a note of the rest; `whole` is the object's size.
    fn fit_object(
        &self,
        members: &Map<String, Value>,
        whole: usize,
        max: usize,
        in_structured: bool,
    ) -> Option<Fitted> {
        let mut note_key = NOTE_KEY.to_owned();
        while members.contains_key(&note_key) {
            note_key.push_str(NOTE_KEY);
        }
        let note = object_note(members.len(), whole);
        let note_room = size_of_str(&note_key) + 1 + size_of_str(&note) + 1;
        let room = max.checked_sub(2 + note_room)?;

        // First every member that fits whole, in order; then the first one left out, trimmed
        // into the room that is left.
        let mut kept: Vec<Option<Value>> = vec![None; members.len()];
        let mut used = 0;
        let mut count = 0;
        for ((key, value), slot) in members.iter().zip(&mut kept) {
            let separator = usize::from(count > 0);
            let member_size = size_of_str(key) + 1 + size(value);
            if used + separator + member_size <= room {
                *slot = Some(value.clone());
                used += separator + member_size;
                count += 1;
            }
        }
        if let Some(index) = kept.iter().position(Option::is_none) {
            let (key, value) = members.iter().nth(index)?;
            let separator = usize::from(count > 0);
            // When it is the only member left out, no note follows, and it may have its room.
            let limit = if count + 1 == members.len() {
                max - 2
            } else {
                room
            };
            if let Some(left) = limit.checked_sub(used + separator + size_of_str(key) + 1)
                && left > 0
            {
                kept[index] = self.fit_part(value, left, in_structured);
            }
        }

        let mut fitted = Map::new();
        let (mut cut, mut cut_bytes) = (0, 0);
        for ((key, value), slot) in members.iter().zip(kept) {
            match slot {
                Some(kept) => {
                    fitted.insert(key.clone(), kept);
                }
                None => {
                    cut += 1;
                    cut_bytes += size(value);
                }
            }
        }
        let kept_some = !fitted.is_empty();
        if cut > 0 {
            fitted.insert(note_key, Value::String(object_note(cut, cut_bytes)));
        }
        Some(Fitted {
            value: Value::Object(fitted),
            kept_some,
        })
    }
}

/// A value fitted to its budget.
#[derive(Debug)]
struct Fitted {
    value: Value,
    /// Whether anything of the value is kept besides a note or marker.
    kept_some: bool,
}

impl Fitted {
    fn whole(value: Value) -> Self {
        Self {
            value,
            kept_some: true,
        }
    }
}

/// A string cut like text, so that it serializes in at most `max` bytes (quotes and escapes
/// included), or `None` when not even the marker fits.
fn fit_string(string: &str, max: usize) -> Option<Fitted> {
    let mut target = max.checked_sub(2)?;
    // Escapes make the serialized string longer than its text; shrink until it fits.
    loop {
        let kept = text::cut(string, target).unwrap_or_else(|| string.to_owned());
        let kept_size = size_of_str(&kept);
        if kept_size <= max {
            let kept_some = kept != text::marker(string.len());
            return Some(Fitted {
                value: Value::String(kept),
                kept_some,
            });
        }
        let shorter = target.checked_sub(kept_size - max)?;
        if shorter == 0 || kept == text::marker(string.len()) {
            return None;
        }
        target = shorter;
    }
}

/// The note that ends an array: `[… 3 elements cut, 1,234 bytes …]`.
fn array_note(count: usize, bytes: usize) -> String {
    let noun = if count == 1 { "element" } else { "elements" };
    note(count, noun, bytes)
}

/// The note of an object's last member: `[… 2 members cut, 99 bytes …]`.
fn object_note(count: usize, bytes: usize) -> String {
    let noun = if count == 1 { "member" } else { "members" };
    note(count, noun, bytes)
}

fn note(count: usize, noun: &str, bytes: usize) -> String {
    format!(
        "[… {} {noun} cut, {} bytes …]",
        text::grouped(count),
        text::grouped(bytes)
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn fit(value: &Value, max: usize) -> Value {
        let fitted = Trimmer::new(None).fit(value, max, false).unwrap();
        assert!(size(&fitted) <= max, "{} > {max}: {fitted}", size(&fitted));
        fitted
    }

    #[test]
    fn a_value_within_budget_is_unchanged() {
        let value = json!({"a": [1, 2, 3], "b": "text"});
        assert_eq!(fit(&value, size(&value)), value);
    }

    #[test]
    fn one_byte_over_is_trimmed() {
        let value = Value::Array((0..40).map(|n| json!(n)).collect());
        let fitted = fit(&value, size(&value) - 1);
        assert_ne!(fitted, value);
        assert!(fitted.as_array().unwrap().last().unwrap().is_string());
    }

    #[test]
    fn an_array_keeps_its_leading_elements_and_counts_the_rest() {
        let value = Value::Array((0..100).map(|n| json!({"n": n})).collect());
        let fitted = fit(&value, 120);
        let elements = fitted.as_array().unwrap();
        let (note, kept) = elements.split_last().unwrap();
        assert!(!kept.is_empty());
        for (n, element) in kept.iter().enumerate() {
            assert_eq!(element, &json!({"n": n}));
        }
        let cut = 100 - kept.len();
        let bytes: usize = value.as_array().unwrap()[kept.len()..]
            .iter()
            .map(size)
            .sum();
        assert_eq!(note, &json!(array_note(cut, bytes)));
    }

    #[test]
    fn an_object_keeps_the_members_that_fit_in_order_and_counts_the_rest() {
        let value = json!({
            "first": 1,
            "big": "b".repeat(1_000),
            "second": "two",
            "bigger": "c".repeat(2_000),
            "third": [3, 3, 3],
        });
        let fitted = Trimmer::new(Some(&value)).fit(&value, 120, false).unwrap();
        assert!(size(&fitted) <= 120, "{fitted}");
        assert_eq!(
            fitted,
            json!({
                "first": 1,
                "second": "two",
                "third": [3, 3, 3],
                "…": object_note(2, 1_002 + 2_002),
            })
        );
    }

    #[test]
    fn the_first_member_left_out_is_trimmed_into_the_room_left() {
        let value = json!({
            "tasks": (0..100).map(|n| json!({"id": format!("T-{n}")})).collect::<Vec<_>>(),
            "count": 100,
        });
        let fitted = fit(&value, 150);
        assert_eq!(fitted["count"], 100);
        let tasks = fitted["tasks"].as_array().unwrap();
        assert_eq!(tasks[0], json!({"id": "T-0"}));
        assert!(
            tasks
                .last()
                .unwrap()
                .as_str()
                .unwrap()
                .contains("elements cut")
        );
        assert!(fitted.get("…").is_none(), "{fitted}");
    }

    #[test]
    fn nested_values_are_trimmed_where_they_overflow() {
        let value = json!({"total": 500, "items": (0..500).collect::<Vec<_>>()});
        let fitted = fit(&value, 200);
        assert_eq!(fitted["total"], 500);
        let items = fitted["items"].as_array().unwrap();
        assert_eq!(items[0], 0);
        assert!(
            items
                .last()
                .unwrap()
                .as_str()
                .unwrap()
                .contains("elements cut")
        );
        assert!(
            fitted.get("…").is_none(),
            "nothing after items was cut: {fitted}"
        );
    }

    #[test]
    fn a_string_outside_structured_content_is_cut_as_text() {
        let value = json!({"error": format!("start {} end", "x".repeat(5_000))});
        let fitted = fit(&value, 300);
        let error = fitted["error"].as_str().unwrap();
        assert!(error.starts_with("start "), "{error}");
        assert!(error.ends_with(" end"), "{error}");
        assert!(error.contains("bytes cut …]"), "{error}");
    }

    #[test]
    fn structured_content_keeps_its_strings_whole() {
        let structured = json!({"id": 7, "body": "y".repeat(5_000), "tags": ["a", "b"]});
        let fitted = Trimmer::new(Some(&structured))
            .fit(&structured, 300, false)
            .unwrap();
        assert!(size(&fitted) <= 300);
        assert_eq!(
            fitted,
            json!({"id": 7, "tags": ["a", "b"], "…": object_note(1, 5_002)})
        );
    }

    #[test]
    fn structured_content_is_found_inside_the_value() {
        let structured = json!({"log": "z".repeat(2_000)});
        let value = json!({"error": "failed", "structuredContent": structured.clone()});
        let fitted = Trimmer::new(Some(&structured))
            .fit(&value, 200, false)
            .unwrap();
        // Its one string cannot be cut, so nothing of it is left but the count.
        assert_eq!(
            fitted,
            json!({"error": "failed", "…": object_note(1, size(&structured))})
        );
    }

    #[test]
    fn escapes_count_toward_the_budget() {
        let value = json!(["\"quoted\"\n".repeat(500)]);
        let fitted = fit(&value, 150);
        assert!(
            fitted[0].as_str().unwrap().contains("bytes cut"),
            "{fitted}"
        );
    }

    #[test]
    fn the_result_is_always_valid_json_within_budget() {
        let value = json!({
            "rows": (0..50).map(|n| json!({"id": n, "name": format!("row {n} ✓"), "tags": ["a", "b"]})).collect::<Vec<_>>(),
            "summary": "é".repeat(300),
            "next": null
        });
        for max in (80..size(&value)).step_by(37) {
            let fitted = fit(&value, max);
            let text = serde_json::to_string(&fitted).unwrap();
            assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), fitted);
        }
    }

    #[test]
    fn a_note_alone_is_not_nested_in_another() {
        let value = json!([{"id": "T-1", "title": "a"}, {"id": "T-2", "title": "b".repeat(100)}]);
        let fitted = fit(&value, 75);
        assert_eq!(
            fitted,
            json!([{"id": "T-1", "title": "a"}, array_note(1, 123)]),
            "not [.., {{\"…\": \"[… 2 members cut …]\"}}]"
        );
    }

    #[test]
    fn nothing_fits_a_budget_below_the_note() {
        let value = json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        assert_eq!(Trimmer::new(None).fit(&value, 8, false), None);
        assert_eq!(Trimmer::new(None).fit(&json!(123_456), 3, false), None);
    }

    #[test]
    fn the_note_key_does_not_overwrite_a_member() {
        let value = json!({"…": "mine", "big": "q".repeat(1_000)});
        let fitted = Trimmer::new(Some(&value)).fit(&value, 100, false).unwrap();
        assert_eq!(fitted["…"], "mine");
        assert!(fitted["……"].as_str().unwrap().contains("1 member cut"));
    }
}
