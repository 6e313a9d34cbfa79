//! [`LibraryServer`]: a fixture that publishes resources, a resource template and a prompt, for
//! tests of everything a server offers besides tools.

use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, ErrorData, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, Implementation, ListPromptsRequestMethod,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    PromptMessage, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, Role, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};

/// An MCP server named `toolport-library` that declares resources, prompts and completions:
///
/// - `resources/list` in two pages: `notes://a`, then `notes://b`;
/// - one resource template, `notes://{name}`;
/// - `resources/read`: `notes://a` is the text `Alpha`, `notes://logo` a blob; `notes://broken`
///   fails with an internal error (`the disk is on fire`), and any other URI with "resource not
///   found";
/// - `prompts/get greet` with a `name` argument gives one user message, `Say hello to <name>.`;
///   without `name` it fails with "invalid params";
/// - `completion/complete` completes any argument from `Ada`, `Alan` and `Grace` by prefix;
/// - `prompts/list` answers `Method not found`, although the server declares prompts, as some
///   servers do.
///
/// # Examples
///
/// ```
/// use toolport_testkit::DuplexConnector;
/// use toolport_fixtures::LibraryServer;
///
/// let connector = DuplexConnector::new(LibraryServer::new);
/// # drop(connector);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct LibraryServer;

impl LibraryServer {
    /// The server's name in its `initialize` response.
    pub const NAME: &'static str = "toolport-library";

    /// A server; it keeps no state.
    pub fn new() -> Self {
        Self
    }
}

impl ServerHandler for LibraryServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_resources()
            .enable_prompts()
            .enable_completions()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(Self::NAME, env!("CARGO_PKG_VERSION")))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let second_page = request.and_then(|params| params.cursor).as_deref() == Some("2");
        let (uri, next) = if second_page {
            ("notes://b", None)
        } else {
            ("notes://a", Some("2".to_owned()))
        };
        let mut page = ListResourcesResult::with_all_items(vec![Resource::new(uri, uri)]);
        page.next_cursor = next;
        Ok(page)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let template = ResourceTemplate::new("notes://{name}", "note");
        Ok(ListResourceTemplatesResult::with_all_items(vec![template]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let contents = match request.uri.as_str() {
            "notes://a" => ResourceContents::text("Alpha", "notes://a"),
            "notes://logo" => ResourceContents::blob("iVBORw0KGgo=", "notes://logo"),
            "notes://broken" => {
                return Err(ErrorData::internal_error("the disk is on fire", None));
            }
            other => {
                return Err(ErrorData::resource_not_found(
                    format!("no note {other}"),
                    None,
                ));
            }
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Err(ErrorData::method_not_found::<ListPromptsRequestMethod>())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let name = request
            .arguments
            .as_ref()
            .and_then(|arguments| arguments.get("name"))
            .and_then(|name| name.as_str())
            .ok_or_else(|| ErrorData::invalid_params("`name` is required", None))?;
        let message = PromptMessage::new_text(Role::User, format!("Say hello to {name}."));
        Ok(GetPromptResult::new(vec![message]).into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let values = ["Ada", "Alan", "Grace"]
            .into_iter()
            .filter(|name| name.starts_with(&request.argument.value))
            .map(str::to_owned)
            .collect();
        let completion =
            CompletionInfo::new(values).map_err(|error| ErrorData::internal_error(error, None))?;
        Ok(CompleteResult::new(completion))
    }
}
