//! [`Scenario`]: what the client does for each scenario the suite names.

use anyhow::{Result, bail};
use serde_json::{Value, json};
use toolport::model::{CallToolRequestParams, CallToolResult, Tool};
use toolport::{CallOptions, McpSession, SessionError};

use crate::elicitation::AcceptDefaults;
use crate::session;

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
    /// Any other scenario, the `auth/*` ones included: connect, list the tools, and call each
    /// tool that needs no arguments with `{}`.
    ///
    /// The `auth/*` servers answer the plain connection with `401`, and the client exits 1
    /// saying that it does not do OAuth yet.
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
            Self::Generic(name) => name,
        }
    }

    /// Plays the scenario against the server at `url`, and closes the session.
    pub(crate) async fn run(&self, url: &str) -> Result<()> {
        let builder = session::builder(url);
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
            Self::Generic(_) => {
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
}
