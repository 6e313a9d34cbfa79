//! Elicitation against `@modelcontextprotocol/server-everything`, whose elicitation tools
//! appear only for a client that declares the capability: `trigger-elicitation-request` asks
//! for a form (answered with the schema's defaults and a name), and `trigger-url-elicitation`
//! asks the user to visit a URL, shown to the handler with its domain, or declined unseen when
//! it is plain `http` off loopback. Over stdio, Streamable HTTP and legacy SSE.

use std::sync::{Arc, Mutex};

use serde_json::{Map, Value, json};
use toolport::http::HttpServer;
use toolport::sse::SseServer;
use toolport::{
    BoxError, CallOptions, Connector, ElicitationHandler, ElicitationRequest, ElicitationResponse,
    McpSession, apply_schema_defaults,
};
use toolport_integration_tests::{RemotePeer, server_everything_stdio};
use toolport_testkit::bounded;

/// Fills in a form with its defaults and a name, accepts every URL it is shown, and keeps the
/// URLs' domains.
#[derive(Debug, Clone, Default)]
struct Person {
    domains: Arc<Mutex<Vec<String>>>,
}

#[toolport::async_trait]
impl ElicitationHandler for Person {
    async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationResponse, BoxError> {
        match request {
            ElicitationRequest::Form { schema, .. } => {
                let mut answer = Map::new();
                apply_schema_defaults(&schema, &mut answer);
                answer.insert("name".into(), Value::from("Ada Lovelace"));
                Ok(ElicitationResponse::Accept(Some(answer)))
            }
            ElicitationRequest::Url { domain, .. } => {
                self.domains.lock().unwrap().push(domain);
                Ok(ElicitationResponse::Accept(None))
            }
            _ => Ok(ElicitationResponse::Decline),
        }
    }
}

/// Every text of a call's result, joined.
async fn call(session: &McpSession, tool: &str, arguments: Value) -> String {
    let params = toolport_testkit::call_params(tool, arguments);
    let result = bounded(tool, session.call_tool(params, CallOptions::default()))
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result
        .content
        .iter()
        .filter_map(|content| content.as_text().map(|text| text.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

async fn elicit(connector: impl Connector) {
    let person = Person::default();
    let session = McpSession::builder(connector)
        .elicitation_handler(person.clone())
        .build();

    let form = call(&session, "trigger-elicitation-request", json!({})).await;
    assert!(
        form.contains("User provided the requested information"),
        "{form}"
    );
    assert!(form.contains("- Name: Ada Lovelace"), "{form}");
    assert!(
        form.contains("- Favorite Integer: 42"),
        "the default: {form}"
    );

    let url = json!({"url": "https://consent.example.com/agree?step=1"});
    let visited = call(&session, "trigger-url-elicitation", url).await;
    assert!(
        visited.contains("User completed the URL elicitation flow"),
        "{visited}"
    );
    assert_eq!(*person.domains.lock().unwrap(), ["consent.example.com"]);

    let plain = json!({"url": "http://consent.example.com/agree"});
    let refused = call(&session, "trigger-url-elicitation", plain).await;
    assert!(refused.to_lowercase().contains("decline"), "{refused}");
    assert_eq!(
        person.domains.lock().unwrap().len(),
        1,
        "a plain http URL off loopback never reaches the handler"
    );
    session.close().await;
}

#[tokio::test]
async fn forms_and_urls_over_stdio() {
    elicit(server_everything_stdio()).await;
}

#[tokio::test]
async fn forms_and_urls_over_streamable_http() {
    let peer = RemotePeer::server_everything("streamableHttp").await;
    elicit(HttpServer::new(peer.url("/mcp"))).await;
}

#[tokio::test]
async fn forms_and_urls_over_legacy_sse() {
    let peer = RemotePeer::server_everything("sse").await;
    elicit(SseServer::new(peer.url("/sse"))).await;
}
