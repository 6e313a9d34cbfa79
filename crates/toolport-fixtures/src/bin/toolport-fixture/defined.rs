//! The `defined` mode: a server whose tools are the ones defined on its command line, schemas
//! and all, for tests of what a client makes of a server's tool list as it changes.
//!
//! ```text
//! toolport-fixture defined TOOLS_JSON
//! ```
//!
//! `TOOLS_JSON` is a JSON array of MCP tool definitions (`name`, `description`,
//! `inputSchema`, `outputSchema`). Each tool answers its own name as text.

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};

use crate::serve;

/// How long the mode serves at most.
const LIFETIME: Duration = Duration::from_secs(120);

/// A server of the tools defined on the command line.
#[derive(Debug, Clone)]
struct Defined {
    tools: Vec<Tool>,
}

/// Runs the mode with the arguments after `defined`. Returns the exit status.
pub(crate) fn run(args: &[String]) -> i32 {
    let [definitions] = args else {
        eprintln!("usage: toolport-fixture defined TOOLS_JSON");
        return 2;
    };
    match serde_json::from_str(definitions) {
        Ok(tools) => serve::run(Defined { tools }, LIFETIME, serve::Timing::default()),
        Err(error) => {
            eprintln!("toolport-fixture: TOOLS_JSON is not a list of tools: {error}");
            2
        }
    }
}

impl ServerHandler for Defined {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("toolport-defined", "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.tools.iter().any(|tool| tool.name == request.name) {
            let message = format!("no tool named {}", request.name);
            return Err(ErrorData::invalid_params(message, None));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(request.name.to_string())]).into())
    }
}
