//! A raw rmcp client speaking 2025-11-25, for the integration tests of the testkit and of
//! `toolport-fixtures` (whose `tests/common` includes this file).
//! Bounded waits are the testkit's own `bounded` and `WAIT`.

#![allow(dead_code, unreachable_pub)] // Each test binary uses a different subset.

use rmcp::model::{
    CallToolResult, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion,
};
use rmcp::service::{RoleClient, RunningService};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::Value;
use toolport_core::{ConnectContext, Connector};
use toolport_testkit::{bounded, call_params};

/// What the project's clients send in `initialize`.
pub fn client_config() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("toolport-tests", "0.0.0"),
    )
    .with_protocol_version(ProtocolVersion::V_2025_11_25)
}

/// Connects and initializes a plain client.
pub async fn connect(connector: &impl Connector) -> RunningService<RoleClient, ClientConfig> {
    connect_with(connector, client_config()).await
}

/// Connects and initializes a client with its own handler.
pub async fn connect_with<H: ClientHandler>(
    connector: &impl Connector,
    handler: H,
) -> RunningService<RoleClient, H> {
    let connection = bounded("connect", connector.connect(&ConnectContext::default()))
        .await
        .expect("connect");
    bounded("initialize", handler.serve(connection.transport))
        .await
        .expect("initialize")
}

/// Calls `name` with `arguments` (a JSON object).
pub async fn call<H: ClientHandler>(
    client: &RunningService<RoleClient, H>,
    name: &'static str,
    arguments: Value,
) -> CallToolResult {
    bounded(name, client.call_tool(call_params(name, arguments)))
        .await
        .unwrap_or_else(|error| panic!("{name} failed: {error}"))
}

/// The text of the result's only content block.
pub fn only_text(result: &CallToolResult) -> &str {
    assert_eq!(result.content.len(), 1, "{result:?}");
    &result.content[0]
        .as_text()
        .unwrap_or_else(|| panic!("not text: {result:?}"))
        .text
}
