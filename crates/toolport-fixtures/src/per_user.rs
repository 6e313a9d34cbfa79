//! [`PerUserServer`]: a fixture that shows each user a tool list of their own, for tests of
//! clients that serve many users over one session.

use std::time::Duration;

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
    Implementation, ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};

/// An MCP server, for the Streamable HTTP fixture, that reads the user from each request's
/// `X-User-Id` header and lists one tool named `tools_of_<user>` (`tools_of_anonymous` without
/// the header). Calling it answers with the user's name; calling another user's tool is an
/// error. It stands for a server that shows different tools to different users.
///
/// On 2026-07-28 its lists say `cacheScope: "private"`, with a `ttlMs` of zero unless
/// [`with_list_ttl`](Self::with_list_ttl) gives another.
///
/// # Examples
///
/// ```
/// use toolport_fixtures::{HttpFixtureServer, PerUserServer};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let server = HttpFixtureServer::start(PerUserServer::new).await.unwrap();
/// # drop(server);
/// # }
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct PerUserServer {
    list_ttl: Duration,
}

impl PerUserServer {
    /// The header that names the user.
    pub const USER_HEADER: &'static str = "x-user-id";

    /// A server; it keeps no state.
    pub fn new() -> Self {
        Self::default()
    }

    /// The `ttlMs` its lists give on 2026-07-28: how long a client may keep one.
    pub fn with_list_ttl(self, ttl: Duration) -> Self {
        Self { list_ttl: ttl }
    }

    /// The one tool `user` sees.
    pub fn tool_name(user: &str) -> String {
        format!("tools_of_{user}")
    }
}

/// The user of the HTTP request that carried `context`'s request.
fn user_of(context: &RequestContext<RoleServer>) -> String {
    context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.headers.get(PerUserServer::USER_HEADER))
        .and_then(|value| value.to_str().ok())
        .unwrap_or("anonymous")
        .to_owned()
}

impl ServerHandler for PerUserServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("toolport-per-user", "1.0.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let user = user_of(&context);
        let schema = serde_json::json!({"type": "object", "properties": {}});
        let serde_json::Value::Object(schema) = schema else {
            unreachable!("the schema is an object");
        };
        let tool = Tool::new(
            Self::tool_name(&user),
            format!("A tool only {user} sees."),
            schema,
        );
        let mut result = ListToolsResult::with_all_items(vec![tool]);
        if context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28)
        {
            let ttl_ms = u64::try_from(self.list_ttl.as_millis()).unwrap_or(u64::MAX);
            result.ttl_ms = Some(ttl_ms);
            result.cache_scope = Some(CacheScope::Private);
        }
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let user = user_of(&context);
        if request.name != Self::tool_name(&user) {
            let refusal = format!("{user} has no tool named {}", request.name);
            return Ok(CallToolResult::error(vec![ContentBlock::text(refusal)]).into());
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(user)]).into())
    }
}
