//! Tool calls a 2025-11-25 server runs as tasks of that version's own form, against a scripted
//! server: the task's questions, which arrive as `elicitation/create` requests naming the task,
//! reach the elicitation handler up to the bound on rounds; the next one is answered `cancel`
//! and the task is cancelled.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::model::ProtocolVersion;
use serde_json::{Map, Value, json};
use toolport_core::BoxError;
use toolport_session::{
    CallOptions, ElicitationHandler, ElicitationRequest, ElicitationResponse, McpSession,
};
use toolport_testkit::scripted::{self, ScriptedConnection};
use toolport_testkit::{bounded, call_params};

/// Accepts every question with the same answer, and counts them.
#[derive(Debug, Clone, Default)]
struct Counter {
    asked: Arc<AtomicUsize>,
}

#[async_trait::async_trait]
impl ElicitationHandler for Counter {
    async fn elicit(&self, _request: ElicitationRequest) -> Result<ElicitationResponse, BoxError> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let mut answer = Map::new();
        answer.insert("depth".into(), Value::from("deeper"));
        Ok(ElicitationResponse::Accept(Some(answer)))
    }
}

/// A task's state as 2025-11-25 describes it.
fn task(status: &str) -> Value {
    json!({
        "taskId": "t-1",
        "status": status,
        "createdAt": "2026-12-02T00:00:00Z",
        "lastUpdatedAt": "2026-12-02T00:00:00Z",
        "ttl": 60_000,
        "pollInterval": 1,
    })
}

/// The handshake of a server that runs tool calls as tasks, and its one tool, which must run
/// as one.
async fn serve_a_task_tool(connection: &mut ScriptedConnection) {
    let initialize = connection.expect_request("initialize").await;
    let mut result = scripted::initialize_result();
    result["capabilities"]["tasks"] = json!({"requests": {"tools": {"call": {}}}, "cancel": {}});
    connection.respond(&initialize, result);
    connection
        .expect_notification("notifications/initialized")
        .await;
    let list = connection.expect_request("tools/list").await;
    connection.respond(
        &list,
        json!({"tools": [{
            "name": "dig",
            "inputSchema": {"type": "object"},
            "execution": {"taskSupport": "required"},
        }]}),
    );
}

/// Sends the task's question number `round` while `tasks/result` waits.
fn ask(connection: &ScriptedConnection, round: u64) {
    connection.send(json!({
        "jsonrpc": "2.0",
        "id": 100 + round,
        "method": "elicitation/create",
        "params": {
            "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t-1"}},
            "message": "How deep?",
            "requestedSchema": {"type": "object", "properties": {"depth": {"type": "string"}}},
        },
    }));
}

#[tokio::test]
async fn a_task_that_keeps_asking_is_cancelled_at_the_bound_on_rounds() {
    let (connector, server) = scripted::pair();
    let counter = Counter::default();
    let session = McpSession::builder(connector)
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .elicitation_handler(counter.clone())
        .max_input_rounds(2)
        .build();
    let call = tokio::spawn({
        let session = session.clone();
        async move {
            let params = call_params("dig", json!({}));
            session.call_tool(params, CallOptions::default()).await
        }
    });

    let mut connection = server.accept().await;
    serve_a_task_tool(&mut connection).await;
    let created = connection.expect_request("tools/call").await;
    assert_eq!(created.params()["task"]["ttl"], json!(600_000));
    connection.respond(&created, json!({"task": task("working")}));
    let poll = connection.expect_request("tasks/get").await;
    connection.respond(&poll, task("input_required"));
    let waiting = connection.expect_request("tasks/result").await;
    assert_eq!(waiting.params()["taskId"], "t-1");
    for round in 1..=2 {
        ask(&connection, round);
        let answer = bounded("the answer", connection.recv()).await.unwrap();
        assert_eq!(answer.id(), Some(&json!(100 + round)), "{answer:?}");
        assert_eq!(answer.json["result"]["action"], "accept", "{answer:?}");
    }
    // The answer to the third question and the task's cancellation go out in either order.
    ask(&connection, 3);
    for _ in 0..2 {
        let sent = bounded("the answer or the cancellation", connection.recv())
            .await
            .unwrap();
        if sent.method() == Some("tasks/cancel") {
            assert_eq!(sent.params()["taskId"], "t-1");
            connection.respond(&sent, task("cancelled"));
        } else {
            assert_eq!(sent.id(), Some(&json!(103)), "{sent:?}");
            assert_eq!(sent.json["result"]["action"], "cancel", "{sent:?}");
        }
    }

    let error = bounded("the call", call).await.unwrap().unwrap_err();
    assert!(
        error
            .to_string()
            .contains("still asking for input after 2 rounds"),
        "{error}"
    );
    assert_eq!(counter.asked.load(Ordering::SeqCst), 2);
    session.close().await;
}
