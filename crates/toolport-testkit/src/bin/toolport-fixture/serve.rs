//! The serving modes: a fixture server over stdio until stdin closes or the lifetime ends.

use std::time::Duration;

use rmcp::service::ServerInitializeError;
use rmcp::{ServerHandler, ServiceExt};
use toolport_testkit::{CrashBehavior, HostileSchemaServer, LabServer, TaskTracker};

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
}

/// Serves the task tracker. Returns the exit status.
pub(crate) fn tasks(lifetime: Duration, timing: Timing) -> i32 {
    run(TaskTracker::new(), lifetime, timing)
}

/// Serves the lab server, whose `crash` tool exits the process with status 3.
pub(crate) fn lab(lifetime: Duration, timing: Timing) -> i32 {
    run(
        LabServer::new().with_crash_behavior(CrashBehavior::ExitProcess),
        lifetime,
        timing,
    )
}

/// Serves the hostile-schema server.
pub(crate) fn hostile_schemas(lifetime: Duration, timing: Timing) -> i32 {
    run(HostileSchemaServer::new(), lifetime, timing)
}

fn run<S: ServerHandler>(server: S, lifetime: Duration, timing: Timing) -> i32 {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("toolport-fixture: cannot start the runtime: {error}");
            return 1;
        }
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
