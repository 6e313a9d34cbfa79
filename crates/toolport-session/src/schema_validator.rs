//! [`SchemaValidator`]: a JSON Schema compiled once, and every way a value breaks it, each
//! named by its place in the value. The one validator of the session's elicitation answers and
//! of the tools layer's argument and output checks.

use serde_json::Value;

/// A compiled JSON Schema (drafts 2020-12, the default, to 4, by its `$schema`). A `$ref` to
/// another document is never fetched, from the network or from a file: such a schema does not
/// compile. Formats are annotations, as 2020-12 has them, and `pattern` is a Rust regex, so a
/// pattern that only ECMA-262 accepts (a lookaround, a backreference) does not compile either.
pub struct SchemaValidator {
    schemas: boon::Schemas,
    root: boon::SchemaIndex,
}

impl std::fmt::Debug for SchemaValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaValidator").finish_non_exhaustive()
    }
}

/// One way a value breaks a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    /// Where in the value, as a JSON pointer; empty for the whole value.
    pub place: String,
    /// What is wrong there.
    pub message: String,
}

impl SchemaValidator {
    /// Compiles `schema`, which it keeps.
    ///
    /// # Errors
    ///
    /// Why it does not compile: not a valid schema, a `$ref` to another document, or a
    /// pattern that is not a Rust regex.
    pub fn new(schema: Value) -> Result<Self, String> {
        const LOCATION: &str = "urn:toolport:schema";
        let mut compiler = boon::Compiler::new();
        // A loader for no scheme: boon's default one reads `file:` URLs.
        compiler.use_loader(Box::new(boon::SchemeUrlLoader::new()));
        compiler
            .add_resource(LOCATION, schema)
            .map_err(|error| error.to_string())?;
        let mut schemas = boon::Schemas::new();
        let root = compiler
            .compile(LOCATION, &mut schemas)
            .map_err(|error| error.to_string())?;
        Ok(Self { schemas, root })
    }

    /// Every way `value` breaks the schema, in the order the schema states them; none when it
    /// fits.
    pub fn problems(&self, value: &Value) -> Vec<SchemaProblem> {
        let mut problems = Vec::new();
        if let Err(error) = self.schemas.validate(value, self.root) {
            collect_leaves(&error, &mut problems);
        }
        problems
    }
}

/// The errors of `error`'s tree that have no causes: the ones that say what is wrong.
fn collect_leaves(error: &boon::ValidationError<'_, '_>, into: &mut Vec<SchemaProblem>) {
    if error.causes.is_empty() {
        into.push(SchemaProblem {
            place: error.instance_location.to_string(),
            message: error.kind.to_string(),
        });
    }
    for cause in &error.causes {
        collect_leaves(cause, into);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn each_problem_is_named_by_its_place() {
        let validator = SchemaValidator::new(json!({
            "type": "object",
            "properties": {
                "age": {"type": "integer", "minimum": 0},
                "name": {"type": "string"}
            },
            "required": ["age"]
        }))
        .unwrap();
        assert!(validator.problems(&json!({"age": 3})).is_empty());
        let problems = validator.problems(&json!({"age": -1, "name": 7}));
        let places: Vec<&str> = problems.iter().map(|p| p.place.as_str()).collect();
        assert_eq!(places, ["/age", "/name"], "{problems:?}");
        assert!(problems[1].message.contains("string"), "{problems:?}");
        let missing = validator.problems(&json!({}));
        assert_eq!(missing.len(), 1);
        assert_eq!(missing[0].place, "");
        assert!(missing[0].message.contains("age"), "{missing:?}");
    }

    #[test]
    fn a_format_is_an_annotation_and_a_pattern_a_rust_regex() {
        let email = SchemaValidator::new(json!({"type": "string", "format": "email"})).unwrap();
        assert!(email.problems(&json!("not an address")).is_empty());
        let digits = SchemaValidator::new(json!({"type": "string", "pattern": "^[0-9]+$"}));
        assert_eq!(digits.unwrap().problems(&json!("12a")).len(), 1);
        let lookahead = SchemaValidator::new(json!({"type": "string", "pattern": "^(?=a)"}));
        assert!(lookahead.is_err());
    }

    #[test]
    fn a_draft_is_taken_from_the_schema() {
        // Draft 4's exclusiveMinimum is a flag beside minimum; 2020-12's is a number.
        let draft4 = SchemaValidator::new(json!({
            "$schema": "http://json-schema.org/draft-04/schema#",
            "minimum": 1,
            "exclusiveMinimum": true
        }))
        .unwrap();
        assert_eq!(draft4.problems(&json!(1)).len(), 1);
        let current = SchemaValidator::new(json!({"exclusiveMinimum": 1})).unwrap();
        assert_eq!(current.problems(&json!(1)).len(), 1);
        assert!(current.problems(&json!(2)).is_empty());
    }

    #[test]
    fn a_reference_to_another_document_is_never_followed() {
        let file = std::env::temp_dir().join("toolport-schema-validator-ref.json");
        std::fs::write(&file, r#"{"type": "string"}"#).unwrap();
        let reference = format!("file://{}", file.display());
        let refused = SchemaValidator::new(json!({"$ref": reference}));
        std::fs::remove_file(&file).unwrap();
        assert!(refused.is_err());
        let remote = SchemaValidator::new(json!({"$ref": "https://example.com/schema.json"}));
        assert!(remote.is_err());
    }
}
