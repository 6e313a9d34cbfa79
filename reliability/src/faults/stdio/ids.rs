//! The stdio cells where the server gets ids wrong: it answers a request under another
//! request's id, or under an id the client never sent.

use std::time::Duration;

use serde_json::json;

use super::harness::{
    Faulty, REQUEST_TIMEOUT, call, closing, ensure, ensure_at_bound, ensure_before_bound,
    expect_answer, expect_error, ms,
};
use crate::faults::{CellRun, Failed};

/// How long the cell waits for the server to hold the call it will swap.
const HOLD_WAIT: Duration = Duration::from_secs(1);

/// Two requests in flight trade ids: a `tools/call` gets the answer to a `tools/list` and the
/// list the call's answer. Neither is taken for the other's: the call fails at once as
/// `unexpected_response`, and the list, safe to repeat, is listed again on a fresh
/// connection and comes back right. Then the server answers a call under the id of a request
/// it answered already: nothing takes that stale answer, the call times out at its bound
/// (`request_timeout`), and the next call works.
///
/// Two calls of the same kind that trade ids cannot be told apart by any client: each answer
/// fits the other request. This cell swaps requests of different kinds, which can.
pub(super) fn wrong_id() -> CellRun {
    Box::pin(async {
        let server = Faulty::start(&[])?;
        let session = server.session();
        closing(&session, async {
            session
                .connect()
                .await
                .map_err(|error| Failed(format!("the session did not start: {error}")))?;
            let swapped = {
                let session = session.clone();
                tokio::spawn(async move { call(&session, "swap_with_next", json!({})).await })
            };
            server
                .ledger
                .wait_for("holding ", HOLD_WAIT)
                .await
                .ok_or_else(|| Failed("the server never held the call to swap".to_owned()))?;
            let listed = session.list_tools().await;
            let (outcome, elapsed) = swapped
                .await
                .map_err(|error| Failed(format!("the swapped call's task failed: {error}")))?;
            expect_error(
                outcome,
                "unexpected_response",
                "the call answered with a tool list",
            )?;
            ensure_before_bound(elapsed, "the call answered with a tool list")?;
            let tools =
                listed.map_err(|error| Failed(format!("tools/list then failed: {error}")))?;
            ensure(tools.iter().any(|tool| tool.name == "echo"), || {
                "tools/list came back without the server's tools".to_owned()
            })?;
            let relisted_on = server.starts();

            let (outcome, stale_elapsed) = call(
                &session,
                "answer_under_previous_id",
                json!({"text": "stale"}),
            )
            .await;
            expect_error(
                outcome,
                "request_timeout",
                "the call answered under a stale id",
            )?;
            ensure_at_bound(
                stale_elapsed,
                REQUEST_TIMEOUT,
                "the call answered under a stale id",
            )?;
            expect_answer(&session, "echo", json!({"text": "next"}), "next").await?;
            Ok(format!(
                "swapped call/list: unexpected_response in {}, list retried on child {relisted_on} \
                 and right; stale id: request_timeout in {}; next call ok",
                ms(elapsed),
                ms(stale_elapsed)
            ))
        })
        .await
    })
}

/// The server sends answers under ids the client never sent (a string, a number, and an
/// error), then the real answer: the call gets its own answer. Then it answers a call only
/// under an id never sent: the call times out at its bound (`request_timeout`), nobody else
/// takes that answer, and the next call works on the same child.
pub(super) fn unsolicited_id() -> CellRun {
    Box::pin(async {
        let server = Faulty::start(&[])?;
        let session = server.session();
        closing(&session, async {
            let (outcome, elapsed) =
                call(&session, "answer_under_unknown_id", json!({"text": "mine"})).await;
            let answered = outcome.map_err(|error| {
                Failed(format!(
                    "the call with unsolicited answers around it failed: {error}"
                ))
            })?;
            let text = super::harness::text(&answered);
            ensure(text == "mine", || {
                format!("the call got {text:?}, an answer that was not its own")
            })?;
            ensure_before_bound(elapsed, "the call with unsolicited answers around it")?;

            let (outcome, lost_elapsed) =
                call(&session, "answer_only_under_unknown_id", json!({})).await;
            expect_error(
                outcome,
                "request_timeout",
                "the call answered under an unknown id",
            )?;
            ensure_at_bound(
                lost_elapsed,
                REQUEST_TIMEOUT,
                "the call answered under an unknown id",
            )?;
            expect_answer(&session, "echo", json!({"text": "next"}), "next").await?;
            ensure(server.starts() == 1, || {
                "unsolicited answers cost the connection".to_owned()
            })?;
            Ok(format!(
                "3 unsolicited answers ignored, own answer in {}; answer only under an unknown \
                 id: request_timeout in {}; next call ok on the same child",
                ms(elapsed),
                ms(lost_elapsed)
            ))
        })
        .await
    })
}
