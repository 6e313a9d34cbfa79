//! Progress of a call: the reports reach the call's own callback, and, when asked, restart its
//! bound up to a total. A scripted server, on paused time.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::scripted_connection;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use tokio::task::JoinHandle;
use toolport_core::Timeouts;
use toolport_session::{CallOptions, McpSession, Progress, SessionError};
use toolport_testkit::call_params;
use toolport_testkit::scripted::{self, ScriptedConnection};

/// A session whose requests are bounded by 400 ms, and its scripted connection.
async fn session() -> (McpSession, ScriptedConnection) {
    let (connector, server) = scripted::pair();
    let session = McpSession::builder(connector)
        .timeouts(Timeouts::default().with_request(Duration::from_millis(400)))
        .build();
    let connection = scripted_connection(&session, &server).await;
    (session, connection)
}

/// Calls the tool `work` with `options` on a task of its own.
fn start_work(
    session: &McpSession,
    options: CallOptions,
) -> JoinHandle<Result<CallToolResult, SessionError>> {
    let session = session.clone();
    tokio::spawn(async move {
        session
            .call_tool(call_params("work", json!({})), options)
            .await
    })
}

fn progress(token: &Value, progress: u32) -> Value {
    json!({"progressToken": token, "progress": progress, "total": 3, "message": format!("step {progress}")})
}

fn text_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

#[tokio::test(start_paused = true)]
async fn reports_reach_the_callback_of_the_call_they_name() {
    let (session, mut connection) = session().await;
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let options = CallOptions::default().on_progress({
        let seen = seen.clone();
        move |report| seen.lock().unwrap().push(report)
    });
    let call = start_work(&session, options);

    let request = connection.expect_request("tools/call").await;
    let token = request.params()["_meta"]["progressToken"].clone();
    assert!(!token.is_null(), "a token was sent: {}", request.params());
    connection.notify("notifications/progress", progress(&token, 1));
    connection.notify(
        "notifications/progress",
        progress(&json!("someone-else"), 9),
    );
    connection.notify("notifications/progress", progress(&token, 2));
    tokio::time::sleep(Duration::from_millis(10)).await;
    connection.respond(&request, text_result("done"));
    call.await.unwrap().unwrap();

    let seen = seen.lock().unwrap().clone();
    let steps: Vec<(f64, Option<f64>, Option<&str>)> = seen
        .iter()
        .map(|report| (report.progress, report.total, report.message.as_deref()))
        .collect();
    assert_eq!(
        steps,
        [
            (1.0, Some(3.0), Some("step 1")),
            (2.0, Some(3.0), Some("step 2"))
        ]
    );
    session.close().await;
}

/// Sends a report every 150 ms, `reports` times, then (if `answer`) the result.
async fn report_slowly(connection: &mut ScriptedConnection, reports: u32, answer: bool) {
    let request = connection.expect_request("tools/call").await;
    let token = request.params()["_meta"]["progressToken"].clone();
    for step in 1..=reports {
        tokio::time::sleep(Duration::from_millis(150)).await;
        connection.notify("notifications/progress", progress(&token, step));
    }
    if answer {
        connection.respond(&request, text_result("done"));
    }
}

#[tokio::test(start_paused = true)]
async fn progress_keeps_a_long_call_alive_only_when_asked_to() {
    let (session, mut connection) = session().await;

    // 1.2 s of work, reported every 150 ms, against a 400 ms bound.
    let extended = CallOptions::default().extend_timeout_on_progress(Duration::from_secs(5));
    let call = start_work(&session, extended);
    report_slowly(&mut connection, 8, true).await;
    let result = call.await.unwrap().unwrap();
    assert!(result.is_error != Some(true));

    let plain = CallOptions::default().on_progress(|_| {});
    let call = start_work(&session, plain);
    report_slowly(&mut connection, 3, false).await;
    let error = call.await.unwrap().unwrap_err();
    assert!(error.is_timeout(), "{error}");
    assert!(error.to_string().contains("400 ms"), "{error}");
    session.close().await;
}

#[tokio::test(start_paused = true)]
async fn a_call_that_keeps_reporting_is_still_cut_off_at_its_total() {
    let (session, mut connection) = session().await;
    let options = CallOptions::default().extend_timeout_on_progress(Duration::from_secs(1));
    let call = start_work(&session, options);
    // Reports for 3 s, never answers.
    report_slowly(&mut connection, 20, false).await;
    let error = call.await.unwrap().unwrap_err();
    assert!(error.is_timeout(), "{error}");
    let cancelled = connection
        .expect_notification("notifications/cancelled")
        .await;
    assert!(
        cancelled.params()["reason"]
            .as_str()
            .is_some_and(|reason| reason.contains("gave up after 1000 ms")),
        "{}",
        cancelled.params()
    );
    session.close().await;
}
