//! The Streamable HTTP column of the fault matrix: every fault that applies to an HTTP server,
//! against a [`FaultHost`](toolport_fixtures::FaultHost) on a real `127.0.0.1` socket.

use toolport_fixtures::{FaultBehaviour, HostTransport};

use super::http_rig::{CELL_BOUND, REQUEST_TIMEOUT, Rig, check, executions, own_result, seconds};
use super::http_scenarios as scenarios;
use super::{Cell, Failed, Fault, Transport};

const OVER: HostTransport = HostTransport::StreamableHttp;

/// The column's cells, in the order of the table's rows.
pub fn cells() -> Vec<Cell> {
    let cell = |fault, run| Cell {
        fault,
        transport: Transport::StreamableHttp,
        bound: CELL_BOUND,
        run,
    };
    vec![
        cell(Fault::CrashMidCall, || {
            Box::pin(scenarios::crash_mid_call(OVER, &["outcome_uncertain"]))
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
        cell(Fault::WrongId, || Box::pin(swapped_ids())),
        cell(Fault::UnsolicitedId, || {
            Box::pin(scenarios::unsolicited_id(OVER))
        }),
    ]
}

/// Two calls in flight are answered each with the other's id. Each `POST` answers one request,
/// so neither answer may go to the other call: each call gets its own result or fails as
/// uncertain, and neither waits for its bound.
async fn swapped_ids() -> Result<String, Failed> {
    let rig = Rig::start(FaultBehaviour::SwappedIds, OVER).await?;
    rig.run(async |rig| {
        let ((first, first_took), (second, second_took)) =
            tokio::join!(rig.record("first"), rig.record("second"));
        let mut seen = Vec::new();
        for (label, outcome, elapsed) in [
            ("first", first, first_took),
            ("second", second, second_took),
        ] {
            match outcome {
                Ok(result) => {
                    own_result(label, &result)?;
                    seen.push(format!("`{label}` got its own result"));
                }
                Err(error) => {
                    check(error.is_outcome_uncertain(), || {
                        format!("the call `{label}` failed, but not as uncertain: {error}")
                    })?;
                    seen.push(format!("`{label}` {}", error.kind()));
                }
            }
            check(elapsed < REQUEST_TIMEOUT, || {
                format!("the call `{label}` waited {}", seconds(elapsed))
            })?;
        }
        executions(&rig.host, 2)?;
        let next = rig.next_call_works().await?;
        Ok(format!("{}, at once; {next}", seen.join(", ")))
    })
    .await
}
