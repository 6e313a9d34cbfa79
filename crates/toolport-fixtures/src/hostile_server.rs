//! [`HostileSchemaServer`]: a fixture that lists the schemas of
//! [`hostile_schemas`](crate::hostile_schemas) and answers with results nested as deep as JSON
//! on the wire allows, to test that a client adapts, checks and maps them within bounds.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::{Value, json};

use crate::hostile_schemas::{amplification, depth_bomb};

/// How deep the results of `deep_result` nest: a little less than serde_json's limit of 128,
/// which the message around them needs a few levels of.
const RESULT_DEPTH: usize = 120;

/// An MCP server named `toolport-hostile-schemas` with the tools:
///
/// - `deep`: its input schema is [`depth_bomb(80, 100)`](depth_bomb), about 200 KB, which
///   nests 8,000 levels once inlined;
/// - `wide`: its input schema is [`amplification(295 KiB, 512)`](amplification), about 350 KB,
///   which grows to 150 MB once inlined;
/// - `deep_result`: returns structured content and a JSON text each nested 120 levels deep.
///
/// `deep` and `wide` answer `ok` to any arguments. The `toolport-fixture hostile-schemas`
/// binary serves it over stdio.
#[derive(Debug, Clone, Copy, Default)]
pub struct HostileSchemaServer;

impl HostileSchemaServer {
    /// The server.
    pub fn new() -> Self {
        Self
    }

    /// A value `depth` arrays and objects deep: `{"level": [{"level": [… "bottom" …]}]}`.
    pub fn nested_value(depth: usize) -> Value {
        let mut value = json!("bottom");
        for level in 0..depth {
            value = if level % 2 == 0 {
                json!([value])
            } else {
                json!({"level": value})
            };
        }
        value
    }
}

fn tool(name: &'static str, description: &'static str, schema: Value) -> Tool {
    let Value::Object(schema) = schema else {
        unreachable!("the hostile schemas are objects");
    };
    Tool::new(name, description, schema)
}

impl ServerHandler for HostileSchemaServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("toolport-hostile-schemas", "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![
            tool(
                "deep",
                "A chain of definitions that nests deep once inlined.",
                depth_bomb(80, 100),
            ),
            tool(
                "wide",
                "One large definition referenced 512 times.",
                amplification(295 * 1024, 512),
            ),
            tool(
                "deep_result",
                "Answers with results nested deep.",
                json!({"type": "object"}),
            ),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let result = match request.name.as_ref() {
            "deep" | "wide" => CallToolResult::success(vec![ContentBlock::text("ok")]),
            "deep_result" => {
                let nested = Self::nested_value(RESULT_DEPTH);
                let mut result =
                    CallToolResult::success(vec![ContentBlock::text(nested.to_string())]);
                result.structured_content = Some(json!({"nested": nested}));
                result
            }
            other => CallToolResult::error(vec![ContentBlock::text(format!("no tool {other}"))]),
        };
        Ok(result.into())
    }
}
