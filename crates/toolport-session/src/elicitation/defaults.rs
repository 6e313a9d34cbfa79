//! [`apply_schema_defaults`]: fills a form answer from the defaults of its schema.

use serde_json::{Map, Value};

/// Sets every property of `schema` that has a `default` and is missing from `answer` to that
/// default. Properties already answered are kept. A schema without `properties` changes
/// nothing.
///
/// # Examples
///
/// ```
/// use serde_json::{Map, json};
/// use toolport_session::apply_schema_defaults;
///
/// let schema = json!({"type": "object", "properties": {
///     "name": {"type": "string", "default": "Ada"},
///     "age": {"type": "integer", "default": 36},
/// }});
/// let mut answer = Map::from_iter([("age".to_owned(), json!(40))]);
/// apply_schema_defaults(&schema, &mut answer);
/// assert_eq!(answer["name"], "Ada");
/// assert_eq!(answer["age"], 40);
/// ```
pub fn apply_schema_defaults(schema: &Value, answer: &mut Map<String, Value>) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, property) in properties {
        if let Some(default) = property.get("default")
            && !answer.contains_key(name)
        {
            answer.insert(name.clone(), default.clone());
        }
    }
}
