//! [`Scenario`]: what the client does for each scenario the suite names.

use anyhow::{Result, bail};
use serde_json::{Map, Value, json};
use toolport::model::{CallToolRequestParams, CallToolResult, Tool};
use toolport::{CallOptions, McpSession, SessionError};

use crate::elicitation::AcceptDefaults;
use crate::{auth, context, session};

/// One scenario of the suite, as named in `MCP_CONFORMANCE_SCENARIO`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Scenario {
    /// `initialize`: the handshake, then `tools/list`.
    Initialize,
    /// `tools_call`: call `add_numbers` with two numbers.
    ToolsCall,
    /// `elicitation-sep1034-client-defaults`: call the tool that elicits, and accept the
    /// form with the schema's defaults.
    ElicitationDefaults,
    /// `sse-retry`: call `test_reconnection`, whose SSE stream closes after a priming event;
    /// the answer comes on the stream resumed with `Last-Event-ID` after the `retry:` delay.
    SseRetry,
    /// `json-schema-2020-12-preservation`: send the input schema of `json_schema_2020_12_tool`,
    /// as the session received it, back through `json_schema_echo`, so the suite can see which
    /// JSON Schema 2020-12 keywords survived.
    SchemaPreservation,
    /// `http-invalid-tool-headers`: call every tool the session lists (it leaves out the ones
    /// whose `x-mcp-header` annotations are invalid), each with a placeholder for every
    /// required argument.
    EveryListedTool,
    /// Any other scenario, the `auth/*` ones included: connect, list the tools, and make the
    /// calls the suite's context names (`toolCalls`), or else call each tool that needs no
    /// arguments with `{}`.
    ///
    /// The `auth/*` servers answer the first request with `401`, and the session's OAuth client
    /// authorizes (see [`auth`]).
    Generic(String),
}

impl Scenario {
    /// The scenario named `name`.
    pub(crate) fn parse(name: &str) -> Self {
        match name {
            "initialize" => Self::Initialize,
            "tools_call" => Self::ToolsCall,
            "elicitation-sep1034-client-defaults" => Self::ElicitationDefaults,
            "sse-retry" => Self::SseRetry,
            "json-schema-2020-12-preservation" => Self::SchemaPreservation,
            "http-invalid-tool-headers" => Self::EveryListedTool,
            other => Self::Generic(other.to_owned()),
        }
    }

    /// The scenario's name, for messages.
    pub(crate) fn name(&self) -> &str {
        match self {
            Self::Initialize => "initialize",
            Self::ToolsCall => "tools_call",
            Self::ElicitationDefaults => "elicitation-sep1034-client-defaults",
            Self::SseRetry => "sse-retry",
            Self::SchemaPreservation => "json-schema-2020-12-preservation",
            Self::EveryListedTool => "http-invalid-tool-headers",
            Self::Generic(name) => name,
        }
    }

    /// Plays the scenario against the server at `url`, and closes the session.
    pub(crate) async fn run(&self, url: &str) -> Result<()> {
        let builder = session::builder(url, auth::authorizer(self.name(), url).await?);
        let session = match self {
            Self::ElicitationDefaults => builder.elicitation_handler(AcceptDefaults),
            _ => builder,
        }
        .build();
        let outcome = self.play(&session).await;
        session.close().await;
        outcome
    }

    async fn play(&self, session: &McpSession) -> Result<()> {
        let tools = session.list_tools().await.map_err(explain)?;
        match self {
            Self::Initialize => Ok(()),
            Self::ToolsCall => call(session, "add_numbers", json!({"a": 2, "b": 3})).await,
            Self::ElicitationDefaults => {
                call(session, "test_client_elicitation_defaults", json!({})).await
            }
            Self::SseRetry => call(session, "test_reconnection", json!({})).await,
            Self::SchemaPreservation => {
                let Some(focal) = tools
                    .iter()
                    .find(|tool| tool.name == "json_schema_2020_12_tool")
                else {
                    bail!("the server does not list `json_schema_2020_12_tool`");
                };
                let schema = Value::Object(focal.input_schema.as_ref().clone());
                call(session, "json_schema_echo", json!({"schema": schema})).await
            }
            Self::EveryListedTool => {
                for tool in &tools {
                    call(session, &tool.name, Value::Object(placeholders(tool))).await?;
                }
                Ok(())
            }
            Self::Generic(_) => {
                let asked = context::tool_calls();
                if !asked.is_empty() {
                    for asked in asked {
                        call(session, &asked.name, Value::Object(asked.arguments)).await?;
                    }
                    return Ok(());
                }
                for tool in tools.iter().filter(|tool| needs_no_arguments(tool)) {
                    call(session, &tool.name, json!({})).await?;
                }
                Ok(())
            }
        }
    }
}

/// Calls `name` with `arguments`. A result the server flags as an error fails the scenario.
async fn call(session: &McpSession, name: &str, arguments: Value) -> Result<()> {
    let Value::Object(arguments) = arguments else {
        bail!("the arguments of `{name}` must be a JSON object");
    };
    let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
    let result = session
        .call_tool(params, CallOptions::default())
        .await
        .map_err(explain)?;
    if result.is_error == Some(true) {
        bail!("`{name}` returned a tool error: {}", text_of(&result));
    }
    Ok(())
}

/// Whether `tool`'s input schema requires nothing, so that `{}` is a valid call.
fn needs_no_arguments(tool: &Tool) -> bool {
    tool.input_schema
        .get("required")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty)
}

/// Arguments for `tool`: a placeholder for each required property, by its type (`"conformance"`
/// for a string or anything untyped, 1 for a number, `true` for a boolean).
fn placeholders(tool: &Tool) -> Map<String, Value> {
    let schema = &tool.input_schema;
    let required = schema.get("required").and_then(Value::as_array);
    let properties = schema.get("properties");
    required
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|name| {
            let kind = properties
                .and_then(|properties| properties.get(name))
                .and_then(|property| property.get("type"))
                .and_then(Value::as_str);
            let value = match kind {
                Some("integer" | "number") => json!(1),
                Some("boolean") => json!(true),
                _ => json!("conformance"),
            };
            (name.to_owned(), value)
        })
        .collect()
}

/// The text parts of `result`, joined, for an error message.
fn text_of(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|content| content.as_text().map(|text| text.text.as_str()))
        .collect();
    texts.join(" ")
}

/// A session error, with the reason spelled out when the server wants authorization.
fn explain(error: SessionError) -> anyhow::Error {
    if matches!(error, SessionError::Unauthorized { .. }) {
        return anyhow::Error::new(error)
            .context("the server requires authorization, and this client does not do OAuth yet");
    }
    anyhow::Error::new(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_round_trip_and_others_are_generic() {
        for name in [
            "initialize",
            "tools_call",
            "elicitation-sep1034-client-defaults",
            "sse-retry",
            "json-schema-2020-12-preservation",
            "http-invalid-tool-headers",
            "auth/metadata-default",
        ] {
            assert_eq!(Scenario::parse(name).name(), name);
        }
        assert_eq!(
            Scenario::parse("auth/metadata-default"),
            Scenario::Generic("auth/metadata-default".to_owned())
        );
    }

    #[test]
    fn a_tool_with_required_arguments_is_not_called_blindly() {
        let tool = |schema: Value| {
            let Value::Object(schema) = schema else {
                unreachable!()
            };
            Tool::new("t", "", schema)
        };
        assert!(needs_no_arguments(&tool(json!({"type": "object"}))));
        assert!(needs_no_arguments(&tool(
            json!({"type": "object", "required": []})
        )));
        assert!(!needs_no_arguments(&tool(
            json!({"type": "object", "required": ["a"]})
        )));
    }

    #[test]
    fn placeholders_fill_the_required_arguments_by_type() {
        let Value::Object(schema) = json!({
            "type": "object",
            "properties": {
                "region": { "type": "string" },
                "count": { "type": "integer" },
                "on": { "type": "boolean" },
                "optional": { "type": "string" },
            },
            "required": ["region", "count", "on"],
        }) else {
            unreachable!()
        };
        let arguments = placeholders(&Tool::new("t", "", schema));
        assert_eq!(
            Value::Object(arguments),
            json!({ "region": "conformance", "count": 1, "on": true })
        );
    }
}
