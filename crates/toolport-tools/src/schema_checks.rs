//! [`SchemaChecks`]: a tool's arguments checked against its input schema before they are sent,
//! and its structured content against its output schema, with each validator compiled once per
//! tool (with the `jsonschema` feature).

use serde_json::Value;
#[cfg(feature = "jsonschema")]
use toolport_session::SchemaValidator;

use crate::ToolDefinition;

/// Which of a tool's schemas its calls are checked against. Both by default.
///
/// The checks need the `jsonschema` feature (on by default); without it no call is checked.
/// A schema that cannot be compiled (invalid, or with a `$ref` to another document, which is
/// never fetched), or that nests more than [`MAX_DEPTH`](crate::schema::MAX_DEPTH) levels deep once its local `$ref`s
/// are followed (what the validator recurses through), turns its check off for that tool,
/// with a warning in the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaChecks {
    /// The model's arguments against the input schema, before anything is sent: a mismatch is
    /// a [`ToolError::InvalidArguments`](crate::ToolError::InvalidArguments) that names each
    /// field, and nothing reaches the server.
    pub arguments: bool,
    /// The result's `structuredContent` against the output schema: a mismatch is a
    /// [`ToolError::InvalidOutput`](crate::ToolError::InvalidOutput), which keeps the result.
    pub structured_content: bool,
}

impl SchemaChecks {
    /// Both checks.
    pub const ALL: Self = Self {
        arguments: true,
        structured_content: true,
    };

    /// No check.
    pub const NONE: Self = Self {
        arguments: false,
        structured_content: false,
    };
}

impl Default for SchemaChecks {
    fn default() -> Self {
        Self::ALL
    }
}

/// The most problems one message lists; the rest are counted.
#[cfg(feature = "jsonschema")]
const LISTED_PROBLEMS: usize = 5;

/// One tool's validators, each compiled on its first use.
#[derive(Debug, Default)]
pub(crate) struct Validators {
    checks: SchemaChecks,
    #[cfg(feature = "jsonschema")]
    input: std::sync::OnceLock<Option<SchemaValidator>>,
    #[cfg(feature = "jsonschema")]
    output: std::sync::OnceLock<Option<SchemaValidator>>,
}

impl Validators {
    /// Validators for the checks asked for, none compiled yet.
    pub(crate) fn new(checks: SchemaChecks) -> Self {
        Self {
            checks,
            #[cfg(feature = "jsonschema")]
            input: std::sync::OnceLock::new(),
            #[cfg(feature = "jsonschema")]
            output: std::sync::OnceLock::new(),
        }
    }

    /// What is wrong with `arguments` (a JSON object, or null for none) against the tool's
    /// input schema, each problem naming its place.
    pub(crate) fn argument_problems(
        &self,
        definition: &ToolDefinition,
        arguments: &Value,
    ) -> Option<String> {
        if !self.checks.arguments {
            return None;
        }
        #[cfg(feature = "jsonschema")]
        {
            let validator = self
                .input
                .get_or_init(|| compile(&definition.name, "input", &definition.input_schema));
            let empty = Value::Object(serde_json::Map::new());
            let arguments = if arguments.is_null() {
                &empty
            } else {
                arguments
            };
            validator.as_ref().and_then(|v| problems(v, arguments))
        }
        #[cfg(not(feature = "jsonschema"))]
        {
            let _ = (definition, arguments);
            None
        }
    }

    /// What is wrong with a result's structured content against the tool's output schema. A
    /// tool without an output schema, or a result without structured content, has nothing to
    /// check.
    pub(crate) fn output_problems(
        &self,
        definition: &ToolDefinition,
        structured_content: Option<&Value>,
    ) -> Option<String> {
        if !self.checks.structured_content {
            return None;
        }
        #[cfg(feature = "jsonschema")]
        {
            let (schema, content) = (definition.output_schema.as_ref()?, structured_content?);
            let validator = self
                .output
                .get_or_init(|| compile(&definition.name, "output", schema));
            validator.as_ref().and_then(|v| problems(v, content))
        }
        #[cfg(not(feature = "jsonschema"))]
        {
            let _ = (definition, structured_content);
            None
        }
    }
}

#[cfg(feature = "jsonschema")]
fn compile(
    tool: &str,
    which: &str,
    schema: &serde_json::Map<String, Value>,
) -> Option<SchemaValidator> {
    let schema = Value::Object(schema.clone());
    // The validator recurses once per level of the schema, `$ref`s followed: a chain of
    // definitions could take it past the stack.
    let max = crate::schema::MAX_DEPTH;
    if crate::schema::expanded_depth(&schema, max) > max {
        tracing::warn!(
            tool,
            "the {which} schema nests more than {max} levels deep once its `$ref`s are \
             followed, so it is not checked"
        );
        return None;
    }
    match SchemaValidator::new(schema) {
        Ok(validator) => Some(validator),
        Err(error) => {
            tracing::warn!(
                tool,
                "the {which} schema cannot be compiled, so it is not checked: {error}"
            );
            None
        }
    }
}

/// Every way `instance` breaks the validator's schema, as one line: each problem with the place
/// in the instance it is at (`(root)` for the whole).
#[cfg(feature = "jsonschema")]
fn problems(validator: &SchemaValidator, instance: &Value) -> Option<String> {
    let problems = validator.problems(instance);
    if problems.is_empty() {
        return None;
    }
    let listed: Vec<String> = problems
        .iter()
        .take(LISTED_PROBLEMS)
        .map(|problem| {
            let place = if problem.place.is_empty() {
                "(root)"
            } else {
                &problem.place
            };
            format!("{place}: {}", problem.message)
        })
        .collect();
    let mut message = listed.join("; ");
    if problems.len() > listed.len() {
        message.push_str(&format!("; and {} more", problems.len() - listed.len()));
    }
    Some(message)
}
