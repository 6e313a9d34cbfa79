//! Elicitation through the session: the capability is advertised only with a handler, answers
//! are checked against the schema, and a failing or panicking handler declines without harming
//! the connection.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CallToolRequestParams, ElicitRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::RoleServer;
use rmcp::{Peer, ServerHandler, tool, tool_handler, tool_router};
use serde_json::{Map, Value, json};
use toolport_core::BoxError;
use toolport_session::{
    CallOptions, ElicitationHandler, ElicitationRequest, ElicitationResponse, McpSession,
    apply_schema_defaults,
};
use toolport_testkit::DuplexConnector;

/// A server whose `ask` tool elicits a form and reports what came back.
#[derive(Debug, Clone)]
struct Asker {
    tool_router: ToolRouter<Self>,
}

#[tool_router(router = tool_router)]
impl Asker {
    fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    #[tool(description = "Asks the user for a name and an age, and returns the answer.")]
    async fn ask(&self, peer: Peer<RoleServer>) -> Result<String, String> {
        let params: ElicitRequestParams = serde_json::from_value(json!({
            "mode": "form",
            "message": "Who are you?",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "default": "Ada"},
                    "age": {"type": "integer", "minimum": 0}
                },
                "required": ["age"]
            }
        }))
        .map_err(|e| e.to_string())?;
        let result = peer
            .create_elicitation(params)
            .await
            .map_err(|e| e.to_string())?;
        serde_json::to_string(&result).map_err(|e| e.to_string())
    }

    #[tool(description = "Says whether the client advertised elicitation.")]
    async fn can_elicit(&self, peer: Peer<RoleServer>) -> String {
        let advertised = peer
            .peer_info()
            .is_some_and(|info| info.capabilities.elicitation.is_some());
        advertised.to_string()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Asker {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

/// Answers every form with a fixed outcome.
#[derive(Debug)]
enum Answer {
    WithDefaults(Map<String, Value>),
    Fails,
    Panics,
}

#[async_trait::async_trait]
impl ElicitationHandler for Answer {
    async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationResponse, BoxError> {
        let ElicitationRequest::Form { schema, .. } = request else {
            return Ok(ElicitationResponse::Decline);
        };
        match self {
            Self::WithDefaults(given) => {
                let mut answer = given.clone();
                apply_schema_defaults(&schema, &mut answer);
                Ok(ElicitationResponse::Accept(Some(answer)))
            }
            Self::Fails => Err("the user interface is gone".into()),
            Self::Panics => panic!("a handler bug"),
        }
    }
}

fn session(handler: Option<Answer>) -> McpSession {
    let connector = Arc::new(DuplexConnector::new(Asker::new));
    // A server's own request mid-call is 2025-11-25's way to ask; 2026-07-28 asks with
    // `input_required` results (`input_rounds.rs`).
    let builder = McpSession::builder(connector).protocol_version(ProtocolVersion::V_2025_11_25);
    match handler {
        Some(handler) => builder.elicitation_handler(handler).build(),
        None => builder.build(),
    }
}

async fn call(session: &McpSession, tool: &str) -> String {
    let result = session
        .call_tool(
            CallToolRequestParams::new(tool.to_owned()),
            CallOptions::default(),
        )
        .await
        .unwrap();
    result.content[0].as_text().unwrap().text.clone()
}

fn answer(given: Value) -> Answer {
    Answer::WithDefaults(given.as_object().unwrap().clone())
}

#[tokio::test]
async fn the_capability_is_advertised_only_with_a_handler() {
    let without = session(None);
    let with = session(Some(answer(json!({"age": 1}))));

    assert_eq!(call(&without, "can_elicit").await, "false");
    assert_eq!(call(&with, "can_elicit").await, "true");
    without.close().await;
    with.close().await;
}

#[tokio::test]
async fn an_answer_is_sent_with_the_schema_defaults() {
    let session = session(Some(answer(json!({"age": 36}))));

    let result: Value = serde_json::from_str(&call(&session, "ask").await).unwrap();

    assert_eq!(
        result,
        json!({"action": "accept", "content": {"name": "Ada", "age": 36}})
    );
    session.close().await;
}

#[tokio::test]
async fn an_answer_that_breaks_the_schema_is_declined() {
    let session = session(Some(answer(json!({"age": "thirty-six"}))));

    let result: Value = serde_json::from_str(&call(&session, "ask").await).unwrap();

    assert_eq!(result, json!({"action": "decline"}));
    session.close().await;
}

#[tokio::test]
async fn a_failing_or_panicking_handler_declines_and_the_connection_stays_usable() {
    for handler in [Answer::Fails, Answer::Panics] {
        let session = session(Some(handler));

        let first: Value = serde_json::from_str(&call(&session, "ask").await).unwrap();
        let second: Value = serde_json::from_str(&call(&session, "ask").await).unwrap();

        assert_eq!(first, json!({"action": "decline"}));
        assert_eq!(second, json!({"action": "decline"}));
        assert_eq!(call(&session, "can_elicit").await, "true");
        session.close().await;
    }
}
