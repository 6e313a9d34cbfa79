//! [`WideServer`]: a server of many tools about one business system, for fleets of thousands
//! of tools.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::json;

/// What the tools do: each of these on each of [`THINGS`].
const ACTIONS: [&str; 6] = ["list", "get", "create", "update", "delete", "search"];
/// What the tools act on.
const THINGS: [&str; 5] = ["invoice", "shipment", "customer", "ticket", "report"];

/// The most tools a [`WideServer`] lists: every action on every thing.
pub const WIDE_SERVER_TOOLS: usize = ACTIONS.len() * THINGS.len();

/// An MCP server of up to 30 tools about one business system, `{action}_{thing}` (`list_invoice`,
/// `delete_shipment`, …), each described as acting on the records of "accounting system N";
/// a call answers `"{tool} on system N"`. Clones share one count of the `tools/list` requests
/// they answered, so a test can see whether a turn went to the servers.
#[derive(Debug, Clone)]
pub struct WideServer {
    system: usize,
    tools: usize,
    listings: Arc<AtomicUsize>,
}

impl WideServer {
    /// A server about system `system` listing its first `tools` tools (at most
    /// [`WIDE_SERVER_TOOLS`]), counting its listings in `listings`.
    pub fn new(system: usize, tools: usize, listings: Arc<AtomicUsize>) -> Self {
        Self {
            system,
            tools: tools.min(WIDE_SERVER_TOOLS),
            listings,
        }
    }

    /// The `tools/list` requests answered so far, by every server sharing the count.
    pub fn listings(&self) -> usize {
        self.listings.load(Ordering::SeqCst)
    }
}

impl ServerHandler for WideServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.listings.fetch_add(1, Ordering::SeqCst);
        let system = self.system;
        let tools = ACTIONS
            .iter()
            .flat_map(|action| THINGS.iter().map(move |thing| (action, thing)))
            .take(self.tools)
            .map(|(action, thing)| {
                let description =
                    format!("{action} the {thing} records of the accounting system {system}");
                let id = json!({"type": "string", "description": format!("The {thing}'s id")});
                let schema = serde_json::Map::from_iter([
                    ("type".to_owned(), json!("object")),
                    ("properties".to_owned(), json!({ "id": id })),
                ]);
                Tool::new(format!("{action}_{thing}"), description, Arc::new(schema))
            });
        Ok(ListToolsResult::with_all_items(tools.collect()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = format!("{} on system {}", request.name, self.system);
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}
