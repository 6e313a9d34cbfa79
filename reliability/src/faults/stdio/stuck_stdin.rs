//! The stdio cell where the server stops reading its stdin, so the client's writes block once
//! the pipe is full.

use std::time::{Duration, Instant};

use serde_json::json;

use super::harness::{
    Faulty, REQUEST_TIMEOUT, call, closing, ensure, ensure_at_bound, expect_answer, expect_error,
    ms,
};
use crate::faults::{CellRun, Failed};

/// An argument far larger than a pipe's buffer (64 KiB on Linux), so its request cannot be
/// written to a server that does not read.
const STUCK_ARGUMENT_BYTES: usize = 1024 * 1024;
/// How long `disconnect()` may take on a server that does not read: closing gives up on its
/// stdin after the close grace, then signals it.
const DISCONNECT_BOUND: Duration = Duration::from_secs(2);

/// The server answers a call, then never reads stdin again. A call whose request cannot be
/// written (a 1 MiB argument) times out at its bound as `request_timeout`; `disconnect()`
/// returns within its bound although the write is still blocked; the next call works on a
/// new child. The same again, ended by `close()` (which the harness bounds).
pub(super) fn never_reads_stdin() -> CellRun {
    Box::pin(async {
        let server = Faulty::start(&[])?;
        let session = server.session();
        closing(&session, async {
            let first = stuck_call(&session).await?;
            let started = Instant::now();
            tokio::time::timeout(DISCONNECT_BOUND, session.disconnect())
                .await
                .map_err(|_| {
                    Failed(format!(
                        "disconnect() did not return within {} with a write blocked",
                        ms(DISCONNECT_BOUND)
                    ))
                })?;
            let disconnected = started.elapsed();
            expect_answer(&session, "echo", json!({"text": "back"}), "back").await?;
            ensure(server.starts() == 2, || {
                format!("{} processes started where 2 were due", server.starts())
            })?;
            let second = stuck_call(&session).await?;
            Ok(format!(
                "blocked write: request_timeout in {first}; disconnect in {}; next call ok on a \
                 new child; blocked again: request_timeout in {second}, then close",
                ms(disconnected)
            ))
        })
        .await
    })
}

/// Makes the server stop reading, then sends a call too large for the pipe: it must time out
/// at its bound. Returns how long it took, for the detail line.
async fn stuck_call(session: &toolport::McpSession) -> Result<String, Failed> {
    expect_answer(
        session,
        "stop_reading",
        json!({}),
        "no longer reading stdin",
    )
    .await?;
    let text = "z".repeat(STUCK_ARGUMENT_BYTES);
    let (outcome, elapsed) = call(session, "echo", json!({"text": text})).await;
    let error = expect_error(
        outcome,
        "request_timeout",
        "the call that cannot be written",
    )?;
    ensure(error.is_timeout(), || format!("not a timeout: {error}"))?;
    // Its cancellation waits behind the blocked write too, and the error must not claim it
    // reached the server.
    ensure(
        matches!(
            error,
            toolport::SessionError::RequestTimeout {
                cancelled: false,
                ..
            }
        ),
        || format!("claims a cancellation that was never written: {error}"),
    )?;
    ensure_at_bound(elapsed, REQUEST_TIMEOUT, "the call that cannot be written")?;
    Ok(ms(elapsed))
}
