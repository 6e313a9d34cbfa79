//! The call path as a tower service: the user's layers see every call that passed the argument
//! checks, a tower timeout bounds a slow call, and a concurrency limit holds calls in flight to
//! its limit at the server.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use toolport_fixtures::LabServer;
use toolport_testkit::{DuplexConnector, WAIT, first_text, join_all};
use toolport_tools::{McpToolset, Tool, ToolCall, ToolError};
use tower::limit::ConcurrencyLimitLayer;
use tower::timeout::TimeoutLayer;
use tower::util::MapRequestLayer;

/// A layer that records the model-facing name of every call it sees, and passes it on.
fn recording(
    seen: &Arc<Mutex<Vec<String>>>,
) -> MapRequestLayer<impl Fn(ToolCall) -> ToolCall + Clone + use<>> {
    let seen = Arc::clone(seen);
    MapRequestLayer::new(move |call: ToolCall| {
        seen.lock().unwrap().push(call.name.clone());
        call
    })
}

fn lab() -> (Arc<DuplexConnector>, LabServer) {
    let lab = LabServer::new();
    let server = lab.clone();
    (Arc::new(DuplexConnector::new(move || server.clone())), lab)
}

#[tokio::test]
async fn a_user_layer_sees_every_call_that_passes_the_argument_checks() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector())
        .layer(recording(&seen))
        .build()
        .await
        .unwrap();
    let add_task = toolset.tool("add_task", None).await.unwrap();
    let list_tasks = toolset.tool("list_tasks", None).await.unwrap();

    add_task
        .call(json!({"title": "Tag v1.2"}), None)
        .await
        .unwrap();
    list_tasks.call(json!({}), None).await.unwrap();
    list_tasks
        .call(json!({"status": "open"}), None)
        .await
        .unwrap();
    let refused = list_tasks.call(json!({"status": "lost"}), None).await;

    assert!(matches!(refused, Err(ToolError::InvalidArguments { .. })));
    assert_eq!(
        *seen.lock().unwrap(),
        ["add_task", "list_tasks", "list_tasks"],
        "every call reached the layer, save the one the schema refused"
    );
    toolset.close().await;
}

#[tokio::test]
async fn layers_run_in_the_order_they_were_added_the_first_outermost() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let rename = |suffix: &'static str| {
        MapRequestLayer::new(move |call: ToolCall| {
            let name = format!("{}{suffix}", call.name);
            call.with_name(name)
        })
    };
    let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector())
        .layer(rename(" outer"))
        .layer(rename(" inner"))
        .layer(recording(&seen))
        .build()
        .await
        .unwrap();
    let list_tasks = toolset.tool("list_tasks", None).await.unwrap();
    list_tasks.call(json!({}), None).await.unwrap();
    assert_eq!(*seen.lock().unwrap(), ["list_tasks outer inner"]);
    toolset.close().await;
}

#[tokio::test(start_paused = true)]
async fn a_tower_timeout_bounds_a_slow_call() {
    let (connector, lab) = lab();
    let toolset = McpToolset::builder_shared(connector)
        .layer(TimeoutLayer::new(Duration::from_millis(100)))
        .build()
        .await
        .unwrap();
    let sleep = toolset.tool("sleep", None).await.unwrap();

    let error = sleep.call(json!({"ms": 60_000}), None).await.unwrap_err();
    assert!(matches!(error, ToolError::Layer(_)), "{error:?}");
    assert!(error.is_timeout(), "{error}");
    assert!(
        error.is_outcome_uncertain() && !error.is_permanent(),
        "{error}"
    );
    assert!(error.to_string().contains("layer"), "{error}");
    assert_eq!(
        lab.cancellations().wait_for(1, WAIT).await,
        1,
        "the call given up on was cancelled on the server"
    );

    let result = sleep.call_raw(json!({"ms": 50}), None).await.unwrap();
    assert_eq!(first_text(&result), "slept 50 ms");
    toolset.close().await;
}

#[tokio::test(start_paused = true)]
async fn a_session_error_passes_through_a_layer_unchanged() {
    let (connector, _lab) = lab();
    let toolset = McpToolset::builder_shared(connector.clone())
        .layer(TimeoutLayer::new(Duration::from_secs(60)))
        .build()
        .await
        .unwrap();
    let sleep = toolset.tool("sleep", None).await.unwrap();
    let call = tokio::spawn(async move { sleep.call(json!({"ms": 10_000}), None).await });
    tokio::time::sleep(Duration::from_millis(10)).await;
    connector.kill_all();

    let error = call.await.unwrap().unwrap_err();
    assert!(matches!(error, ToolError::Session(_)), "{error:?}");
    assert!(
        error.is_outcome_uncertain() && !error.is_timeout(),
        "{error}"
    );
    toolset.close().await;
}

#[tokio::test(start_paused = true)]
async fn a_concurrency_limit_holds_calls_in_flight_to_its_limit() {
    let (connector, lab) = lab();
    let toolset = McpToolset::builder_shared(connector)
        .layer(ConcurrencyLimitLayer::new(3))
        .build()
        .await
        .unwrap();
    let sleep = toolset.tool("sleep", None).await.unwrap();

    let calls = (0..12).map(|_| {
        let sleep = Arc::clone(&sleep);
        async move { sleep.call(json!({"ms": 200}), None).await }
    });
    let results = join_all(calls).await;

    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(
        lab.sleeps().peak(),
        3,
        "never more than the limit at the server"
    );
    toolset.close().await;
}
