//! [`LabServer`]: a fixture MCP server for edge cases and benchmarks: echo, sleep, crash, add,
//! tool-list change notifications, image content, and the trace context a request carried.

mod model;

use std::borrow::Cow;
use std::time::Duration;

use rmcp::handler::server::common::schema_for_output;
use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{
    CallToolResult, CancelledNotificationParam, ContentBlock, Implementation, ProtocolVersion,
    RequestMetaObject, ServerCapabilities, ServerConfig,
};
use rmcp::service::{NotificationContext, RoleServer};
use rmcp::{Json, Peer, ServerHandler, tool, tool_handler, tool_router};
use tokio_util::sync::CancellationToken;

use self::model::{AddParams, EchoText, SleepParams, Sum};
use crate::{CancellationCounter, InFlightCounter};

/// A 1x1 transparent PNG, base64-encoded.
const TINY_PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/// What the `crash` tool does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum CrashBehavior {
    /// Answer with a tool error, since there is no process to lose. In-process tests simulate a
    /// crash with [`DuplexConnector::kill_all`](toolport_testkit::DuplexConnector::kill_all) instead.
    #[default]
    ToolError,
    /// Write a line to stderr and exit the whole process with status 3 at once, without
    /// answering. This is what the `toolport-fixture lab` binary does.
    ExitProcess,
}

/// A fixture MCP server named `toolport-lab`, with the tools:
///
/// - `echo(text)` returns the text as plain text content and as structured `{text}`;
/// - `sleep(ms)` waits, then returns `slept N ms`; it stops early when the request is cancelled;
/// - `crash()` acts as [`CrashBehavior`] says;
/// - `add(a, b)` returns structured `{sum}` (read-only);
/// - `notify_tools_changed()` sends `notifications/tools/list_changed` to the client;
/// - `get_image()` returns a 1x1 PNG image content block;
/// - `trace_context()` returns the request's `_meta` `traceparent` and `tracestate` as
///   structured `{traceparent, tracestate}` (each `null` when absent).
///
/// The server counts every `notifications/cancelled` it receives (see
/// [`cancellations`](LabServer::cancellations)) and the `sleep` calls it runs at once (see
/// [`sleeps`](LabServer::sleeps)). Clones share the counts. It serves every protocol version
/// rmcp knows, unless [`serving_up_to`](LabServer::serving_up_to) caps them.
///
/// # Examples
///
/// ```
/// use toolport_testkit::DuplexConnector;
/// use toolport_fixtures::LabServer;
///
/// let lab = LabServer::new();
/// let cancellations = lab.cancellations();
/// let connector = DuplexConnector::new(move || lab.clone());
/// assert_eq!(cancellations.get(), 0);
/// # drop(connector);
/// ```
#[derive(Debug, Clone)]
pub struct LabServer {
    crash: CrashBehavior,
    cancellations: CancellationCounter,
    sleeps: InFlightCounter,
    versions: &'static [ProtocolVersion],
    tool_router: ToolRouter<Self>,
}

impl LabServer {
    /// The server's name in its `initialize` response.
    pub const NAME: &'static str = "toolport-lab";

    /// A lab server whose `crash` tool answers with a tool error.
    pub fn new() -> Self {
        Self {
            crash: CrashBehavior::default(),
            cancellations: CancellationCounter::new(),
            sleeps: InFlightCounter::default(),
            versions: ProtocolVersion::KNOWN_VERSIONS,
            tool_router: Self::tool_router(),
        }
    }

    /// Sets what the `crash` tool does.
    pub fn with_crash_behavior(mut self, crash: CrashBehavior) -> Self {
        self.crash = crash;
        self
    }

    /// Serves only the versions up to `newest`, as a server on a 2026-aware SDK configured
    /// for older versions does: it refuses `server/discover` at a later version with code
    /// -32022, listing the versions it serves in `data.supported`.
    pub fn serving_up_to(mut self, newest: &ProtocolVersion) -> Self {
        self.versions = ProtocolVersion::known_up_to(newest);
        self
    }

    /// A handle on the number of `notifications/cancelled` this server (and its clones) received.
    pub fn cancellations(&self) -> CancellationCounter {
        self.cancellations.clone()
    }

    /// A handle on how many `sleep` calls this server (and its clones) runs at once.
    pub fn sleeps(&self) -> InFlightCounter {
        self.sleeps.clone()
    }
}

impl Default for LabServer {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_router(router = tool_router)]
impl LabServer {
    #[tool(
        description = "Returns the given text unchanged, as text and as structured content.",
        output_schema = schema_for_output::<EchoText>(),
        annotations(read_only_hint = true)
    )]
    async fn echo(&self, Parameters(params): Parameters<EchoText>) -> CallToolResult {
        let mut result = CallToolResult::success(vec![ContentBlock::text(params.text.clone())]);
        result.structured_content = Some(serde_json::json!({ "text": params.text }));
        result
    }

    #[tool(
        description = "Waits for the given number of milliseconds, then says how long it slept."
    )]
    async fn sleep(
        &self,
        Parameters(params): Parameters<SleepParams>,
        cancelled: CancellationToken,
    ) -> Result<String, String> {
        let _sleeping = self.sleeps.enter();
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(params.ms)) => {
                Ok(format!("slept {} ms", params.ms))
            }
            () = cancelled.cancelled() => Err("sleep cancelled".to_owned()),
        }
    }

    #[tool(description = "Exits the server process at once with status 3, to test crash handling.")]
    async fn crash(&self) -> Result<String, String> {
        match self.crash {
            CrashBehavior::ExitProcess => {
                eprintln!("toolport-lab: crash() called, exiting with status 3");
                std::process::exit(3)
            }
            CrashBehavior::ToolError => Err("crash() exits only the toolport-fixture process; \
                 in-process, use DuplexConnector::kill_all() to simulate a crash."
                .to_owned()),
        }
    }

    #[tool(
        description = "Adds two integers and returns their sum.",
        annotations(read_only_hint = true)
    )]
    async fn add(&self, Parameters(params): Parameters<AddParams>) -> Result<Json<Sum>, String> {
        let sum = params
            .a
            .checked_add(params.b)
            .ok_or_else(|| format!("{} + {} overflows a 64-bit integer", params.a, params.b))?;
        Ok(Json(Sum { sum }))
    }

    #[tool(
        description = "Returns the W3C trace context the request carried in its _meta.",
        annotations(read_only_hint = true)
    )]
    async fn trace_context(&self, meta: RequestMetaObject) -> CallToolResult {
        let field = |name: &str| meta.get(name).cloned().unwrap_or_default();
        let context = serde_json::json!({
            "traceparent": field("traceparent"),
            "tracestate": field("tracestate"),
        });
        let mut result = CallToolResult::success(vec![ContentBlock::text(context.to_string())]);
        result.structured_content = Some(context);
        result
    }

    #[tool(description = "Sends notifications/tools/list_changed to the client.")]
    async fn notify_tools_changed(&self, peer: Peer<RoleServer>) -> Result<String, String> {
        peer.notify_tool_list_changed()
            .await
            .map_err(|error| format!("could not send the notification: {error}"))?;
        Ok("sent notifications/tools/list_changed".to_owned())
    }

    #[tool(
        description = "Returns a 1x1 PNG image.",
        annotations(read_only_hint = true)
    )]
    async fn get_image(&self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::image(TINY_PNG_BASE64, "image/png")])
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for LabServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new(Self::NAME, env!("CARGO_PKG_VERSION")))
        .with_instructions("Tools for testing MCP clients: echo, sleep, crash, add, notify_tools_changed, get_image.")
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(self.versions)
    }

    async fn on_cancelled(
        &self,
        _notification: CancelledNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        self.cancellations.record();
    }
}
