//! [`McpToolset`]: the tools of one MCP server as an agent [`Toolset`], over one shared session.

use std::collections::BTreeSet;
use std::sync::Arc;

use rmcp::model::ProtocolVersion;
use toolport_core::{Connector, ServerExit, Timeouts};
use toolport_session::{ElicitationHandler, McpSession, RetryPolicy, SessionBuilder};

use crate::adaptation::Adaptation;
use crate::budget::Budgets;
use crate::contract::ContractLock;
use crate::names::ToolNamer;
use crate::schema::{Provider, SchemaAdapter};
use crate::tool_cache::{CacheKey, ToolListCache, WrappedTools, whole_context};
use crate::{
    Mapping, McpTool, OutputBudget, ReadonlyContext, ResultMapper, SchemaChecks, Tool, ToolFilter,
    ToolPredicate, Toolset, ToolsetError,
};

/// The tools of one MCP server, for an agent.
///
/// One toolset holds one session, shared by every caller; build it once at startup, and
/// [`connect`](Self::connect) there if a server that cannot start should fail the startup
/// rather than the first model turn. The tool list is fetched on first use and cached until the
/// server sends `notifications/tools/list_changed`, the session reconnects, or
/// [`refresh`](Self::refresh) is called. Callers whose contexts differ get lists of their own
/// (see [`McpToolsetBuilder::cache_key`]). [`close`](Self::close) ends the session and says how
/// the server ended; dropping the toolset closes it in the background.
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
pub struct McpToolset {
    session: McpSession,
    filter: ToolFilter,
    mapper: Arc<dyn ResultMapper>,
    budgets: Budgets,
    replay_opt_in: bool,
    schema_checks: SchemaChecks,
    adaptation: Adaptation,
    list_every_turn: bool,
    cache: ToolListCache,
}

impl McpToolset {
    /// A builder for a toolset over `connector`.
    pub fn builder(connector: impl Connector) -> McpToolsetBuilder {
        Self::builder_shared(Arc::new(connector))
    }

    /// A builder for a toolset over a shared connector.
    pub fn builder_shared(connector: Arc<dyn Connector>) -> McpToolsetBuilder {
        McpToolsetBuilder::new(SessionSource::Build(Box::new(McpSession::builder_shared(
            connector,
        ))))
    }

    /// A builder for a toolset over an existing session, shared with whoever else holds it.
    /// The session's own timeouts and retry policy hold.
    pub fn with_session(session: McpSession) -> McpToolsetBuilder {
        McpToolsetBuilder::new(SessionSource::Existing(session))
    }

    /// The session under this toolset, for resources, prompts or raw requests.
    pub fn session(&self) -> &McpSession {
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
    /// list (or a `tools/list` when it is stale), filtered for this caller. The same as
    /// [`Toolset::tools`], without importing the trait.
    pub async fn tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError> {
        let tools = self.server_tools(context).await?;
        Ok(self
            .offered(&tools, context)
            .map(|tool| Arc::clone(tool) as Arc<dyn Tool>)
            .collect())
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
            self.adaptation.wrap_all(listed, |tool| {
                let budget = self.budgets.for_tool(&tool.name);
                McpTool::new(
                    tool,
                    self.session.clone(),
                    self.mapper.clone(),
                    self.replay_opt_in,
                )
                .schema_checks(self.schema_checks)
                .with_output_budget(budget)
            })
        };
        let tools = if self.list_every_turn {
            self.cache.fetch(&self.session, context, wrap).await?
        } else {
            self.cache.get(&self.session, context, wrap).await?
        };
        Ok(tools)
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
    async fn check_allowlist(&self) -> Result<(), ToolsetError> {
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
impl Toolset for McpToolset {
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

/// Builds an [`McpToolset`]. It forwards every setting of the session it makes.
#[must_use]
pub struct McpToolsetBuilder {
    session: SessionSource,
    filter: ToolFilter,
    mapper: Arc<dyn ResultMapper>,
    budgets: Budgets,
    strict: bool,
    replay_opt_in: bool,
    schema_checks: SchemaChecks,
    adaptation: Adaptation,
    list_every_turn: bool,
    cache_key: CacheKey,
}

impl std::fmt::Debug for McpToolsetBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpToolsetBuilder")
            .field("session", &self.session)
            .field("filter", &self.filter)
            .field("mapper", &self.mapper)
            .field("budgets", &self.budgets)
            .field("strict", &self.strict)
            .field("replay_opt_in", &self.replay_opt_in)
            .field("schema_checks", &self.schema_checks)
            .field("adaptation", &self.adaptation)
            .field("list_every_turn", &self.list_every_turn)
            .finish_non_exhaustive()
    }
}

/// Where a toolset's session comes from.
#[derive(Debug)]
enum SessionSource {
    /// A new session, still being configured (boxed: a builder is much larger than a handle).
    Build(Box<SessionBuilder>),
    /// A session someone else also holds.
    Existing(McpSession),
}

impl McpToolsetBuilder {
    fn new(session: SessionSource) -> Self {
        Self {
            session,
            filter: ToolFilter::All,
            mapper: Mapping::default().mapper(),
            budgets: Budgets::default(),
            strict: false,
            replay_opt_in: false,
            schema_checks: SchemaChecks::default(),
            adaptation: Adaptation::default(),
            list_every_turn: false,
            cache_key: Arc::new(whole_context),
        }
    }

    /// Bounds for connecting, initializing and each call. See [`Timeouts`] for the defaults.
    /// No effect on a toolset built [`with_session`](McpToolset::with_session).
    pub fn timeouts(self, timeouts: Timeouts) -> Self {
        self.configure_session(|session| session.timeouts(timeouts))
    }

    /// How tool loading is retried. Default: 3 retries, 100 ms apart. No effect on a toolset
    /// built [`with_session`](McpToolset::with_session).
    pub fn retry_policy(self, retry: RetryPolicy) -> Self {
        self.configure_session(|session| session.retry_policy(retry))
    }

    /// Answers the server's elicitations with `handler`, which also makes the session
    /// advertise the capability. No effect on a toolset built
    /// [`with_session`](McpToolset::with_session).
    pub fn elicitation_handler(self, handler: impl ElicitationHandler + 'static) -> Self {
        self.configure_session(|session| session.elicitation_handler(handler))
    }

    /// The name and version this client announces in `initialize`. Default `toolport` and the
    /// crate's version. No effect on a toolset built [`with_session`](McpToolset::with_session).
    pub fn client_info(self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.configure_session(|session| session.client_info(name, version))
    }

    /// The protocol version asked for in `initialize`. Default `2025-11-25`. No effect on a
    /// toolset built [`with_session`](McpToolset::with_session).
    pub fn protocol_version(self, version: ProtocolVersion) -> Self {
        self.configure_session(|session| session.protocol_version(version))
    }

    fn configure_session(
        mut self,
        configure: impl FnOnce(SessionBuilder) -> SessionBuilder,
    ) -> Self {
        if let SessionSource::Build(session) = self.session {
            self.session = SessionSource::Build(Box::new(configure(*session)));
        }
        self
    }

    /// Offers only the named tools.
    pub fn allow<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.filter = ToolFilter::Allow(names.into_iter().map(Into::into).collect());
        self
    }

    /// Offers the tools `predicate` allows for each caller.
    ///
    /// ```
    /// use toolport_tools::{McpToolset, ReadonlyContext, ToolDefinition};
    ///
    /// // Hide write tools from read-only users.
    /// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector()).filter(
    ///     |tool: &ToolDefinition, context: Option<&ReadonlyContext>| {
    ///         let viewer = context.is_some_and(|c| c.get("role").is_some_and(|r| r == "viewer"));
    ///         !viewer || tool.annotations.as_ref().is_some_and(|a| a.read_only_hint == Some(true))
    ///     },
    /// );
    /// # drop(builder);
    /// ```
    pub fn filter(mut self, predicate: impl ToolPredicate + 'static) -> Self {
        self.filter = ToolFilter::Predicate(Arc::new(predicate));
        self
    }

    /// With an allowlist: fail [`build`](Self::build) when a listed name is missing on the
    /// server. This connects at build time.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// How results are shown to the model. Default [`Mapping::Rich`].
    pub fn mapping(mut self, mapping: Mapping) -> Self {
        self.mapper = mapping.mapper();
        self
    }

    /// A custom result mapper.
    pub fn result_mapper(mut self, mapper: Arc<dyn ResultMapper>) -> Self {
        self.mapper = mapper;
        self
    }

    /// Bounds what the model reads of each tool's result, for every tool without a budget of
    /// its own (see [`tool_output_budget`](Self::tool_output_budget)). Default: no bound. The
    /// application still gets the whole result, in [`ToolOutput::uncut_value`] and
    /// [`ToolOutput::result`](crate::ToolOutput::result).
    ///
    /// [`ToolOutput::uncut_value`]: crate::ToolOutput::uncut_value
    pub fn output_budget(mut self, budget: OutputBudget) -> Self {
        self.budgets.set_toolset(budget);
        self
    }

    /// Bounds what the model reads of the results of the tool the server names `name`; this
    /// beats the toolset's [`output_budget`](Self::output_budget).
    /// [`OutputBudget::unlimited`] exempts the tool.
    ///
    /// ```
    /// use toolport_tools::{McpToolset, OutputBudget};
    ///
    /// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector())
    ///     .output_budget(OutputBudget::tokens(2_000))
    ///     .tool_output_budget("list_tasks", OutputBudget::bytes(64 * 1024));
    /// # drop(builder);
    /// ```
    pub fn tool_output_budget(mut self, name: impl Into<String>, budget: OutputBudget) -> Self {
        self.budgets.set_tool(name.into(), budget);
        self
    }

    /// Replays any call lost with the connection, not only read-only or idempotent ones. Opt in
    /// only when every tool of the server is safe to run twice.
    pub fn replay_all_calls(mut self, replay: bool) -> Self {
        self.replay_opt_in = replay;
        self
    }

    /// Fits the tools to a model provider: names by its rule (for Gemini,
    /// [`NameRule::gemini`](crate::names::NameRule::gemini); for the others the default
    /// 64-character rule) and input schemas by its adapter. Each tool's declaration then has
    /// the model-facing name and the adapted schema, [`McpTool::function_declaration`] gives the
    /// provider's JSON, and a call goes to the server's name with the `null`s strict mode adds
    /// taken out. Names and schemas are fitted once per tool list, so a warm turn adapts
    /// nothing. Allowlists and predicates still see the server's names.
    pub fn provider(mut self, provider: Provider) -> Self {
        self.adaptation = Adaptation::for_provider(provider);
        self
    }

    /// Names the tools with `namer` (a rule, and a prefix such as the server's id), instead of
    /// the server's names or the [`provider`](Self::provider)'s rule.
    pub fn tool_namer(mut self, namer: ToolNamer) -> Self {
        self.adaptation = self.adaptation.with_namer(namer);
        self
    }

    /// Adapts the input schemas with `adapter`, instead of leaving them as the server wrote
    /// them or the [`provider`](Self::provider)'s adapter.
    pub fn schema_adapter(mut self, adapter: Arc<dyn SchemaAdapter>) -> Self {
        self.adaptation = self.adaptation.with_schema_adapter(adapter);
        self
    }

    /// Which of each tool's schemas its calls are checked against: by default the arguments
    /// before they are sent (a mismatch never reaches the server) and the structured content
    /// of the result. Needs the `jsonschema` feature; without it, nothing is checked.
    pub fn schema_checks(mut self, checks: SchemaChecks) -> Self {
        self.schema_checks = checks;
        self
    }

    /// Lists tools on every [`tools`](McpToolset::tools) call instead of caching, as ADK does.
    pub fn list_every_turn(mut self, list_every_turn: bool) -> Self {
        self.list_every_turn = list_every_turn;
        self
    }

    /// Which callers may share a cached tool list: those whose contexts `key` maps to the same
    /// string. By default the whole context is the key, so callers who might see different
    /// tools (because a header provider sends each one's identity, say) never see each
    /// other's list. Key on the identity alone (`|c| user_id_of(c)`) to share a list across a
    /// user's requests, or return one constant to share a single list when every caller sees
    /// the same tools.
    ///
    /// ```
    /// use toolport_tools::{McpToolset, ReadonlyContext};
    ///
    /// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector()).cache_key(
    ///     |context: Option<&ReadonlyContext>| {
    ///         let user = context.and_then(|c| c.get("user_id")).and_then(|id| id.as_str());
    ///         user.unwrap_or_default().to_owned()
    ///     },
    /// );
    /// # drop(builder);
    /// ```
    pub fn cache_key(
        mut self,
        key: impl Fn(Option<&ReadonlyContext>) -> String + Send + Sync + 'static,
    ) -> Self {
        self.cache_key = Arc::new(key);
        self
    }

    /// The toolset. It connects lazily, on first use, unless [`strict`](Self::strict) is set
    /// with an allowlist, which checks the server's tools now; call
    /// [`McpToolset::connect`] to connect now without checking.
    pub async fn build(self) -> Result<McpToolset, ToolsetError> {
        let session = match self.session {
            SessionSource::Build(session) => session.build(),
            SessionSource::Existing(session) => session,
        };
        let toolset = McpToolset {
            session,
            filter: self.filter,
            mapper: self.mapper,
            budgets: self.budgets,
            replay_opt_in: self.replay_opt_in,
            schema_checks: self.schema_checks,
            adaptation: self.adaptation,
            list_every_turn: self.list_every_turn,
            cache: ToolListCache::new(self.cache_key),
        };
        if self.strict {
            toolset.check_allowlist().await?;
        }
        Ok(toolset)
    }
}
