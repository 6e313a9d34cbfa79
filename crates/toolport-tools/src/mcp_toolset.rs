//! [`McpToolset`]: the tools of one MCP server as an agent [`Toolset`], over one shared session.

use std::collections::BTreeSet;
use std::sync::Arc;

use toolport_core::{Connector, ServerExit};
use toolport_session::{McpSession, SessionBuilder};

#[cfg(feature = "output-budgets")]
use crate::OutputBudgets;
use crate::call_path::CallPath;
#[cfg(feature = "contract")]
use crate::contract::ContractLock;
use crate::mcp_toolset_builder::{McpToolsetBuilder, SessionSource};
use crate::tool_cache::{ToolListCache, WrappedTools};
use crate::{
    LoadResourceTool, McpTool, ModelFit, ReadonlyContext, ReplayPolicy, ResultMapper, SchemaChecks,
    Tool, ToolFilter, ToolSession, Toolset, ToolsetError,
};

/// The tools of one MCP server, for an agent.
///
/// One toolset holds one session, shared by every caller; build it once at startup, and
/// [`connect`](Self::connect) there if a server that cannot start should fail the startup
/// rather than the first model turn. The tool list is fetched on first use and cached until the
/// server sends `notifications/tools/list_changed`, the session reconnects, the server's
/// `ttlMs` runs out (2026-07-28), or [`refresh`](Self::refresh) is called. Callers whose
/// contexts differ get lists of their own (see [`McpToolsetBuilder::list_caching`]), unless the
/// server calls its list public. [`close`](Self::close) ends the session and says how
/// the server ended; dropping the toolset closes it in the background.
///
/// The session is an [`McpSession`] unless the toolset was built
/// [`with_session`](Self::with_session) over another [`ToolSession`]: a fake one, in a unit
/// test.
///
/// # Examples
///
/// ```
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use serde_json::json;
/// use toolport_tools::McpToolset;
///
/// let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector())
///     .allow(["list_tasks", "complete_task"])
///     .strict(true)
///     .build()
///     .await?;
/// let tools = toolset.tools(None).await?;
/// assert_eq!(tools.len(), 2);
///
/// let list_tasks = tools.iter().find(|tool| tool.name() == "list_tasks").unwrap();
/// let output = list_tasks.call(json!({}), None).await?;
/// assert_eq!(output.value["count"], 3);
/// toolset.close().await;
/// # Ok(())
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(run()).unwrap();
/// ```
#[derive(Debug)]
pub struct McpToolset<S: ToolSession = McpSession> {
    pub(crate) session: Arc<S>,
    /// The same session, as the tools and the cache hold it.
    pub(crate) shared_session: Arc<dyn ToolSession>,
    pub(crate) filter: ToolFilter,
    pub(crate) mapper: Arc<dyn ResultMapper>,
    #[cfg(feature = "output-budgets")]
    pub(crate) budgets: OutputBudgets,
    pub(crate) replay: ReplayPolicy,
    pub(crate) schema_checks: SchemaChecks,
    pub(crate) fit: ModelFit,
    /// The `load_resource` tool, offered beside the server's when the server has resources.
    pub(crate) load_resource: Option<Arc<LoadResourceTool>>,
    pub(crate) cache: ToolListCache,
    /// The hooks and layers around the session, shared by every tool.
    pub(crate) call_path: CallPath,
}

impl McpToolset {
    /// A builder for a toolset over `connector`.
    pub fn builder(connector: impl Connector) -> McpToolsetBuilder {
        Self::builder_shared(Arc::new(connector))
    }

    /// A builder for a toolset over a shared connector.
    pub fn builder_shared(connector: Arc<dyn Connector>) -> McpToolsetBuilder {
        McpToolsetBuilder::new(SessionSource::Build {
            builder: Box::new(McpSession::builder_shared(connector)),
            build: SessionBuilder::build,
        })
    }
}

impl<S: ToolSession> McpToolset<S> {
    /// A builder for a toolset over an existing session: an [`McpSession`] shared with
    /// whoever else holds it, or a [`ToolSession`] of the user's. The session's own settings
    /// hold: session settings given to this builder
    /// ([`session`](McpToolsetBuilder::session)) make
    /// [`build`](McpToolsetBuilder::build) fail with [`ToolsetError::SessionSettings`].
    pub fn with_session(session: S) -> McpToolsetBuilder<S> {
        McpToolsetBuilder::new(SessionSource::Existing(session))
    }

    /// The session under this toolset, for resources, prompts or raw requests.
    pub fn session(&self) -> &S {
        &self.session
    }

    /// Starts the server and completes the handshake now, so that a bad command or an
    /// unreachable URL fails at startup instead of on the first model turn.
    pub async fn connect(&self) -> Result<(), ToolsetError> {
        Ok(self.session.connect().await?)
    }

    /// Forgets the cached tool list; the next [`tools`](Self::tools) lists again.
    pub fn refresh(&self) {
        self.cache.invalidate();
    }

    /// The tools to offer the model now, for the caller described by `context`: the cached
    /// list (or a `tools/list` when it is stale), filtered for this caller, and the
    /// [`load_resource_tool`](McpToolsetBuilder::load_resource_tool) if there is one. The same
    /// as [`Toolset::tools`], without importing the trait.
    pub async fn tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError> {
        let tools = self.server_tools(context).await?;
        let mut offered: Vec<Arc<dyn Tool>> = self
            .offered(&tools, context)
            .map(|tool| Arc::clone(tool) as Arc<dyn Tool>)
            .collect();
        if let Some(load_resource) = &self.load_resource
            && self.session.offers_resources()
        {
            offered.push(Arc::clone(load_resource) as Arc<dyn Tool>);
        }
        Ok(offered)
    }

    /// The tools offered to the caller described by `context`, as concrete [`McpTool`]s (which
    /// also give the server's own listing and unmapped calls).
    pub async fn mcp_tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<McpTool>>, ToolsetError> {
        let tools = self.server_tools(context).await?;
        Ok(self.offered(&tools, context).cloned().collect())
    }

    /// The tool named `name`, if it is offered to the caller described by `context`.
    ///
    /// # Errors
    ///
    /// [`ToolsetError::UnknownTool`], naming the tools offered, when there is no such tool;
    /// otherwise as [`tools`](Self::tools).
    pub async fn tool(
        &self,
        name: &str,
        context: Option<&ReadonlyContext>,
    ) -> Result<Arc<McpTool>, ToolsetError> {
        let tools = self.server_tools(context).await?;
        if let Some(tool) = self
            .offered(&tools, context)
            .find(|tool| tool.name() == name)
        {
            return Ok(Arc::clone(tool));
        }
        Err(ToolsetError::UnknownTool {
            target: self.session.target().to_owned(),
            name: name.to_owned(),
            available: self
                .offered(&tools, context)
                .map(|tool| tool.name().to_owned())
                .collect(),
        })
    }

    /// The pin of the tools offered to the caller described by `context`, as the server lists
    /// them (by the server's names): compare it with a stored one with
    /// [`ContractLock::check`].
    #[cfg(feature = "contract")]
    pub async fn contract_lock(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<ContractLock, ToolsetError> {
        let tools = self.server_tools(context).await?;
        let offered = self.offered(&tools, context);
        Ok(ContractLock::from_tools(
            offered.map(|tool| tool.definition()),
        ))
    }

    /// Ends the session and waits until its transport has closed (for a child process: it has
    /// exited and been reaped), and says how the server ended. Tools taken from the toolset stop
    /// working. [`Toolset::close`] does the same, without the report.
    pub async fn close(&self) -> ServerExit {
        self.session.close().await
    }

    /// The server's tools, wrapped: cached, or listed again when the list is stale or the
    /// toolset lists on every turn.
    async fn server_tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<WrappedTools, ToolsetError> {
        let wrap = |listed| {
            self.fit.wrap_all(listed, |definition| {
                #[cfg(feature = "output-budgets")]
                let budget = self.budgets.for_tool(&definition.name);
                let tool = McpTool::new(
                    definition,
                    Arc::clone(&self.shared_session),
                    self.mapper.clone(),
                    &self.replay,
                )
                .schema_checks(self.schema_checks)
                .with_call_path(self.call_path.clone());
                #[cfg(feature = "output-budgets")]
                let tool = tool.with_output_budget(budget);
                tool
            })
        };
        Ok(self.cache.get(&*self.shared_session, context, wrap).await?)
    }

    /// The tools of `tools` that the filter offers to the caller described by `context`.
    fn offered<'a>(
        &'a self,
        tools: &'a [Arc<McpTool>],
        context: Option<&'a ReadonlyContext>,
    ) -> impl Iterator<Item = &'a Arc<McpTool>> {
        tools
            .iter()
            .filter(move |tool| self.filter.allows(tool.definition(), context))
    }

    /// Fails when an allowlisted name is missing on the server.
    pub(crate) async fn check_allowlist(&self) -> Result<(), ToolsetError> {
        let Some(allowed) = self.filter.allowlist() else {
            return Ok(());
        };
        let tools = self.server_tools(None).await?;
        let available: BTreeSet<&str> = tools
            .iter()
            .map(|tool| tool.definition().name.as_ref())
            .collect();
        let missing: Vec<String> = allowed
            .iter()
            .filter(|name| !available.contains(name.as_str()))
            .cloned()
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(ToolsetError::MissingTools {
            target: self.session.target().to_owned(),
            missing,
            available: available.into_iter().map(str::to_owned).collect(),
        })
    }
}

#[async_trait::async_trait]
impl<S: ToolSession> Toolset for McpToolset<S> {
    async fn tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError> {
        McpToolset::tools(self, context).await
    }

    async fn close(&self) {
        McpToolset::close(self).await;
    }
}
