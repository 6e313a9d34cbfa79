//! The `named` mode: a server whose tools have the names it is given, each answering which
//! server and tool it is, for tests of how a fleet's tool names are kept apart.
//!
//! ```text
//! toolport-fixture named LABEL NAME...
//! ```
//!
//! Each `NAME` is a tool that takes no arguments and answers `LABEL: NAME` as text.

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

/// A server of the tools named on the command line.
#[derive(Debug, Clone)]
struct Named {
    label: String,
    names: Vec<String>,
}

/// Runs the mode with the arguments after `named`. Returns the exit status.
pub(crate) fn run(args: &[String]) -> i32 {
    let Some((label, names)) = args.split_first().filter(|(_, names)| !names.is_empty()) else {
        eprintln!("usage: toolport-fixture named LABEL NAME...");
        return 2;
    };
    let server = Named {
        label: label.clone(),
        names: names.to_vec(),
    };
    serve::run(server, LIFETIME, serve::Timing::default())
}

impl ServerHandler for Named {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("toolport-named", "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut schema = serde_json::Map::new();
        schema.insert("type".to_owned(), "object".into());
        let tools = self.names.iter().map(|name| {
            let description = format!("Answers `{}: {name}`.", self.label);
            Tool::new(name.clone(), description, schema.clone())
        });
        Ok(ListToolsResult::with_all_items(tools.collect()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.names.iter().any(|name| *name == request.name) {
            let message = format!("no tool named {}", request.name);
            return Err(ErrorData::invalid_params(message, None));
        }
        let answer = format!("{}: {}", self.label, request.name);
        Ok(CallToolResult::success(vec![ContentBlock::text(answer)]).into())
    }
}
