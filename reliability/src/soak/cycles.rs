//! The `cycles-*` phases: sessions opened and closed one after another over one transport,
//! each connecting, listing the tools, calling `echo` once and closing.

use std::sync::Arc;
use std::time::Instant;

use toolport::{Connector, McpToolset};

use super::measure::{Failures, Progress, RssTrace, Work};
use super::plan::thousands;
use super::servers::{self, LabEndpoint};

/// Runs `cycles` cycles against `endpoint`, each with a connector of its own.
pub(super) async fn run(endpoint: &LabEndpoint, cycles: usize, trace: Arc<RssTrace>) -> Work {
    let progress = Progress::new(cycles, trace);
    let failures = Failures::default();
    let began = Instant::now();
    for n in 0..cycles {
        if let Err(error) = cycle(endpoint.connector(), n).await {
            failures.record(error);
        }
        progress.finish_one();
    }
    Work {
        done: format!(
            "{} cycles, {:.0}/s",
            thousands(cycles),
            cycles as f64 / began.elapsed().as_secs_f64()
        ),
        failures: failures.lines("cycles"),
        notes: Vec::new(),
    }
}

/// One session: connect, list, call `echo`, close. A close that had to terminate or kill
/// the server fails the cycle too.
async fn cycle(connector: Arc<dyn Connector>, n: usize) -> Result<(), String> {
    let toolset = McpToolset::builder_shared(connector)
        .build()
        .await
        .map_err(|error| toolport::error_chain(&error))?;
    let called = async {
        let echo = toolset
            .tool("echo", None)
            .await
            .map_err(|error| toolport::error_chain(&error))?;
        servers::echo(echo.as_ref(), &format!("cycle {n}")).await
    }
    .await;
    let exit = toolset.close().await;
    called?;
    if exit.is_clean() {
        Ok(())
    } else {
        Err(format!("the session did not close cleanly: {exit}"))
    }
}
