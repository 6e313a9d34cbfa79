//! Idempotency keys against a server with a side effect: a charge whose answer comes too late
//! is sent again with the same key, and the server charges once; without a key the timed-out
//! charge is not repeated, and the error says its outcome is unknown.

mod common;

use std::time::Duration;

use serde_json::json;
use toolport_core::Timeouts;
use toolport_fixtures::PaymentsServer;
use toolport_testkit::{DuplexConnector, first_text};
use toolport_tools::{
    Idempotency, McpToolset, McpToolsetBuilder, ReadonlyContext, ReplayPolicy, Tool,
};

/// A toolset over `server`, whose calls time out after a second.
fn builder(server: &PaymentsServer) -> McpToolsetBuilder {
    let server = server.clone();
    McpToolset::builder(DuplexConnector::new(move || server.clone())).session(|session| {
        session.timeouts(Timeouts::default().with_request(Duration::from_secs(1)))
    })
}

fn invocation(id: &str) -> ReadonlyContext {
    ReadonlyContext::from_json(json!({"invocation_id": id}))
}

#[tokio::test(start_paused = true)]
async fn a_timed_out_charge_is_sent_again_with_its_key_and_charges_once() {
    let server = PaymentsServer::new().slow_first_answer(Duration::from_secs(60));
    let toolset = builder(&server)
        .replay(
            ReplayPolicy::default().idempotent("charge", Idempotency::argument("idempotency_key")),
        )
        .build()
        .await
        .unwrap();
    let charge = toolset.tool("charge", None).await.unwrap();
    let parameters = &charge.declaration().parameters;
    assert!(
        parameters["properties"].get("idempotency_key").is_none(),
        "the model never sees the key: {parameters}"
    );

    let result = charge
        .call_raw(json!({"amount": 500}), Some(&invocation("inv-1")))
        .await
        .unwrap();
    assert_eq!(first_text(&result), "R-1: charged 500 cents");
    assert_eq!(server.charges(), 1, "the retry was not charged again");

    // The same model call in the same invocation is the same charge.
    let again = charge
        .call_raw(json!({"amount": 500}), Some(&invocation("inv-1")))
        .await
        .unwrap();
    assert_eq!(first_text(&again), "R-1: charged 500 cents");
    assert_eq!(server.charges(), 1);
    toolset.close().await;
}

#[tokio::test(start_paused = true)]
async fn without_a_key_a_timed_out_charge_is_not_repeated() {
    let server = PaymentsServer::new().slow_first_answer(Duration::from_secs(60));
    let toolset = builder(&server).build().await.unwrap();
    let charge = toolset.tool("charge", None).await.unwrap();
    let error = charge
        .call(json!({"amount": 500}), Some(&invocation("inv-1")))
        .await
        .unwrap_err();
    assert!(
        error.is_timeout() && error.is_outcome_uncertain(),
        "{error}"
    );
    assert_eq!(server.charges(), 1, "charged once, and not sent again");
    toolset.close().await;
}

#[tokio::test]
async fn a_key_in_meta_leaves_the_arguments_alone() {
    let listed = json!({"name": "charge", "inputSchema": {"type": "object"}});
    let meta = Idempotency::meta("io.example/idempotency-key");
    let (call, mut connection, toolset) = common::call_listed(
        listed,
        |builder| builder.replay(ReplayPolicy::default().idempotent("charge", meta)),
        json!({"amount": 7}),
    )
    .await;
    let request = connection.expect_request("tools/call").await;
    assert_eq!(request.params()["arguments"], json!({"amount": 7}));
    let key = request.params()["_meta"]["io.example/idempotency-key"]
        .as_str()
        .unwrap();
    assert!(key.starts_with("tpk-"), "{key}");
    connection.respond(&request, json!({"content": []}));
    assert!(call.await.unwrap().is_ok());
    toolset.close().await;
}
