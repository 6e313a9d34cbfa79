//! Checks a form answer against the schema the server asked with.

use serde_json::{Map, Value};

use crate::SchemaValidator;

/// Why `answer` does not fit `schema`, or `None` when it does. A schema that cannot be
/// compiled is reported as a mismatch: an answer we cannot check is not sent.
pub(crate) fn mismatch(schema: &Value, answer: &Map<String, Value>) -> Option<String> {
    let validator = match SchemaValidator::new(schema.clone()) {
        Ok(validator) => validator,
        Err(error) => return Some(format!("the requested schema is invalid: {error}")),
    };
    let problems: Vec<String> = validator
        .problems(&Value::Object(answer.clone()))
        .into_iter()
        .map(|problem| match problem.place.as_str() {
            "" => problem.message,
            place => format!("{place}: {}", problem.message),
        })
        .collect();
    (!problems.is_empty()).then(|| problems.join("; "))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn accepts_a_matching_answer_and_names_what_does_not_match() {
        let schema = json!({
            "type": "object",
            "properties": {"age": {"type": "integer", "minimum": 0}},
            "required": ["age"]
        });
        assert_eq!(mismatch(&schema, &object(json!({"age": 3}))), None);
        let wrong = mismatch(&schema, &object(json!({"age": "three"}))).unwrap();
        assert!(wrong.contains("integer"), "{wrong}");
        let missing = mismatch(&schema, &object(json!({}))).unwrap();
        assert!(missing.contains("age"), "{missing}");
    }
}
