//! What every stdio cell shares: the `toolport-fixture faulty` server with a ledger in a
//! directory of its own, a session to it with short bounds, and the checks a cell makes.

use std::future::Future;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};
use tempfile::TempDir;
use toolport::model::{CallToolRequestParams, CallToolResult, ProtocolVersion};
use toolport::stdio::StdioServer;
use toolport::{CallOptions, McpSession, SessionError, Timeouts};
use toolport_fixtures::{FIXTURE_BINARY_VAR, FaultLedger};

use crate::faults::Failed;
use crate::faults::timing::upper_bounds_judged;

/// The bound on opening the transport (spawning the child).
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// The bound on `initialize`.
pub(super) const INITIALIZE_TIMEOUT: Duration = Duration::from_secs(1);
/// The bound on each request.
pub(super) const REQUEST_TIMEOUT: Duration = Duration::from_secs(1);
/// How far past its bound a timeout may surface, where upper bounds are judged
/// ([`Timing::Strict`](crate::faults::Timing::Strict)): the session writes the cancellation
/// (for up to 500 ms) before it returns the error, and the machine is small.
pub(super) const TIMEOUT_GRACE: Duration = Duration::from_millis(900);
/// How long closing waits for the child to exit once its stdin is closed, before `SIGTERM`.
const CLOSE_GRACE: Duration = Duration::from_millis(300);
/// How long closing waits after `SIGTERM`, before `SIGKILL`.
const TERM_GRACE: Duration = Duration::from_millis(500);
/// How long [`closing`] gives `close()`: both grace periods and a second more.
const CLOSE_BOUND: Duration = CLOSE_GRACE
    .saturating_add(TERM_GRACE)
    .saturating_add(Duration::from_secs(1));
/// How long the fixture lives at most, whoever forgets it.
const FIXTURE_LIFETIME_SECS: &str = "60";

/// A `toolport-fixture faulty` server, as a session starts it on each connect, and the ledger
/// every process it starts writes in.
#[derive(Debug)]
pub(super) struct Faulty {
    /// Where the ledger lives; removed when the cell ends.
    _dir: TempDir,
    /// What the fixture processes did.
    pub(super) ledger: FaultLedger,
    server: StdioServer,
}

impl Faulty {
    /// The fixture with `extra` arguments after its ledger.
    pub(super) fn start(extra: &[&str]) -> Result<Self, Failed> {
        let dir = tempfile::Builder::new()
            .prefix("toolport-faults-")
            .tempdir()
            .map_err(|error| Failed(format!("cannot make a directory for the ledger: {error}")))?;
        let ledger = FaultLedger::new(dir.path().join("ledger"));
        let server = StdioServer::new(fixture()?)
            .arg("faulty")
            .arg("--ledger")
            .arg(ledger.path())
            .args(["--lifetime-secs", FIXTURE_LIFETIME_SECS])
            .args(extra)
            .close_grace(CLOSE_GRACE)
            .term_grace(TERM_GRACE);
        Ok(Self {
            _dir: dir,
            ledger,
            server,
        })
    }

    /// A session to the fixture with the cells' bounds.
    pub(super) fn session(&self) -> McpSession {
        session_to(self.server.clone())
    }

    /// How many fixture processes have started so far.
    pub(super) fn starts(&self) -> usize {
        self.ledger.count("started")
    }
}

/// A session to `server` with the cells' bounds, pinned to 2025-11-25 (the version the
/// `faulty` fixture speaks).
pub(super) fn session_to(server: StdioServer) -> McpSession {
    let timeouts = Timeouts::default()
        .with_connect(CONNECT_TIMEOUT)
        .with_initialize(INITIALIZE_TIMEOUT)
        .with_request(REQUEST_TIMEOUT);
    McpSession::builder(server)
        .timeouts(timeouts)
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .build()
}

/// The `toolport-fixture` binary that serves a stdio server with the given mode.
pub(super) fn fixture_server(mode: &str) -> Result<StdioServer, Failed> {
    Ok(StdioServer::new(fixture()?)
        .args([mode, "--lifetime-secs", FIXTURE_LIFETIME_SECS])
        .close_grace(CLOSE_GRACE)
        .term_grace(TERM_GRACE))
}

/// The `toolport-fixture` binary: `$TOOLPORT_FIXTURE`, else the one beside this program (as
/// cargo builds them both into `target/debug/`).
fn fixture() -> Result<PathBuf, Failed> {
    if let Some(path) = std::env::var_os(FIXTURE_BINARY_VAR) {
        return Ok(PathBuf::from(path));
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join("toolport-fixture")))
        .filter(|path| path.is_file())
        .ok_or_else(|| {
            Failed(format!(
                "no toolport-fixture binary beside this program: run `cargo xtask faults`, or \
                 build it and set {FIXTURE_BINARY_VAR}"
            ))
        })
}

/// Runs `body`, then closes `session` whatever the body found; a `close()` that does not
/// return within its bound fails the cell.
pub(super) async fn closing(
    session: &McpSession,
    body: impl Future<Output = Result<String, Failed>>,
) -> Result<String, Failed> {
    let outcome = body.await;
    let started = Instant::now();
    let closed = tokio::time::timeout(CLOSE_BOUND, session.close()).await;
    match (outcome, closed) {
        (Err(why), _) => Err(why),
        (Ok(_), Err(_)) => Err(Failed(format!(
            "close() did not return within {}",
            ms(CLOSE_BOUND)
        ))),
        (Ok(seen), Ok(_)) if started.elapsed() > CLOSE_GRACE + TERM_GRACE => {
            Ok(format!("{seen}; close took {}", ms(started.elapsed())))
        }
        (Ok(seen), Ok(_)) => Ok(seen),
    }
}

/// Calls `tool` with `arguments` (a JSON object), and says how long the call took.
pub(super) async fn call(
    session: &McpSession,
    tool: &str,
    arguments: Value,
) -> (Result<CallToolResult, SessionError>, Duration) {
    let arguments: Map<String, Value> = match arguments {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
    let started = Instant::now();
    let outcome = session.call_tool(params, CallOptions::default()).await;
    (outcome, started.elapsed())
}

/// The text of a result's first text block.
pub(super) fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .find_map(|block| block.as_text().map(|text| text.text.clone()))
        .unwrap_or_default()
}

/// Calls `tool` and expects its answer to be `expected`.
pub(super) async fn expect_answer(
    session: &McpSession,
    tool: &str,
    arguments: Value,
    expected: &str,
) -> Result<(), Failed> {
    match call(session, tool, arguments).await {
        (Ok(result), _) if text(&result) == expected => Ok(()),
        (Ok(result), _) => Err(Failed(format!(
            "{tool} answered {:?} where {expected:?} was due",
            abbreviate(&text(&result))
        ))),
        (Err(error), elapsed) => Err(Failed(format!(
            "{tool} failed after {}: {error}",
            ms(elapsed)
        ))),
    }
}

/// The error of a call that had to fail with `kind` (see `SessionError::kind`).
pub(super) fn expect_error(
    outcome: Result<CallToolResult, SessionError>,
    kind: &str,
    what: &str,
) -> Result<SessionError, Failed> {
    match outcome {
        Err(error) if error.kind() == kind => Ok(error),
        Err(error) => Err(Failed(format!(
            "{what} failed as {} where {kind} was due: {error}",
            error.kind()
        ))),
        Ok(result) => Err(Failed(format!(
            "{what} was answered ({:?}) where it had to fail as {kind}",
            abbreviate(&text(&result))
        ))),
    }
}

/// A timeout's error must come at its bound: not before, and (where upper bounds are judged)
/// not much after.
pub(super) fn ensure_at_bound(
    elapsed: Duration,
    bound: Duration,
    what: &str,
) -> Result<(), Failed> {
    ensure(elapsed >= bound, || {
        format!(
            "{what} timed out after {}, before its bound of {}",
            ms(elapsed),
            ms(bound)
        )
    })?;
    ensure(
        !upper_bounds_judged() || elapsed <= bound + TIMEOUT_GRACE,
        || {
            format!(
                "{what} timed out after {}, past its bound of {} (+{})",
                ms(elapsed),
                ms(bound),
                ms(TIMEOUT_GRACE)
            )
        },
    )
}

/// Where upper bounds are judged, an error that is not a timeout must come well before the
/// request bound: a fault the client can see must not pass for a slow server. (Every cell also
/// checks the error's kind, which tells a fault seen from a timeout on any machine.)
pub(super) fn ensure_before_bound(elapsed: Duration, what: &str) -> Result<(), Failed> {
    ensure(!upper_bounds_judged() || elapsed < REQUEST_TIMEOUT, || {
        format!(
            "{what} took {}, as long as a timeout: the fault went unseen",
            ms(elapsed)
        )
    })
}

/// Fails with `why()` unless `condition` holds.
pub(super) fn ensure(condition: bool, why: impl FnOnce() -> String) -> Result<(), Failed> {
    if condition {
        Ok(())
    } else {
        Err(Failed(why()))
    }
}

/// A duration in milliseconds, for the detail lines.
pub(super) fn ms(duration: Duration) -> String {
    format!("{} ms", duration.as_millis())
}

/// The start of a long text, for a message.
fn abbreviate(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}… ({} bytes)", &text[..end], text.len()),
        None => text.to_owned(),
    }
}
