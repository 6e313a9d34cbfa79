//! The cells whose scenario is the same over Streamable HTTP and legacy SSE: each drives a
//! session into one fault of a [`FaultHost`](toolport_fixtures::FaultHost) and checks what
//! Toolport must do about it. Where the two transports differ, `http.rs` and `sse.rs` have
//! scenarios of their own.

use std::time::Duration;

use toolport_fixtures::{FaultBehaviour, HostTransport};

use super::Failed;
use super::http_rig::{
    INITIALIZE_TIMEOUT, REQUEST_TIMEOUT, RESPONSE_LIMIT, Rig, cancelled, check, executions, failed,
    seconds, timed_out, typed, within,
};

/// How long a stopped server stays down before it is started again.
const DOWNTIME: Duration = Duration::from_millis(300);

/// The server dies while the call is in flight: the call fails as uncertain (it ran once and
/// is not replayed), and once the server is back on the same port the next call works.
/// `kinds` are the errors the transport may report: Streamable HTTP sees the connection drop
/// under its `POST`; legacy SSE waits for its stream to come back until the request bound.
pub(super) async fn crash_mid_call(
    transport: HostTransport,
    kinds: &'static [&'static str],
) -> Result<String, Failed> {
    let rig = Rig::start(FaultBehaviour::CrashMidCall, transport).await?;
    rig.run(async |rig| {
        let (outcome, elapsed) = rig.record("crash").await;
        let error = failed(outcome, "a call the server died in")?;
        check(kinds.contains(&error.kind()), || {
            format!("expected one of {kinds:?}, got `{}`: {error}", error.kind())
        })?;
        check(error.is_outcome_uncertain(), || {
            format!("the outcome of a call the server died in is uncertain: {error}")
        })?;
        within(elapsed, REQUEST_TIMEOUT, "the crash's error")?;
        executions(&rig.host, 1)?;
        rig.host
            .restart()
            .await
            .map_err(|error| Failed(format!("the host did not restart: {error}")))?;
        let next = rig.next_call_works().await?;
        Ok(format!(
            "{} in {}, ran once, not replayed; restarted, {next}",
            error.kind(),
            seconds(elapsed)
        ))
    })
    .await
}

/// The server never answers the call: a request timeout after its bound, the server told to
/// cancel, no replay, and the same session's next call works.
pub(super) async fn hang_in_call(transport: HostTransport) -> Result<String, Failed> {
    let rig = Rig::start(FaultBehaviour::HangInCall, transport).await?;
    rig.run(async |rig| {
        let (outcome, elapsed) = rig.record("hang").await;
        let error = failed(outcome, "a call the server never answers")?;
        typed(&error, "request_timeout", true)?;
        timed_out(elapsed, REQUEST_TIMEOUT, "the hung call")?;
        cancelled(&rig.host).await?;
        executions(&rig.host, 1)?;
        let next = rig.next_call_works().await?;
        Ok(format!(
            "request_timeout in {}, cancelled on the server, not replayed; {next}",
            seconds(elapsed)
        ))
    })
    .await
}

/// The server never answers `initialize`: an initialize timeout after its bound, not retried
/// (a hung server would multiply the wait), and the next use initializes afresh and works.
pub(super) async fn hang_in_initialize(transport: HostTransport) -> Result<String, Failed> {
    let rig = Rig::start(FaultBehaviour::HangInInitialize, transport).await?;
    rig.run(async |rig| {
        let started = tokio::time::Instant::now();
        let error = match rig.session.list_tools().await {
            Err(error) => error,
            Ok(tools) => {
                return Err(Failed(format!(
                    "listing succeeded with {} tools past a hung initialize",
                    tools.len()
                )));
            }
        };
        let elapsed = started.elapsed();
        typed(&error, "initialize_timeout", false)?;
        check(error.is_timeout() && error.is_connect(), || {
            format!("a hung initialize is a timeout and a failure to connect: {error}")
        })?;
        timed_out(elapsed, INITIALIZE_TIMEOUT, "the hung initialize")?;
        check(rig.host.initializations() == 1, || {
            format!(
                "a timed-out initialize was retried: {} initialize requests",
                rig.host.initializations()
            )
        })?;
        let next = rig.next_call_works().await?;
        Ok(format!(
            "initialize_timeout in {}, not retried; {next}",
            seconds(elapsed)
        ))
    })
    .await
}

/// The answer comes a byte a second: a request timeout after its bound (the trickle never
/// holds the call past it), the server told to cancel, and the next call works.
pub(super) async fn slow_loris(transport: HostTransport) -> Result<String, Failed> {
    let rig = Rig::start(FaultBehaviour::SlowLoris, transport).await?;
    rig.run(async |rig| {
        let (outcome, elapsed) = rig.record("slow").await;
        let error = failed(outcome, "a call answered a byte a second")?;
        typed(&error, "request_timeout", true)?;
        timed_out(elapsed, REQUEST_TIMEOUT, "the trickled answer")?;
        cancelled(&rig.host).await?;
        executions(&rig.host, 1)?;
        let next = rig.next_call_works().await?;
        Ok(format!(
            "request_timeout in {}, cancelled on the server; {next}",
            seconds(elapsed)
        ))
    })
    .await
}

/// The connection carrying the answer is reset: the call fails at once as uncertain (it ran),
/// is not replayed, and the next call reconnects and works.
pub(super) async fn reset_mid_stream(transport: HostTransport) -> Result<String, Failed> {
    let rig = Rig::start(FaultBehaviour::ResetMidStream, transport).await?;
    rig.run(async |rig| {
        let (outcome, elapsed) = rig.record("reset").await;
        let error = failed(outcome, "a call whose answer's connection was reset")?;
        typed(&error, "outcome_uncertain", true)?;
        within(elapsed, REQUEST_TIMEOUT, "the reset's error")?;
        executions(&rig.host, 1)?;
        let next = rig.next_call_works().await?;
        Ok(format!(
            "outcome_uncertain in {}, ran once, not replayed; {next}",
            seconds(elapsed)
        ))
    })
    .await
}

/// The server forgets the session (404): the call that found out surely did not run, so the
/// session initializes a new one and sends it there, once; the caller sees no error.
pub(super) async fn session_expiry(transport: HostTransport) -> Result<String, Failed> {
    let rig = Rig::start(FaultBehaviour::SessionExpiry, transport).await?;
    rig.run(async |rig| {
        rig.expect_recorded("before").await?;
        let elapsed = rig.expect_recorded("after").await?;
        within(elapsed, REQUEST_TIMEOUT, "the call after the expiry")?;
        check(rig.host.initializations() == 2, || {
            format!(
                "expected one new initialize after the 404, saw {} in all",
                rig.host.initializations()
            )
        })?;
        executions(&rig.host, 2)?;
        Ok(format!(
            "404 → re-initialized, the refused call sent once more and ran once, in {}",
            seconds(elapsed)
        ))
    })
    .await
}

/// The server stops and comes back on the same port: while it is down a call fails as not
/// connected (and nothing ran); once it is back the next call works on a new session.
pub(super) async fn server_restart(transport: HostTransport) -> Result<String, Failed> {
    let rig = Rig::start(FaultBehaviour::Healthy, transport).await?;
    rig.run(async |rig| {
        rig.expect_recorded("before").await?;
        rig.host.stop().await;
        tokio::time::sleep(DOWNTIME).await;
        let (outcome, elapsed) = rig.record("while down").await;
        let error = failed(outcome, "a call to a stopped server")?;
        check(error.is_connect(), || {
            format!(
                "a call to a stopped server is a failure to connect, got `{}`: {error}",
                error.kind()
            )
        })?;
        within(elapsed, REQUEST_TIMEOUT, "the call while down")?;
        executions(&rig.host, 1)?;
        rig.host
            .restart()
            .await
            .map_err(|error| Failed(format!("the host did not restart: {error}")))?;
        let next = rig.next_call_works().await?;
        Ok(format!(
            "while down: {} in {}; back on the same port, {next}",
            error.kind(),
            seconds(elapsed)
        ))
    })
    .await
}

/// Before its answer, the server sends a response to an id nobody sent: it is ignored, the
/// call gets its own answer, nobody waits.
pub(super) async fn unsolicited_id(transport: HostTransport) -> Result<String, Failed> {
    let rig = Rig::start(FaultBehaviour::UnsolicitedId, transport).await?;
    rig.run(async |rig| {
        let elapsed = rig.expect_recorded("asked").await?;
        within(elapsed, REQUEST_TIMEOUT, "the call")?;
        executions(&rig.host, 1)?;
        let next = rig.next_call_works().await?;
        Ok(format!(
            "the stray response ignored, the call got its own answer in {}; {next}",
            seconds(elapsed)
        ))
    })
    .await
}

/// An answer larger than `max_response_bytes` (a JSON body or an SSE event): it is not read
/// past the limit, and the call fails at once with a JSON-RPC error naming the limit (the tool
/// ran once; its answer is what was refused). On a legacy SSE stream, whose answers say whose
/// they are by their id alone, the id is read from the two ends of the dropped event. The
/// session stays up, and its next call works.
pub(super) async fn oversized_response(transport: HostTransport) -> Result<String, Failed> {
    let behaviour = FaultBehaviour::OversizedResponse {
        bytes: RESPONSE_LIMIT * 16,
    };
    let rig = Rig::start(behaviour, transport).await?;
    rig.run(async |rig| {
        let (outcome, elapsed) = rig.record("big").await;
        let error = failed(outcome, "a call answered past the limit")?;
        typed(&error, "rpc", false)?;
        let message = error.to_string();
        check(
            message.contains(&RESPONSE_LIMIT.to_string()) && message.contains("max_response_bytes"),
            || format!("the error does not name the limit: {message}"),
        )?;
        within(elapsed, REQUEST_TIMEOUT, "the oversized answer's error")?;
        executions(&rig.host, 1)?;
        let next = rig.next_call_works().await?;
        Ok(format!(
            "rpc error naming the {RESPONSE_LIMIT}-byte limit in {}; {next}",
            seconds(elapsed)
        ))
    })
    .await
}
