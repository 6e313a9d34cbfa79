//! The legacy HTTP+SSE column of the fault matrix: every fault that applies to an HTTP server,
//! against a [`FaultHost`](toolport_fixtures::FaultHost) on a real `127.0.0.1` socket. Every
//! answer comes on the session's one event stream, which shapes two cells: an answer under a
//! stale id cannot be told apart from no answer, and a 404 means the message endpoint forgot
//! the session.

use std::time::Duration;

use toolport_fixtures::{FaultBehaviour, HostTransport};

use super::http_rig::{
    CELL_BOUND, REQUEST_TIMEOUT, Rig, executions, failed, seconds, timed_out, typed,
};
use super::http_scenarios as scenarios;
use super::{Cell, Failed, Fault, Transport};

const OVER: HostTransport = HostTransport::LegacySse;
/// How long after the first call the second one of the stale-id cell starts, so that the
/// host sees the first first.
const STAGGER: Duration = Duration::from_millis(50);

/// The column's cells, in the order of the table's rows.
pub fn cells() -> Vec<Cell> {
    let cell = |fault, run| Cell {
        fault,
        transport: Transport::Sse,
        bound: CELL_BOUND,
        run,
    };
    vec![
        cell(Fault::CrashMidCall, || {
            Box::pin(scenarios::crash_mid_call(
                OVER,
                &["outcome_uncertain", "request_timeout"],
            ))
        }),
        cell(Fault::HangInCall, || {
            Box::pin(scenarios::hang_in_call(OVER))
        }),
        cell(Fault::HangInInitialize, || {
            Box::pin(scenarios::hang_in_initialize(OVER))
        }),
        cell(Fault::OversizedResponse, || {
            Box::pin(scenarios::oversized_response(OVER))
        }),
        cell(Fault::SlowLoris, || Box::pin(scenarios::slow_loris(OVER))),
        cell(Fault::ResetMidStream, || {
            Box::pin(scenarios::reset_mid_stream(OVER))
        }),
        cell(Fault::SessionExpiry, || {
            Box::pin(scenarios::session_expiry(OVER))
        }),
        cell(Fault::ServerRestart, || {
            Box::pin(scenarios::server_restart(OVER))
        }),
        cell(Fault::WrongId, || Box::pin(stale_id())),
        cell(Fault::UnsolicitedId, || {
            Box::pin(scenarios::unsolicited_id(OVER))
        }),
    ]
}

/// The first call is answered under the id of a request answered before it. On one stream an
/// answer's id is all there is, so that answer reaches nobody: the call ends with a request
/// timeout, and a second call in flight meanwhile gets its own result.
async fn stale_id() -> Result<String, Failed> {
    let rig = Rig::start(FaultBehaviour::StaleId, OVER).await?;
    rig.run(async |rig| {
        let second = async {
            tokio::time::sleep(STAGGER).await;
            rig.expect_recorded("second").await
        };
        let ((first, elapsed), second) = tokio::join!(rig.record("first"), second);
        let second_took = second?;
        let error = failed(first, "a call answered under a stale id")?;
        typed(&error, "request_timeout", true)?;
        timed_out(
            elapsed,
            REQUEST_TIMEOUT,
            "the call answered under a stale id",
        )?;
        executions(&rig.host, 2)?;
        let next = rig.next_call_works().await?;
        Ok(format!(
            "the misaddressed answer reached nobody: request_timeout in {}; the call beside it \
             got its own result in {}; {next}",
            seconds(elapsed),
            seconds(second_took)
        ))
    })
    .await
}
