//! A message endpoint that answers 404, against the fixtures' `FaultHost` on 127.0.0.1: the
//! server forgot the session while its event stream stays open. The message was refused, so it
//! did not run: the transport says it was not delivered, and the session initializes a new one
//! and sends it there, once.

use rmcp::model::{
    CallToolRequest, ClientJsonRpcMessage, ClientRequest, PingRequest, ProtocolVersion, RequestId,
};
use rmcp::transport::Transport as _;
use serde_json::json;
use toolport_core::{ConnectContext, Connector, NotDelivered, Timeouts};
use toolport_fixtures::{FaultBehaviour, FaultHost, HostTransport};
use toolport_session::{CallOptions, McpSession};
use toolport_sse::SseServer;
use toolport_testkit::{bounded, call_params, first_text};

async fn forgetful_host() -> FaultHost {
    let start = FaultHost::start(FaultBehaviour::SessionExpiry, HostTransport::LegacySse);
    bounded("start", start).await.unwrap()
}

async fn record(session: &McpSession, label: &str) -> String {
    let call = session.call_tool(
        call_params("record", json!({ "label": label })),
        CallOptions::default(),
    );
    let result = bounded("tools/call record", call).await.unwrap();
    first_text(&result).to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_404_from_the_endpoint_starts_a_new_session_and_the_call_runs_once() {
    let host = forgetful_host().await;
    let session = McpSession::builder(SseServer::new(host.url()))
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .build();
    assert_eq!(record(&session, "before").await, "before");
    // The host forgot the session after that answer: the next post gets a 404.
    assert_eq!(record(&session, "after").await, "after");
    assert_eq!(host.initializations(), 2, "one new session");
    assert_eq!(
        host.executions(),
        2,
        "the refused call ran once, on the new session"
    );
    session.close().await;
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_404_every_message_fails_as_not_delivered() {
    let host = forgetful_host().await;
    let context = ConnectContext::new(Timeouts::default());
    let server = SseServer::new(host.url());
    let connection = bounded("connect", server.connect(&context)).await.unwrap();
    let mut transport = connection.transport;
    let ping = |id: i64| {
        let request = ClientRequest::PingRequest(PingRequest::default());
        ClientJsonRpcMessage::request(request, RequestId::Number(id))
    };
    let call = ClientJsonRpcMessage::request(
        ClientRequest::CallToolRequest(CallToolRequest::new(call_params(
            "record",
            json!({ "label": "expires" }),
        ))),
        RequestId::Number(1),
    );
    bounded("the call", transport.send(call)).await.unwrap();
    // The answer to the call comes on the stream; then the host forgets the session.
    bounded("the answer", transport.receive()).await.unwrap();
    for id in [2, 3] {
        let error = bounded("a ping", transport.send(ping(id)))
            .await
            .unwrap_err();
        assert!(NotDelivered::find(&error), "{error}");
        assert!(error.to_string().contains("404"), "{error}");
    }
    bounded("close", transport.close()).await.unwrap();
    host.stop().await;
}
