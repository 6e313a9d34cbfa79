//! The `fleet` workload as Toolport runs it, through the server manager: N stdio servers in one
//! `mcp.json`, started with [`McpServerManager::start_all`] and listed through the aggregate;
//! the resident set's growth is divided among them.

use anyhow::{Context, Result};
use serde_json::{Map, Value, json};
use std::time::Duration;
use toolport::manager::McpServerManager;
use toolport::model::ProtocolVersion;

use crate::args::{Args, Workload};
use crate::measurement::Measurement;
use crate::usage::{self, Mark};

/// The client's name in the result line: Toolport's, as the other rows name it.
pub const CLIENT: &str = "toolport";

/// Writes `args.n` entries of the server `args` names into an `mcp.json` (in a directory of its
/// own under the system's temporary one), starts them all, lists the aggregate's tools, and
/// measures from the load of the file until every server is ready and listed.
pub async fn run(args: &Args) -> Result<Measurement> {
    anyhow::ensure!(
        args.workload == Workload::Fleet,
        "the manager's client runs the `fleet` workload only, not `{}`",
        args.workload.name()
    );
    let dir = std::env::temp_dir().join(format!("toolport-bench-fleet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).context("creating the fleet's directory")?;
    let path = dir.join("mcp.json");
    let servers: Map<String, Value> = (0..args.n)
        .map(|n| {
            let entry = json!({"command": args.program(), "args": args.server_args()});
            (format!("echo{n}"), entry)
        })
        .collect();
    std::fs::write(&path, json!({"mcpServers": servers}).to_string())
        .context("writing the fleet's mcp.json")?;

    let rss_before = usage::rss_kib();
    let mark = Mark::now();
    // Raw rmcp speaks 2025-11-25, so the fleet does too: the row compares the same wire.
    let manager = McpServerManager::builder()
        .startup_grace(Duration::MAX)
        .protocol_version(ProtocolVersion::V_2025_11_25)
        .load(&path)?
        .build();
    let report = manager.start_all().await;
    if let Some(failure) = report.failures().next() {
        anyhow::bail!("{failure}");
    }
    let tools = manager.managed_tools(None).await?;
    anyhow::ensure!(!tools.is_empty(), "the fleet lists no tools");
    let mut measured = Measurement::new(CLIENT, args.n, mark.elapsed());
    let grown = usage::rss_kib().saturating_sub(rss_before);
    measured.rss_per_session_kib = Some(grown as f64 / args.n as f64);
    drop(tools);
    manager.shutdown().await;
    std::fs::remove_dir_all(&dir).context("removing the fleet's directory")?;
    Ok(measured)
}
