//! [`Rig`]: what the Streamable HTTP and SSE cells share: a [`FaultHost`] on a real `127.0.0.1`
//! socket, an `McpSession` to it with short bounds, the call of its side-effecting tool, and the
//! checks of a cell (a typed error, within its bound, no replay, the next call working).

use std::time::{Duration, Instant};

use serde_json::json;
use toolport::http::HttpServer;
use toolport::model::{CallToolResult, ProtocolVersion};
use toolport::sse::SseServer;
use toolport::{CallOptions, McpSession, SessionError, Timeouts, WithHttpOptions};
use toolport_fixtures::{FaultBehaviour, FaultHost, HostTransport};
use toolport_testkit::{call_params, first_text};

use super::Failed;
use super::timing::upper_bounds_judged;

/// A cell's session's connect bound (TCP, and for legacy SSE the `endpoint` event, a
/// reconnect, and a post waiting for one).
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
/// A cell's session's `initialize` bound.
pub(super) const INITIALIZE_TIMEOUT: Duration = Duration::from_secs(1);
/// A cell's session's bound on each request. Longer than the connect bound, as in any real
/// setting: a call waiting for a legacy SSE stream to come back then fails as not sent (it
/// never left) before its own bound would call it timed out (and its outcome uncertain).
pub(super) const REQUEST_TIMEOUT: Duration = Duration::from_millis(1500);
/// How far past its bound an error may come and still be "within" it, where upper bounds are
/// judged ([`Timing::Strict`](super::Timing::Strict)): the cancellation's flush, the scheduler.
pub(super) const SLACK: Duration = Duration::from_millis(750);
/// The bound of a whole cell, set-up and tear-down included.
pub(super) const CELL_BOUND: Duration = Duration::from_secs(20);
/// The largest answer a cell's session accepts (`max_response_bytes`).
pub(super) const RESPONSE_LIMIT: usize = 4096;

/// A fault host and a session to it.
pub(super) struct Rig {
    pub(super) host: FaultHost,
    pub(super) session: McpSession,
}

impl Rig {
    /// A host that behaves as `behaviour` over `transport`, and a session pinned to
    /// 2025-11-25 with the bounds above, whose answers are limited to [`RESPONSE_LIMIT`]
    /// bytes.
    pub(super) async fn start(
        behaviour: FaultBehaviour,
        transport: HostTransport,
    ) -> Result<Self, Failed> {
        let host = FaultHost::start(behaviour, transport)
            .await
            .map_err(|error| Failed(format!("the fault host did not start: {error}")))?;
        let builder = match transport {
            HostTransport::StreamableHttp => {
                McpSession::builder(HttpServer::new(host.url()).max_response_bytes(RESPONSE_LIMIT))
            }
            HostTransport::LegacySse => {
                McpSession::builder(SseServer::new(host.url()).max_response_bytes(RESPONSE_LIMIT))
            }
        };
        let session = builder
            .timeouts(
                Timeouts::default()
                    .with_connect(CONNECT_TIMEOUT)
                    .with_initialize(INITIALIZE_TIMEOUT)
                    .with_request(REQUEST_TIMEOUT),
            )
            .protocol_version(ProtocolVersion::V_2025_11_25)
            .build();
        Ok(Self { host, session })
    }

    /// Runs `scenario` on the rig, then closes the session and stops the host, whatever
    /// became of it, so that the runner's census finds nothing left.
    pub(super) async fn run(
        self,
        scenario: impl AsyncFnOnce(&Self) -> Result<String, Failed>,
    ) -> Result<String, Failed> {
        let outcome = scenario(&self).await;
        self.session.close().await;
        self.host.stop().await;
        outcome
    }

    /// Calls `record` with `label` (a tool with a side effect, neither read-only nor
    /// idempotent), and says how long it took.
    pub(super) async fn record(
        &self,
        label: &str,
    ) -> (Result<CallToolResult, SessionError>, Duration) {
        let started = Instant::now();
        let params = call_params("record", json!({ "label": label }));
        let outcome = self.session.call_tool(params, CallOptions::default()).await;
        (outcome, started.elapsed())
    }

    /// Calls `record` with `label`, which must succeed with its own label.
    pub(super) async fn expect_recorded(&self, label: &str) -> Result<Duration, Failed> {
        match self.record(label).await {
            (Ok(result), elapsed) => {
                own_result(label, &result)?;
                Ok(elapsed)
            }
            (Err(error), _) => Err(Failed(format!("the call `{label}` failed: {error}"))),
        }
    }

    /// The next call after the fault: it must work, and be the only execution it adds.
    pub(super) async fn next_call_works(&self) -> Result<String, Failed> {
        let before = self.host.executions();
        let elapsed = self.expect_recorded("next").await?;
        executions(&self.host, before + 1)?;
        Ok(format!("next call ok in {}", seconds(elapsed)))
    }
}

/// `result` must be the answer to the call labelled `label`, not another's.
pub(super) fn own_result(label: &str, result: &CallToolResult) -> Result<(), Failed> {
    let text = first_text(result);
    check(text == label, || {
        format!("the call `{label}` got the result of another: {text:?}")
    })
}

/// The call must have failed; its error.
pub(super) fn failed(
    outcome: Result<CallToolResult, SessionError>,
    what: &str,
) -> Result<SessionError, Failed> {
    match outcome {
        Err(error) => Ok(error),
        Ok(result) => Err(Failed(format!(
            "{what} succeeded with {:?}",
            first_text(&result)
        ))),
    }
}

/// `error` must be of `kind` and say that the call's outcome is uncertain when `uncertain`.
pub(super) fn typed(error: &SessionError, kind: &str, uncertain: bool) -> Result<(), Failed> {
    check(error.kind() == kind, || {
        format!("expected a `{kind}` error, got `{}`: {error}", error.kind())
    })?;
    check(error.is_outcome_uncertain() == uncertain, || {
        format!("is_outcome_uncertain() should be {uncertain}: {error}")
    })
}

/// The error must have come within `bound` (and [`SLACK`]), where upper bounds are judged.
pub(super) fn within(elapsed: Duration, bound: Duration, what: &str) -> Result<(), Failed> {
    check(!upper_bounds_judged() || elapsed <= bound + SLACK, || {
        format!(
            "{what} took {}, past its bound of {}",
            seconds(elapsed),
            seconds(bound)
        )
    })
}

/// A timeout must have waited its whole bound, and (where upper bounds are judged) no longer
/// than [`within`] allows.
pub(super) fn timed_out(elapsed: Duration, bound: Duration, what: &str) -> Result<(), Failed> {
    check(elapsed >= bound, || {
        format!(
            "{what} gave up after {}, before its bound",
            seconds(elapsed)
        )
    })?;
    within(elapsed, bound, what)
}

/// The host must have run `record` exactly `expected` times.
pub(super) fn executions(host: &FaultHost, expected: usize) -> Result<(), Failed> {
    let ran = host.executions();
    check(ran == expected, || {
        format!("the tool ran {ran} times, expected {expected} (a replay, or a lost call)")
    })
}

/// Waits up to a second for the host to have counted a cancellation.
pub(super) async fn cancelled(host: &FaultHost) -> Result<(), Failed> {
    let deadline = Instant::now() + Duration::from_secs(1);
    while host.cancellations() == 0 {
        if Instant::now() >= deadline {
            return Err(Failed("the server was not told to cancel the call".into()));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Ok(())
}

/// `Ok` when `condition` holds, else a failure saying `why`.
pub(super) fn check(condition: bool, why: impl FnOnce() -> String) -> Result<(), Failed> {
    if condition {
        Ok(())
    } else {
        Err(Failed(why()))
    }
}

/// `elapsed` as `1.02 s`.
pub(super) fn seconds(elapsed: Duration) -> String {
    format!("{:.2} s", elapsed.as_secs_f64())
}
