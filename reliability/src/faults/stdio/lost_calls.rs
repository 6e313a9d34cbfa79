//! The stdio cells where a call or a connection is lost: the server crashes mid-call, hangs in
//! a call or in `initialize`, or restarts between calls.

use std::time::{Duration, Instant};

use serde_json::json;
use toolport::{McpToolset, Tool as _, ToolError};

use super::harness::{
    Faulty, INITIALIZE_TIMEOUT, REQUEST_TIMEOUT, call, closing, ensure, ensure_at_bound,
    ensure_before_bound, expect_answer, expect_error, ms,
};
use crate::faults::timing::upper_bounds_judged;
use crate::faults::{CellRun, Failed};

/// How long the session may take to notice that a server exited between calls: a wait that
/// fails a session that never notices. Where upper bounds are judged, it must notice within a
/// request bound.
const NOTICE_EXIT: Duration = Duration::from_secs(2);

/// The server exits (status 3) in the middle of a call with a side effect, after the effect.
/// Through a toolset, which replays only tools marked read-only or idempotent: the call fails
/// as `outcome_uncertain` as soon as the child is gone, naming its exit status; it ran once
/// and was not sent again; the next call runs on a new child.
pub(super) fn crash_mid_call() -> CellRun {
    Box::pin(async {
        let server = Faulty::start(&[])?;
        let session = server.session();
        closing(&session, async {
            let toolset = McpToolset::with_session(session.clone())
                .build()
                .await
                .map_err(|error| Failed(format!("the toolset did not start: {error}")))?;
            let tool = |name: &'static str| {
                let toolset = &toolset;
                async move {
                    toolset
                        .tool(name, None)
                        .await
                        .map_err(|error| Failed(format!("no tool {name}: {error}")))
                }
            };
            let started = Instant::now();
            let crashed = tool("charge_then_crash")
                .await?
                .call(json!({"note": "order-1"}), None)
                .await;
            let elapsed = started.elapsed();
            let error = match crashed {
                Err(ToolError::Session(error)) => error,
                Err(other) => return Err(Failed(format!("failed outside the session: {other}"))),
                Ok(output) => {
                    return Err(Failed(format!(
                        "the crashed call was answered: {}",
                        output.value
                    )));
                }
            };
            ensure(
                error.kind() == "outcome_uncertain" && error.is_outcome_uncertain(),
                || {
                    format!(
                        "failed as {} where outcome_uncertain was due: {error}",
                        error.kind()
                    )
                },
            )?;
            ensure(error.to_string().contains("exited with status 3"), || {
                format!("the error does not say how the server ended: {error}")
            })?;
            ensure_before_bound(elapsed, "the crashed call")?;
            let charged = tool("charge")
                .await?
                .call(json!({"note": "order-2"}), None)
                .await
                .map_err(|error| Failed(format!("the next call failed: {error}")))?;
            ensure(!charged.is_error, || {
                format!("the next call was a tool error: {}", charged.value)
            })?;
            let runs = server.ledger.count("charged order-1");
            ensure(runs == 1, || {
                format!("the crashed call ran {runs} times: it was replayed")
            })?;
            ensure(server.ledger.count("charged order-2") == 1, || {
                "the next call did not run exactly once".to_owned()
            })?;
            ensure(server.starts() == 2, || {
                format!("{} processes started where 2 were due", server.starts())
            })?;
            Ok(format!(
                "outcome_uncertain in {} (\"server exited with status 3\"); ran once, not \
                 replayed; next call ok on a new child",
                ms(elapsed)
            ))
        })
        .await
    })
}

/// The server never answers a call. It times out at the request bound as `request_timeout`
/// (its outcome uncertain), the server reads the `notifications/cancelled` for that very
/// request, and the next call works on the same child.
pub(super) fn hang_in_call() -> CellRun {
    Box::pin(async {
        let server = Faulty::start(&[])?;
        let session = server.session();
        closing(&session, async {
            let (outcome, elapsed) = call(&session, "hang", json!({})).await;
            let error = expect_error(outcome, "request_timeout", "the hung call")?;
            ensure(error.is_timeout() && error.is_outcome_uncertain(), || {
                format!("a hung call must be a timeout with an uncertain outcome: {error}")
            })?;
            ensure_at_bound(elapsed, REQUEST_TIMEOUT, "the hung call")?;
            let hanging = server
                .ledger
                .entries_starting("hanging ")
                .pop()
                .ok_or_else(|| Failed("the server never got the call".to_owned()))?;
            let id = hanging.trim_start_matches("hanging ");
            let cancelled = server
                .ledger
                .wait_for("cancelled ", Duration::from_secs(1))
                .await
                .ok_or_else(|| Failed("the server never got notifications/cancelled".to_owned()))?;
            ensure(cancelled == format!("cancelled {id}"), || {
                format!("the server got {cancelled:?}, not the cancellation of request {id}")
            })?;
            expect_answer(
                &session,
                "echo",
                json!({"text": "still here"}),
                "still here",
            )
            .await?;
            ensure(server.starts() == 1, || {
                "a hung call cost the connection: the next call needed a new child".to_owned()
            })?;
            Ok(format!(
                "request_timeout in {}; the server read the cancellation of request {id}; next \
                 call ok on the same child",
                ms(elapsed)
            ))
        })
        .await
    })
}

/// The first process never answers `initialize`. The first call fails at the initialize
/// bound as `initialize_timeout` (a connect failure: nothing ran), the hung child is killed,
/// and the next call starts a child that answers.
pub(super) fn hang_in_initialize() -> CellRun {
    Box::pin(async {
        let server = Faulty::start(&["--hang-initialize-starts", "1"])?;
        let session = server.session();
        closing(&session, async {
            let (outcome, elapsed) = call(&session, "echo", json!({"text": "first"})).await;
            let error = expect_error(outcome, "initialize_timeout", "the first call")?;
            ensure(error.is_timeout() && error.is_connect(), || {
                format!("a hung initialize must be a timeout and a connect failure: {error}")
            })?;
            ensure_at_bound(elapsed, INITIALIZE_TIMEOUT, "initialize")?;
            ensure(server.ledger.count("hanging in initialize") == 1, || {
                "the first server did not hang in initialize".to_owned()
            })?;
            expect_answer(&session, "echo", json!({"text": "back"}), "back").await?;
            ensure(server.starts() == 2, || {
                format!("{} processes started where 2 were due", server.starts())
            })?;
            Ok(format!(
                "initialize_timeout in {} (no retry: a timeout is not retried); next call ok on \
                 a new child",
                ms(elapsed)
            ))
        })
        .await
    })
}

/// The server answers a call, then exits (status 0) as a server restarting itself does. The
/// session notices without a call in flight, and the next calls run on a new child, each
/// once.
pub(super) fn server_restart() -> CellRun {
    Box::pin(async {
        let server = Faulty::start(&[])?;
        let session = server.session();
        closing(&session, async {
            expect_answer(&session, "echo", json!({"text": "before"}), "before").await?;
            expect_answer(&session, "restart", json!({}), "restarting").await?;
            let started = Instant::now();
            while session.is_connected() {
                if started.elapsed() > NOTICE_EXIT {
                    return Err(Failed(format!(
                        "the session still counts the exited server as connected after {}",
                        ms(NOTICE_EXIT)
                    )));
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            let noticed = started.elapsed();
            expect_answer(&session, "echo", json!({"text": "after"}), "after").await?;
            expect_answer(
                &session,
                "charge",
                json!({"note": "after-restart"}),
                "charged after-restart",
            )
            .await?;
            ensure(server.ledger.count("charged after-restart") == 1, || {
                "the call after the restart did not run exactly once".to_owned()
            })?;
            ensure(server.starts() == 2, || {
                format!("{} processes started where 2 were due", server.starts())
            })?;
            ensure(!upper_bounds_judged() || noticed < REQUEST_TIMEOUT, || {
                "the exit took a whole request bound to notice".to_owned()
            })?;
            Ok(format!(
                "exit noticed in {}; next calls ok on a new child, each run once",
                ms(noticed)
            ))
        })
        .await
    })
}
