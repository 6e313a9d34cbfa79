//! A call's own timeout: `McpTool::call_with_timeout` bounds one call instead of the session's
//! request timeout, shorter or longer, and a call without one keeps the request timeout. On
//! paused time, against an in-process lab server whose `sleep` answers after the time asked.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use tokio::time::Instant;
use toolport_core::Timeouts;
use toolport_fixtures::LabServer;
use toolport_testkit::DuplexConnector;
use toolport_tools::{McpToolset, Tool};

#[tokio::test(start_paused = true)]
async fn a_calls_own_timeout_wins_over_the_request_timeout_shorter_and_longer() {
    let connector = Arc::new(DuplexConnector::new(LabServer::new));
    let request = Timeouts::default().with_request(Duration::from_secs(1));
    let toolset = McpToolset::builder_shared(connector)
        .session(|session| session.timeouts(request))
        .build()
        .await
        .unwrap();
    let sleep = toolset.tool("sleep", None).await.unwrap();

    let started = Instant::now();
    let error = sleep.call(json!({"ms": 3_000}), None).await.unwrap_err();
    assert!(error.is_timeout(), "{error}");
    assert_eq!(
        started.elapsed(),
        Duration::from_secs(1),
        "the request timeout"
    );

    let longer = Duration::from_secs(5);
    let output = sleep
        .call_with_timeout(json!({"ms": 3_000}), None, longer)
        .await
        .unwrap();
    assert_eq!(output.value, "slept 3000 ms", "a longer bound of its own");

    let output = sleep.call(json!({"ms": 500}), None).await.unwrap();
    assert_eq!(output.value, "slept 500 ms");
    let started = Instant::now();
    let shorter = Duration::from_millis(100);
    let error = sleep
        .call_with_timeout(json!({"ms": 500}), None, shorter)
        .await
        .unwrap_err();
    assert!(
        error.is_timeout() && error.is_outcome_uncertain(),
        "{error}"
    );
    assert!(error.to_string().contains("after 100 ms"), "{error}");
    assert_eq!(started.elapsed(), shorter, "a shorter bound of its own");
    toolset.close().await;
}
