//! The serving modes: a fixture server over stdio until stdin closes or the lifetime ends.

use std::time::Duration;

use rmcp::service::ServerInitializeError;
use rmcp::{ServerHandler, ServiceExt};
use toolport_fixtures::{CrashBehavior, HostileSchemaServer, LabServer};
use toolport_testkit::TaskTracker;

/// The exit status of a server that crashed after `--exit-after-ms`.
const CRASH_STATUS: i32 = 3;

/// When a serving mode starts and stops, beside its lifetime.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Timing {
    /// How long the server reads nothing before it serves: a slow start.
    pub(crate) start_delay: Duration,
    /// How long it serves before it crashes, if it does.
    pub(crate) exit_after: Option<Duration>,
    /// How long it serves before it stops itself (`SIGSTOP`), if it does.
    pub(crate) freeze_after: Option<Duration>,
    /// How long the server lives on after its stdin closes, as a server that ignores the end
    /// of its stdin does (within its lifetime).
    pub(crate) after_stdin_closes: Duration,
    /// How long a daemon the server starts lives, if it starts one: `sleep N` in a session of
    /// its own, double-forked, so that neither the server's process group nor its children
    /// hold it.
    pub(crate) daemon: Option<Duration>,
}

/// Serves the task tracker. Returns the exit status.
pub(crate) fn tasks(lifetime: Duration, timing: Timing) -> i32 {
    run(TaskTracker::new(), lifetime, timing)
}

/// Serves `lab`, its `crash` tool exiting the process with status 3.
pub(crate) fn lab(lab: LabServer, lifetime: Duration, timing: Timing) -> i32 {
    run(
        lab.with_crash_behavior(CrashBehavior::ExitProcess),
        lifetime,
        timing,
    )
}

/// Serves the hostile-schema server.
pub(crate) fn hostile_schemas(lifetime: Duration, timing: Timing) -> i32 {
    run(HostileSchemaServer::new(), lifetime, timing)
}

/// A current-thread runtime for a mode, or `None` after saying on stderr why there is none.
pub(crate) fn runtime() -> Option<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .inspect_err(|error| eprintln!("toolport-fixture: cannot start the runtime: {error}"))
        .ok()
}

/// Serves `server` over stdio until stdin closes or `lifetime` ends, started and stopped as
/// `timing` says. Returns the exit status.
pub(crate) fn run<S: ServerHandler>(server: S, lifetime: Duration, timing: Timing) -> i32 {
    if let Some(daemon) = timing.daemon
        && let Err(error) = start_daemon(daemon)
    {
        eprintln!("toolport-fixture: cannot start the daemon: {error}");
        return 1;
    }
    let Some(runtime) = runtime() else {
        return 1;
    };
    let code = runtime.block_on(async move {
        if let Some(exit_after) = timing.exit_after {
            tokio::spawn(async move {
                tokio::time::sleep(timing.start_delay + exit_after).await;
                eprintln!("fatal: lost the database connection");
                std::process::exit(CRASH_STATUS);
            });
        }
        if let Some(freeze_after) = timing.freeze_after {
            tokio::spawn(async move {
                tokio::time::sleep(timing.start_delay + freeze_after).await;
                let pid = std::process::id().to_string();
                let _ = std::process::Command::new("kill")
                    .args(["-STOP", &pid])
                    .status();
            });
        }
        let serving = async {
            tokio::time::sleep(timing.start_delay).await;
            let running = match server.serve(rmcp::transport::stdio()).await {
                Ok(running) => running,
                // A 2026-07-28 client may ask `server/discover` alone and leave; rmcp's
                // server, still waiting for its first request, reports that as a closed
                // connection. The client left politely.
                Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
                Err(error) => {
                    eprintln!("toolport-fixture: initialize failed: {error}");
                    return Err(());
                }
            };
            let _ = running.waiting().await;
            tokio::time::sleep(timing.after_stdin_closes).await;
            Ok::<(), ()>(())
        };
        match tokio::time::timeout(lifetime, serving).await {
            Ok(Ok(())) => 0,
            Ok(Err(())) => 1,
            Err(_) => {
                eprintln!(
                    "toolport-fixture: lifetime of {} s reached, exiting",
                    lifetime.as_secs()
                );
                0
            }
        }
    });
    // Stdin is read on a blocking thread that may still be waiting for a line; do not wait
    // for it, or the lifetime would not bound anything.
    runtime.shutdown_background();
    code
}

/// Starts `sleep` for `lifetime` as a daemon: the shell forks it into a session of its own and
/// exits, leaving it an orphan. Returns once it is in that session, out of our process group.
fn start_daemon(lifetime: Duration) -> std::io::Result<()> {
    let script = format!(
        "setsid sleep {} </dev/null >/dev/null 2>&1 & echo $!",
        lifetime.as_secs()
    );
    let output = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()?;
    let pid = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    for _ in 0..1000 {
        if session_of(&pid).as_deref() == Some(pid.as_str()) {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    Err(std::io::Error::other(format!(
        "the daemon (pid {pid:?}) never left our process group"
    )))
}

/// The session id of process `pid`, from `/proc`.
fn session_of(pid: &str) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the name: state, parent, process group, session.
    let session = stat.rsplit(')').next()?.split_whitespace().nth(3)?;
    Some(session.to_owned())
}
