//! The fleet-of-tools row: warm agent turns over 100, 1,000 and 3,000 tools behind the server
//! manager (in-process [`WideServer`]s of 30 tools each), with tool search and without. For
//! each size, one JSON line: the bytes of the declarations a turn sends with every tool and
//! with search (the pinned tool and the search tool), the CPU time of one search, and the CPU
//! time of the manager's aggregate listing per tool.

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};
use toolport::manager::{
    ConfigError, ConnectorFactory, McpConfig, McpServerManager, ServerToConnect,
};
use toolport::search::SearchToolset;
use toolport::{Connector, Tool, Toolset};
use toolport_fixtures::{WIDE_SERVER_TOOLS, WideServer};
use toolport_testkit::DuplexConnector;

use crate::usage::Mark;

/// The sizes measured, in tools.
pub const SIZES: [usize; 3] = [100, 1_000, 3_000];

/// Warm aggregate listings measured per size.
const LISTINGS: usize = 200;

/// Searches measured per size, the needs taken in turn.
const SEARCHES: usize = 300;

/// What the model asks a search for.
const NEEDS: [&str; 5] = [
    "remove a shipment from accounting system 42",
    "list the invoices",
    "find a customer record",
    "change the status of a ticket",
    "get the monthly report of system 7",
];

/// Makes server `system-N` a [`WideServer`] about system N with `tools_of(N)` tools.
#[derive(Debug)]
struct WideServers {
    tools: usize,
    listings: Arc<AtomicUsize>,
}

impl ConnectorFactory for WideServers {
    fn connector(&self, server: &ServerToConnect<'_>) -> Result<Arc<dyn Connector>, ConfigError> {
        let system: usize = server
            .id()
            .trim_start_matches("system-")
            .parse()
            .unwrap_or_default();
        let tools = (self.tools - system * WIDE_SERVER_TOOLS).min(WIDE_SERVER_TOOLS);
        let listings = Arc::clone(&self.listings);
        let connector =
            DuplexConnector::new(move || WideServer::new(system, tools, Arc::clone(&listings)));
        Ok(Arc::new(connector))
    }
}

/// The JSON line of `tools` tools.
pub async fn measure(tools: usize) -> Result<Value> {
    let servers = tools.div_ceil(WIDE_SERVER_TOOLS);
    let entries: serde_json::Map<String, Value> = (0..servers)
        .map(|system| (format!("system-{system}"), json!({"type": "wide"})))
        .collect();
    let config = McpConfig::parse(&json!({ "mcpServers": entries }).to_string(), "mcp.json")?;
    let factory = WideServers {
        tools,
        listings: Arc::default(),
    };
    let manager = Arc::new(
        McpServerManager::builder()
            .config(config)
            .connectors(factory)
            .always_prefix(true)
            .build(),
    );
    manager.start_all().await.check_required()?;

    let every_tool = manager.tools(None).await?;
    ensure!(
        every_tool.len() == tools,
        "{} tools listed, not {tools}",
        every_tool.len()
    );
    let pinned = every_tool[0].name().to_owned();
    let search = SearchToolset::builder_shared(Arc::clone(&manager) as Arc<dyn Toolset>)
        .pin([pinned])
        .build();
    let offered = search.tools(None).await?;

    let mark = Mark::now();
    for _ in 0..LISTINGS {
        manager.tools(None).await?;
    }
    let listing_cpu = mark.elapsed().1;
    let mark = Mark::now();
    for need in NEEDS.iter().cycle().take(SEARCHES) {
        let hits = search.search(need, None, 5).await?;
        hits.first().context("a search found nothing")?;
    }
    let search_cpu = mark.elapsed().1;
    manager.shutdown().await;

    Ok(json!({
        "tools": tools,
        "declared_bytes_every_tool": declared_bytes(&every_tool)?,
        "declared_bytes_search": declared_bytes(&offered)?,
        "search_cpu_us": search_cpu.as_secs_f64() * 1e6 / SEARCHES as f64,
        "listing_cpu_ns_per_tool": listing_cpu.as_secs_f64() * 1e9 / (LISTINGS * tools) as f64,
    }))
}

/// The bytes of the declarations of `tools` as JSON: what a turn sends the model.
fn declared_bytes(tools: &[Arc<dyn Tool>]) -> Result<usize> {
    let declarations: Vec<_> = tools.iter().map(|tool| tool.declaration()).collect();
    Ok(serde_json::to_vec(&declarations)?.len())
}
