//! The serving modes: a fixture server over stdio until stdin closes or the lifetime ends.

use std::time::Duration;

use rmcp::{ServerHandler, ServiceExt};
use toolport_testkit::{CrashBehavior, LabServer, TaskTracker};

/// Serves the task tracker. Returns the exit status.
pub(crate) fn tasks(lifetime: Duration) -> i32 {
    run(TaskTracker::new(), lifetime)
}

/// Serves the lab server, whose `crash` tool exits the process with status 3.
pub(crate) fn lab(lifetime: Duration) -> i32 {
    run(
        LabServer::new().with_crash_behavior(CrashBehavior::ExitProcess),
        lifetime,
    )
}

fn run<S: ServerHandler>(server: S, lifetime: Duration) -> i32 {
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
        let serving = async {
            let running = server
                .serve(rmcp::transport::stdio())
                .await
                .map_err(|error| {
                    eprintln!("toolport-fixture: initialize failed: {error}");
                })?;
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
