//! `conformance-client`: the MCP client that the official conformance suite
//! (`@modelcontextprotocol/conformance`) drives, one scenario per run.
//!
//! The suite runs `conformance-client <server-url>` with the scenario's name in
//! `MCP_CONFORMANCE_SCENARIO`. The client plays the scenario against the server with
//! Toolport's public API only, then exits 0, or 1 with one line on stderr naming the cause.
//! The suite's own checks, recorded on its side, decide whether the scenario passed.
//!
//! Set `RUST_LOG` (say `RUST_LOG=debug`) to see what the session and transport do.

mod auth;
mod context;
mod elicitation;
mod scenario;
mod session;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context as _, Result};

use crate::scenario::Scenario;

/// The env var that names the scenario.
const SCENARIO_VAR: &str = "MCP_CONFORMANCE_SCENARIO";

/// The whole run is cut off after this long, well inside the suite's 30 s per scenario, so
/// that a hang is reported by us rather than as the suite's timeout.
const DEADLINE: Duration = Duration::from_secs(20);

fn main() -> ExitCode {
    if std::env::var_os("RUST_LOG").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_writer(std::io::stderr)
            .init();
    }
    let name = std::env::var(SCENARIO_VAR).unwrap_or_default();
    match run(&name) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // One line, whatever the chain of causes holds.
            let message = format!("{error:#}").replace('\n', " ");
            eprintln!("conformance-client: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the command line, then plays the scenario within [`DEADLINE`].
fn run(name: &str) -> Result<()> {
    let url = std::env::args()
        .skip(1)
        .last()
        .context("usage: conformance-client <server-url>, with MCP_CONFORMANCE_SCENARIO set")?;
    let scenario = Scenario::parse(name);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("could not start the async runtime")?;
    runtime
        .block_on(async {
            tokio::time::timeout(DEADLINE, scenario.run(&url))
                .await
                .with_context(|| format!("gave up after {DEADLINE:?}"))?
        })
        .with_context(|| format!("scenario `{}`", scenario.name()))
}
