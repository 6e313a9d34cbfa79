//! Tool calls a server runs as tasks (the tasks extension): the session follows the task to its
//! result on both protocol versions, answers its questions once each through the elicitation
//! handler, passes on its failure, and cancels it (`tasks/cancel`) at the timeout, at the poll
//! limit, at the bound on rounds of questions, and when the caller stops waiting. The task's
//! progress reports and new status messages reach the call's progress callback. A session that
//! does not offer tasks gets a plain answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::ProtocolVersion;
use serde_json::{Map, Value, json};
use toolport_core::BoxError;
use toolport_fixtures::ResearchDesk;
use toolport_session::{
    CallOptions, ElicitationHandler, ElicitationRequest, ElicitationResponse, McpSession,
    SessionBuilder, SessionError, TaskPolicy,
};
use toolport_testkit::{DuplexConnector, bounded, call_params, first_text, scripted};

const VERSIONS: [ProtocolVersion; 2] =
    [ProtocolVersion::V_2025_11_25, ProtocolVersion::V_2026_07_28];

fn builder(desk: &ResearchDesk, version: ProtocolVersion) -> SessionBuilder {
    let served = desk.clone();
    McpSession::builder(DuplexConnector::new(move || served.clone())).protocol_version(version)
}

async fn research(
    session: &McpSession,
    topic: &str,
    ambiguous: bool,
) -> Result<rmcp::model::CallToolResult, SessionError> {
    let params = call_params(
        ResearchDesk::TOOL,
        json!({"topic": topic, "ambiguous": ambiguous}),
    );
    bounded(
        "research",
        session.call_tool(params, CallOptions::default()),
    )
    .await
}

/// Waits until the desk has seen `count` tasks cancelled.
async fn cancelled(desk: &ResearchDesk, count: usize) {
    bounded("the cancellation", async {
        while desk.tasks_cancelled() < count {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
}

/// Answers which reading of the topic is meant with each of `readings` in turn, then with the
/// last one again, and counts the questions.
#[derive(Debug, Clone)]
struct Reader {
    readings: Vec<&'static str>,
    asked: Arc<AtomicUsize>,
}

impl Reader {
    fn new(readings: Vec<&'static str>) -> Self {
        Self {
            readings,
            asked: Arc::default(),
        }
    }
}

#[async_trait::async_trait]
impl ElicitationHandler for Reader {
    async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationResponse, BoxError> {
        assert!(
            matches!(&request, ElicitationRequest::Form { message, .. } if message.starts_with("Which reading")),
            "{request:?}"
        );
        let asked = self.asked.fetch_add(1, Ordering::SeqCst);
        let reading = self.readings[asked.min(self.readings.len() - 1)];
        let mut answer = Map::new();
        answer.insert("interpretation".into(), Value::from(reading));
        Ok(ElicitationResponse::Accept(Some(answer)))
    }
}

#[tokio::test]
async fn a_call_the_server_runs_as_a_task_returns_the_tasks_result() {
    for version in VERSIONS {
        let desk = ResearchDesk::new();
        let session = builder(&desk, version.clone()).build();

        let result = research(&session, "tides", false).await.unwrap();

        assert_eq!(first_text(&result), "A report on tides, in the usual one");
        assert_eq!(desk.tasks_started(), 1, "on {version}");
        session.close().await;
    }
}

#[tokio::test]
async fn a_session_that_does_not_offer_tasks_gets_a_plain_answer() {
    let desk = ResearchDesk::new();
    let session = builder(&desk, ProtocolVersion::V_2026_07_28)
        .tasks(TaskPolicy::not_offered())
        .build();

    let result = research(&session, "tides", false).await.unwrap();

    assert_eq!(first_text(&result), "A brief note on tides");
    assert_eq!(desk.tasks_started(), 0);
    session.close().await;
}

#[tokio::test]
async fn each_question_of_a_task_is_answered_once_through_the_elicitation_handler() {
    // The task asks under a new key until the answer is clear; polls in between repeat the
    // open question, which must not be answered twice.
    let desk = ResearchDesk::new().with_poll_interval(Duration::from_millis(1));
    let reader = Reader::new(vec!["unclear", "the sea's"]);
    let session = builder(&desk, ProtocolVersion::V_2026_07_28)
        .elicitation_handler(reader.clone())
        .build();

    let result = research(&session, "tides", true).await.unwrap();

    assert_eq!(first_text(&result), "A report on tides, in the sea's");
    assert_eq!(reader.asked.load(Ordering::SeqCst), 2);
    session.close().await;
}

/// A task's state as `tasks/get` answers it, with the status's own fields in `payload`.
fn task_state(status: &str, payload: Value) -> Value {
    let mut state = json!({
        "resultType": "complete",
        "taskId": "t-1",
        "status": status,
        "createdAt": "2026-12-02T00:00:00Z",
        "lastUpdatedAt": "2026-12-02T00:00:00Z",
        "ttlMs": null,
        "pollIntervalMs": 1,
    });
    if let (Value::Object(state), Value::Object(payload)) = (&mut state, payload) {
        state.extend(payload);
    }
    state
}

#[tokio::test]
async fn a_question_repeated_before_its_answer_lands_is_answered_once() {
    // The server acknowledges an answer before it takes effect (tasks/update is eventually
    // consistent), so the next poll may ask the same question again.
    let (connector, server) = scripted::pair();
    let reader = Reader::new(vec!["the sea's"]);
    let session = McpSession::builder(connector)
        .elicitation_handler(reader.clone())
        .build();
    let call = tokio::spawn({
        let session = session.clone();
        async move { research(&session, "tides", true).await }
    });
    let question = json!({"inputRequests": {"reading": {
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": "Which reading of tides do you mean?",
            "requestedSchema": {"type": "object", "properties": {"interpretation": {"type": "string"}}},
        },
    }}});

    let mut connection = server.accept().await;
    connection.complete_handshake().await;
    let created = connection.expect_request("tools/call").await;
    let mut task = task_state("working", json!({}));
    task["resultType"] = json!("task");
    connection.respond(&created, task);
    let poll = connection.expect_request("tasks/get").await;
    connection.respond(&poll, task_state("input_required", question.clone()));
    let update = connection.expect_request("tasks/update").await;
    assert_eq!(
        update.params()["inputResponses"]["reading"]["content"]["interpretation"],
        "the sea's"
    );
    connection.respond(&update, json!({"resultType": "complete"}));
    let poll = connection.expect_request("tasks/get").await;
    connection.respond(&poll, task_state("input_required", question));
    let poll = connection.expect_request("tasks/get").await;
    let result = json!({"content": [{"type": "text", "text": "A report on tides"}]});
    connection.respond(&poll, task_state("completed", json!({"result": result})));

    let result = bounded("the call", call).await.unwrap().unwrap();
    assert_eq!(first_text(&result), "A report on tides");
    assert_eq!(reader.asked.load(Ordering::SeqCst), 1);
    session.close().await;
}

#[tokio::test]
async fn a_task_that_keeps_asking_is_cancelled_at_the_bound_on_rounds() {
    let desk = ResearchDesk::new();
    let reader = Reader::new(vec!["unclear"]);
    let session = builder(&desk, ProtocolVersion::V_2026_07_28)
        .elicitation_handler(reader.clone())
        .max_input_rounds(3)
        .build();

    let error = research(&session, "tides", true).await.unwrap_err();

    assert!(
        error
            .to_string()
            .contains("still asking for input after 3 rounds"),
        "{error}"
    );
    assert_eq!(reader.asked.load(Ordering::SeqCst), 3);
    cancelled(&desk, 1).await;
    session.close().await;
}

#[tokio::test]
async fn a_failed_task_is_the_servers_error() {
    let desk = ResearchDesk::new();
    let session = builder(&desk, ProtocolVersion::V_2026_07_28).build();

    let error = research(&session, ResearchDesk::FAILING_TOPIC, false)
        .await
        .unwrap_err();

    let SessionError::Rpc { method, error, .. } = &error else {
        panic!("not the server's error: {error:?}");
    };
    assert_eq!(method, "tools/call research");
    assert_eq!(error.message, "the archive is closed");
    session.close().await;
}

#[tokio::test]
async fn a_task_past_its_timeout_is_cancelled() {
    let desk = ResearchDesk::new().with_stage(Duration::from_secs(30));
    let policy = TaskPolicy::default().with_timeout(Duration::from_millis(100));
    let session = builder(&desk, ProtocolVersion::V_2026_07_28)
        .tasks(policy)
        .build();

    let error = research(&session, "tides", false).await.unwrap_err();

    assert!(
        error.is_timeout() && error.is_outcome_uncertain(),
        "{error}"
    );
    assert!(error.to_string().contains("(task "), "{error}");
    cancelled(&desk, 1).await;
    session.close().await;
}

#[tokio::test]
async fn a_task_past_its_poll_limit_is_cancelled() {
    let desk = ResearchDesk::new().with_stage(Duration::from_secs(30));
    let policy = TaskPolicy::default().with_max_polls(3);
    let session = builder(&desk, ProtocolVersion::V_2026_07_28)
        .tasks(policy)
        .build();

    let error = research(&session, "tides", false).await.unwrap_err();

    assert!(
        error.to_string().contains("still running after 3 polls"),
        "{error}"
    );
    cancelled(&desk, 1).await;
    session.close().await;
}

#[tokio::test]
async fn a_caller_who_stops_waiting_cancels_the_task() {
    let desk = ResearchDesk::new().with_stage(Duration::from_secs(30));
    let session = builder(&desk, ProtocolVersion::V_2026_07_28).build();
    let params = call_params(ResearchDesk::TOOL, json!({"topic": "tides"}));

    let call = session.call_tool(params, CallOptions::default());
    let gave_up = tokio::time::timeout(Duration::from_millis(200), call).await;

    assert!(gave_up.is_err(), "the call was still running");
    assert_eq!(desk.tasks_started(), 1);
    cancelled(&desk, 1).await;
    session.close().await;
}

#[tokio::test]
async fn a_tasks_progress_and_new_status_messages_reach_the_callers_callback() {
    let (connector, server) = scripted::pair();
    let session = McpSession::builder(connector).build();
    let (reports, mut heard) = tokio::sync::mpsc::unbounded_channel();
    let call = tokio::spawn({
        let session = session.clone();
        async move {
            let params = call_params(ResearchDesk::TOOL, json!({"topic": "tides"}));
            let options = CallOptions::default().on_progress(move |report| {
                let _ = reports.send((report.progress, report.message));
            });
            session.call_tool(params, options).await
        }
    });
    let status = |status: &str, message: &str| {
        let mut state = task_state(status, json!({"statusMessage": message}));
        state["resultType"] = json!("task");
        state
    };

    let mut connection = server.accept().await;
    connection.complete_handshake().await;
    let created = connection.expect_request("tools/call").await;
    let token = created.params()["_meta"]["progressToken"].clone();
    connection.respond(&created, status("working", "Gathering sources"));
    // The call's token stays the task's after the call has been answered.
    connection.notify(
        "notifications/progress",
        json!({"progressToken": token, "progress": 5, "total": 10, "message": "halfway"}),
    );
    let poll = connection.expect_request("tasks/get").await;
    connection.respond(
        &poll,
        task_state("working", json!({"statusMessage": "Gathering sources"})),
    );
    let poll = connection.expect_request("tasks/get").await;
    connection.respond(
        &poll,
        task_state("working", json!({"statusMessage": "Writing"})),
    );
    let poll = connection.expect_request("tasks/get").await;
    let result = json!({"content": [{"type": "text", "text": "A report on tides"}]});
    connection.respond(&poll, task_state("completed", json!({"result": result})));

    bounded("the call", call).await.unwrap().unwrap();
    let mut got = Vec::new();
    while let Ok(report) = heard.try_recv() {
        got.push(report);
    }
    let message = |text: &str| Some(text.to_owned());
    assert!(
        got.contains(&(1.0, message("Gathering sources"))),
        "{got:?}"
    );
    assert!(got.contains(&(5.0, message("halfway"))), "{got:?}");
    assert!(got.contains(&(2.0, message("Writing"))), "{got:?}");
    assert_eq!(
        got.len(),
        3,
        "a repeated status is not reported again: {got:?}"
    );
    session.close().await;
}
