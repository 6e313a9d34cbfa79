//! A fleet of 3,000 tools (100 in-process servers of 30 tools each) behind the manager, with
//! search on: a warm turn declares the pinned tools and the search tool alone, a search finds a
//! tool of any server, and no turn after the first lists a server's tools again. What a turn
//! costs is measured by `cargo xtask bench` (the fleet-of-tools row), not here.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use toolport_core::Connector;
use toolport_fixtures::{WIDE_SERVER_TOOLS, WideServer};
use toolport_manager::{
    ConfigError, ConnectorFactory, McpConfig, McpServerManager, ServerToConnect,
};
use toolport_search::SearchToolset;
use toolport_testkit::DuplexConnector;
use toolport_tools::{ReadonlyContext, Toolset};

const SERVERS: usize = 100;

/// Makes server `system-N` a [`WideServer`] about system N, every server counting its listings
/// in one counter.
#[derive(Debug, Clone, Default)]
struct WideServers {
    listings: Arc<AtomicUsize>,
}

impl ConnectorFactory for WideServers {
    fn connector(&self, server: &ServerToConnect<'_>) -> Result<Arc<dyn Connector>, ConfigError> {
        let system = server.id().trim_start_matches("system-").parse().unwrap();
        let listings = Arc::clone(&self.listings);
        let connector = DuplexConnector::new(move || {
            WideServer::new(system, WIDE_SERVER_TOOLS, Arc::clone(&listings))
        });
        Ok(Arc::new(connector.with_target(format!("system {system}"))))
    }
}

/// A started manager of [`SERVERS`] wide servers, every tool named `{server}__{tool}`.
async fn fleet(servers: &WideServers) -> McpServerManager {
    let entries: serde_json::Map<String, serde_json::Value> = (0..SERVERS)
        .map(|system| (format!("system-{system}"), json!({"type": "wide"})))
        .collect();
    let config = McpConfig::parse(&json!({ "mcpServers": entries }).to_string(), "mcp.json");
    let manager = McpServerManager::builder()
        .config(config.unwrap())
        .connectors(servers.clone())
        .always_prefix(true)
        .build();
    manager.start_all().await.check_required().unwrap();
    manager
}

fn names(tools: &[Arc<dyn toolport_tools::Tool>]) -> Vec<&str> {
    tools.iter().map(|tool| tool.name()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warm_turn_over_3000_tools_declares_the_pinned_and_the_search_tool() {
    let servers = WideServers::default();
    let search = SearchToolset::builder(fleet(&servers).await)
        .pin(["system-0__list_ticket"])
        .build();
    let conversation = ReadonlyContext::from_json(json!({"conversation": "c-1"}));
    let context = Some(&conversation);

    let first = search.tools(context).await.unwrap();
    assert_eq!(names(&first), ["system-0__list_ticket", "search_tools"]);
    assert_eq!(search.indexed(), 3_000);
    let listed = servers.listings.load(Ordering::SeqCst);

    let warm = search.tools(context).await.unwrap();
    assert_eq!(names(&warm), ["system-0__list_ticket", "search_tools"]);

    let search_tool = &warm[1];
    let found = search_tool
        .call(
            json!({"query": "remove a shipment from accounting system 42", "limit": 1}),
            context,
        )
        .await
        .unwrap();
    assert_eq!(
        found.value["tools"][0]["name"], "system-42__delete_shipment",
        "{}",
        found.value
    );
    assert_eq!(found.value["tools"][0]["server"], "system-42");

    let next = search.tools(context).await.unwrap();
    assert_eq!(
        names(&next),
        [
            "system-0__list_ticket",
            "search_tools",
            "system-42__delete_shipment"
        ]
    );
    let output = next[2].call(json!({"id": "S-1"}), context).await.unwrap();
    assert_eq!(output.value, json!("delete_shipment on system 42"));
    assert_eq!(
        servers.listings.load(Ordering::SeqCst),
        listed,
        "no warm turn lists a server's tools again"
    );
    search.close().await;
}
