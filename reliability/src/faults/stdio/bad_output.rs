//! The stdio cells where the server writes what it should not: garbage on stdout, a flood on
//! stderr, a response over the size limit.

use std::time::{Duration, Instant};

use serde_json::json;
use toolport::stdio::StdioServer;

use super::harness::{
    Faulty, INITIALIZE_TIMEOUT, call, closing, ensure, ensure_at_bound, ensure_before_bound,
    expect_answer, expect_error, fixture_server, ms, session_to,
};
use crate::faults::{CellRun, Failed};

/// How much the flood writes to stderr.
const FLOOD_BYTES: usize = 2 * 1024 * 1024;
/// The most `failure_details` may say, stderr tail included, however much was written.
const DETAILS_BOUND: usize = 1024;
/// The oversized response: a mebibyte over the default limit.
const OVERSIZED_BYTES: usize = StdioServer::MAX_MESSAGE_BYTES + 1024 * 1024;

/// Two servers. One prints a log line to stdout and nothing valid: the call fails at the
/// initialize bound as `initialize_timeout`, quoting the line. One writes four lines that are
/// not JSON-RPC (a log line, bytes that are not UTF-8, half a message, a JSON array) before
/// its answer: they are skipped, the call gets its answer, the diagnostics quote the garbage
/// and the next call works on the same child.
pub(super) fn garbage_on_stdout() -> CellRun {
    Box::pin(async {
        let noisy = session_to(fixture_server("garbage")?);
        let garbage_alone = closing(&noisy, async {
            let (outcome, elapsed) = call(&noisy, "echo", json!({"text": "hello"})).await;
            let error = expect_error(
                outcome,
                "initialize_timeout",
                "a call to a server printing garbage",
            )?;
            ensure_at_bound(elapsed, INITIALIZE_TIMEOUT, "initialize")?;
            let message = error.to_string();
            ensure(message.contains("Starting server on port 8080"), || {
                format!("the error does not quote the garbage: {message}")
            })?;
            Ok(format!("initialize_timeout in {}, quoting it", ms(elapsed)))
        })
        .await?;

        let server = Faulty::start(&[])?;
        let session = server.session();
        closing(&session, async {
            expect_answer(
                &session,
                "garbage_then_echo",
                json!({"text": "through the noise"}),
                "through the noise",
            )
            .await?;
            let details = session.failure_details().unwrap_or_default();
            ensure(details.contains("not JSON-RPC"), || {
                format!("the diagnostics do not mention the garbage: {details:?}")
            })?;
            expect_answer(&session, "echo", json!({"text": "after"}), "after").await?;
            ensure(server.starts() == 1, || {
                "garbage cost the connection: the next call needed a new child".to_owned()
            })?;
            Ok(format!(
                "garbage alone: {garbage_alone}; garbage between messages: skipped, answer and \
                 next call ok on the same child"
            ))
        })
        .await
    })
}

/// The server writes 2 MiB to stderr in the middle of a call, then answers. The call is
/// answered within its bound (stderr is drained, so the server never blocks on it), the next
/// call works, and the diagnostics hold the end of the flood in at most 1 KiB.
pub(super) fn stderr_flood() -> CellRun {
    Box::pin(async {
        let server = Faulty::start(&[])?;
        let session = server.session();
        closing(&session, async {
            let (outcome, elapsed) =
                call(&session, "flood_stderr", json!({"bytes": FLOOD_BYTES})).await;
            outcome.map_err(|error| {
                Failed(format!(
                    "the call that floods stderr failed after {}: {error}",
                    ms(elapsed)
                ))
            })?;
            expect_answer(&session, "echo", json!({"text": "after"}), "after").await?;
            let details = wait_for_details(&session, "flood done", Duration::from_secs(1)).await;
            ensure(details.contains("flood done"), || {
                format!("the diagnostics lack the end of the flood: {details:?}")
            })?;
            ensure(details.len() <= DETAILS_BOUND, || {
                format!(
                    "the diagnostics grew to {} bytes with the flood",
                    details.len()
                )
            })?;
            Ok(format!(
                "2 MiB on stderr: answered in {}, next call ok, diagnostics {} bytes ending in \
                 the flood's last line",
                ms(elapsed),
                details.len()
            ))
        })
        .await
    })
}

/// The server answers with one line a mebibyte over the stdio limit (16 MiB). The call fails
/// at once as `rpc`, with a message naming the limit, rather than waiting for a timeout, and
/// the next call works on the same child.
pub(super) fn oversized_response() -> CellRun {
    Box::pin(async {
        let server = Faulty::start(&[])?;
        let session = server.session();
        closing(&session, async {
            let (outcome, elapsed) =
                call(&session, "oversized", json!({"bytes": OVERSIZED_BYTES})).await;
            let error = expect_error(outcome, "rpc", "the oversized answer")?;
            let message = error.to_string();
            ensure(
                message.contains(&StdioServer::MAX_MESSAGE_BYTES.to_string()),
                || format!("the error does not name the limit: {message}"),
            )?;
            ensure_before_bound(elapsed, "the oversized answer")?;
            expect_answer(&session, "echo", json!({"text": "after"}), "after").await?;
            ensure(server.starts() == 1, || {
                "the oversized answer cost the connection".to_owned()
            })?;
            Ok(format!(
                "17 MiB answer: rpc error naming the 16 MiB limit in {}; next call ok on the \
                 same child",
                ms(elapsed)
            ))
        })
        .await
    })
}

/// The session's diagnostics, once they contain `needle` or `timeout` has passed: stderr is
/// drained by a task of its own, which may be a moment behind the answers.
async fn wait_for_details(
    session: &toolport::McpSession,
    needle: &str,
    timeout: Duration,
) -> String {
    let deadline = Instant::now() + timeout;
    loop {
        let details = session.failure_details().unwrap_or_default();
        if details.contains(needle) || Instant::now() >= deadline {
            return details;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
