//! Multi round-trip requests on 2026-07-28: a call, a prompt and a read answered with
//! `input_required` are answered through the elicitation handler and sent again with the
//! server's request state; a round that asks nothing is retried; a server that keeps asking is
//! cut off at the bound; input the client does not give fails plainly; and a URL to visit is
//! shown with its domain, unless it is plain `http` off loopback, which is declined unseen.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, InputRequests, InputRequiredResult,
    PromptMessage, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, ResourceContents, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Map, Value, json};
use toolport_core::BoxError;
use toolport_session::{
    CallOptions, ElicitationHandler, ElicitationRequest, ElicitationResponse, McpSession,
    SessionError,
};
use toolport_testkit::{DuplexConnector, first_text};

/// A question for the party's size, under `key`.
fn ask_party_size() -> InputRequests {
    serde_json::from_value(json!({
        "party": {
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "How many guests?",
                "requestedSchema": {
                    "type": "object",
                    "properties": {"guests": {"type": "integer", "minimum": 1}},
                    "required": ["guests"]
                }
            }
        }
    }))
    .unwrap()
}

/// The guests the `party` answer gives, if it is there and accepted.
fn guests(responses: Option<&rmcp::model::InputResponses>) -> Option<i64> {
    let answer = responses?.get("party")?;
    (answer["action"] == "accept").then(|| answer["content"]["guests"].as_i64())?
}

/// A restaurant that asks how many guests before it books, remembers nothing between
/// requests (the state rides in `requestState`), and counts the calls it was sent.
#[derive(Debug, Clone, Default)]
struct Restaurant {
    calls: Arc<AtomicUsize>,
    /// The request state of each call, in order.
    states: Arc<Mutex<Vec<Option<String>>>>,
}

impl ServerHandler for Restaurant {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_resources()
            .build();
        ServerConfig::new(capabilities)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        self.states
            .lock()
            .unwrap()
            .push(request.request_state.clone());
        let asked = match request.name.as_ref() {
            "book" => match (
                request.request_state.as_deref(),
                guests(request.input_responses.as_ref()),
            ) {
                (Some("asked"), Some(guests)) => {
                    let text = format!("booked for {guests}");
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
                }
                (Some("asked"), None) => {
                    let text = "no booking without a party size";
                    return Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into());
                }
                _ => InputRequiredResult::new(Some(ask_party_size()), Some("asked".to_owned())),
            },
            "wait_for_table" => match request.request_state.as_deref() {
                Some("ready") => {
                    return Ok(CallToolResult::success(vec![ContentBlock::text("seated")]).into());
                }
                Some(_) => InputRequiredResult::from_request_state("ready"),
                None => InputRequiredResult::from_request_state("queued"),
            },
            "pester" => InputRequiredResult::new(Some(ask_party_size()), None),
            "pay_securely" | "pay_plainly" => {
                if let Some(answer) = request.input_responses.as_ref().and_then(|r| r.get("pay")) {
                    let text = format!("payment {}", answer["action"].as_str().unwrap_or("?"));
                    return Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into());
                }
                let scheme = if request.name == "pay_securely" {
                    "https"
                } else {
                    "http"
                };
                InputRequiredResult::from_input_requests(
                    serde_json::from_value(json!({
                        "pay": {
                            "method": "elicitation/create",
                            "params": {
                                "mode": "url",
                                "message": "Pay for the table",
                                "url": format!("{scheme}://pay.example.com/checkout"),
                                "elicitationId": "pay-1"
                            }
                        }
                    }))
                    .unwrap(),
                )
            }
            "sample" => InputRequiredResult::from_input_requests(
                serde_json::from_value(json!({
                    "menu": {
                        "method": "sampling/createMessage",
                        "params": {"messages": [], "maxTokens": 10}
                    }
                }))
                .unwrap(),
            ),
            other => return Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
        };
        Ok(asked.into())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        match guests(request.input_responses.as_ref()) {
            Some(guests) => {
                let text = format!("Plan a dinner for {guests}.");
                let message = PromptMessage::new_text(Role::User, text);
                Ok(GetPromptResult::new(vec![message]).into())
            }
            None => Ok(InputRequiredResult::from_input_requests(ask_party_size()).into()),
        }
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        match guests(request.input_responses.as_ref()) {
            Some(guests) => {
                let contents = ResourceContents::text(format!("a table for {guests}"), request.uri);
                Ok(ReadResourceResult::new(vec![contents]).into())
            }
            None => Ok(InputRequiredResult::from_input_requests(ask_party_size()).into()),
        }
    }
}

/// Answers every form with a party of four, and counts the questions.
#[derive(Debug, Clone, Default)]
struct PartyOfFour {
    asked: Arc<AtomicUsize>,
}

#[async_trait::async_trait]
impl ElicitationHandler for PartyOfFour {
    async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationResponse, BoxError> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        assert!(
            matches!(request, ElicitationRequest::Form { ref message, .. } if message == "How many guests?")
        );
        let mut answer = Map::new();
        answer.insert("guests".into(), Value::from(4));
        Ok(ElicitationResponse::Accept(Some(answer)))
    }
}

/// Accepts every URL it is shown, and remembers the domains.
#[derive(Debug, Clone, Default)]
struct Payer {
    domains: Arc<Mutex<Vec<String>>>,
}

#[async_trait::async_trait]
impl ElicitationHandler for Payer {
    async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationResponse, BoxError> {
        let ElicitationRequest::Url { domain, .. } = request else {
            return Ok(ElicitationResponse::Decline);
        };
        self.domains.lock().unwrap().push(domain);
        Ok(ElicitationResponse::Accept(None))
    }
}

fn session(restaurant: &Restaurant, handler: Option<PartyOfFour>) -> McpSession {
    let served = restaurant.clone();
    let builder = McpSession::builder(DuplexConnector::new(move || served.clone()))
        .protocol_version(ProtocolVersion::V_2026_07_28)
        .max_input_rounds(3);
    match handler {
        Some(handler) => builder.elicitation_handler(handler).build(),
        None => builder.build(),
    }
}

async fn call(session: &McpSession, tool: &str) -> Result<CallToolResult, SessionError> {
    let params = CallToolRequestParams::new(tool.to_owned());
    session.call_tool(params, CallOptions::default()).await
}

#[tokio::test]
async fn a_call_that_asks_for_input_is_answered_and_sent_again_with_its_state() {
    let restaurant = Restaurant::default();
    let handler = PartyOfFour::default();
    let session = session(&restaurant, Some(handler.clone()));
    let result = call(&session, "book").await.unwrap();
    assert_eq!(first_text(&result), "booked for 4");
    assert_eq!(handler.asked.load(Ordering::SeqCst), 1);
    assert_eq!(restaurant.calls.load(Ordering::SeqCst), 2);
    assert_eq!(
        *restaurant.states.lock().unwrap(),
        [None, Some("asked".to_owned())]
    );
    session.close().await;
}

#[tokio::test]
async fn without_a_handler_the_question_is_declined() {
    let restaurant = Restaurant::default();
    let session = session(&restaurant, None);
    let result = call(&session, "book").await.unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(first_text(&result), "no booking without a party size");
    session.close().await;
}

#[tokio::test]
async fn a_round_that_asks_nothing_is_sent_again_with_the_new_state() {
    let restaurant = Restaurant::default();
    let session = session(&restaurant, None);
    let result = call(&session, "wait_for_table").await.unwrap();
    assert_eq!(first_text(&result), "seated");
    let states = restaurant.states.lock().unwrap().clone();
    assert_eq!(
        states,
        [None, Some("queued".to_owned()), Some("ready".to_owned())]
    );
    session.close().await;
}

#[tokio::test]
async fn a_server_that_keeps_asking_is_cut_off_at_the_bound() {
    let restaurant = Restaurant::default();
    let handler = PartyOfFour::default();
    let session = session(&restaurant, Some(handler.clone()));
    let error = call(&session, "pester").await.unwrap_err();
    assert!(
        error
            .to_string()
            .contains("still asking for input after 3 rounds"),
        "{error}"
    );
    assert_eq!(restaurant.calls.load(Ordering::SeqCst), 3);
    assert_eq!(handler.asked.load(Ordering::SeqCst), 3);
    assert!(session.is_connected(), "the connection stays up");
    session.close().await;
}

#[tokio::test]
async fn input_the_client_does_not_give_fails_plainly() {
    let restaurant = Restaurant::default();
    let session = session(&restaurant, None);
    let error = call(&session, "sample").await.unwrap_err();
    assert!(matches!(error, SessionError::Unsupported { .. }), "{error}");
    assert!(
        error
            .to_string()
            .contains("sampling/createMessage (asked for by its answer to tools/call sample)"),
        "{error}"
    );
    session.close().await;
}

#[tokio::test]
async fn a_prompt_and_a_read_answer_their_questions_too() {
    let restaurant = Restaurant::default();
    let session = session(&restaurant, Some(PartyOfFour::default()));
    let prompt = session.get_prompt("dinner", Map::new()).await.unwrap();
    let text = serde_json::to_value(&prompt.messages[0].content).unwrap();
    assert_eq!(text["text"], "Plan a dinner for 4.");
    let read = session.read_resource("tables://tonight").await.unwrap();
    assert!(
        matches!(&read.contents[0], ResourceContents::TextResourceContents { text, .. } if text == "a table for 4")
    );
    session.close().await;
}

#[tokio::test]
async fn a_url_is_shown_with_its_domain_and_a_plain_http_one_is_refused() {
    let restaurant = Restaurant::default();
    let payer = Payer::default();
    let served = restaurant.clone();
    let session = McpSession::builder(DuplexConnector::new(move || served.clone()))
        .protocol_version(ProtocolVersion::V_2026_07_28)
        .elicitation_handler(payer.clone())
        .build();
    let paid = call(&session, "pay_securely").await.unwrap();
    assert_eq!(first_text(&paid), "payment accept");
    let refused = call(&session, "pay_plainly").await.unwrap();
    assert_eq!(first_text(&refused), "payment decline");
    assert_eq!(
        *payer.domains.lock().unwrap(),
        ["pay.example.com"],
        "the http URL never reached the handler"
    );
    session.close().await;
}
