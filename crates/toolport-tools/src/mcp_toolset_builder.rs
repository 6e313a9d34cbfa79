//! [`McpToolsetBuilder`]: every setting of a toolset, and the way to the session's.

use std::sync::Arc;

use rmcp::model::CallToolResult;
use toolport_core::BoxError;
use toolport_session::{McpSession, SessionBuilder};

#[cfg(feature = "output-budgets")]
use crate::OutputBudgets;
use crate::call_path::{CallPath, Layers};
use crate::tool_cache::ToolListCache;
use crate::{
    ListCaching, LoadResourceTool, Mapping, McpToolset, ModelFit, ReplayPolicy, ResultMapper,
    SchemaChecks, ToolCall, ToolFilter, ToolPredicate, ToolService, ToolSession, ToolsetError,
};

/// Builds an [`McpToolset`]. The settings of the session it makes are set on that session's
/// builder, reached with [`session`](Self::session).
#[must_use]
pub struct McpToolsetBuilder<S: ToolSession = McpSession> {
    session: SessionSource<S>,
    /// Whether session settings were given for a shared session, which
    /// [`build`](Self::build) refuses.
    session_settings_unapplied: bool,
    filter: ToolFilter,
    mapper: Arc<dyn ResultMapper>,
    #[cfg(feature = "output-budgets")]
    budgets: OutputBudgets,
    replay: ReplayPolicy,
    strict: bool,
    schema_checks: SchemaChecks,
    fit: ModelFit,
    list_caching: ListCaching,
    load_resource_tool: Option<String>,
    layers: Layers,
}

impl<S: ToolSession> std::fmt::Debug for McpToolsetBuilder<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpToolsetBuilder")
            .field("session", &self.session)
            .field(
                "session_settings_unapplied",
                &self.session_settings_unapplied,
            )
            .field("filter", &self.filter)
            .field("mapper", &self.mapper)
            .field("replay", &self.replay)
            .field("strict", &self.strict)
            .field("schema_checks", &self.schema_checks)
            .field("fit", &self.fit)
            .field("list_caching", &self.list_caching)
            .field("load_resource_tool", &self.load_resource_tool)
            .field("layers", &self.layers)
            .finish_non_exhaustive()
    }
}

/// Where a toolset's session comes from.
#[derive(Debug)]
pub(crate) enum SessionSource<S> {
    /// A new [`McpSession`], still being configured (boxed: a builder is much larger than a
    /// handle), and the function that builds it: `SessionBuilder::build`, which makes this
    /// variant possible only when `S` is `McpSession`.
    Build {
        builder: Box<SessionBuilder>,
        build: fn(SessionBuilder) -> S,
    },
    /// A session someone else also holds, or a fake.
    Existing(S),
}

impl McpToolsetBuilder {
    /// Configures the session this toolset makes: `configure` receives its
    /// [`SessionBuilder`] (timeouts, retries, elicitation, tasks, client info, protocol
    /// version) and returns it. Called again, it configures the same builder further.
    ///
    /// ```
    /// # use toolport_tools::McpToolset;
    /// # use toolport_core::Timeouts;
    /// # fn toolset(connector: impl toolport_core::Connector) -> toolport_tools::McpToolsetBuilder {
    /// McpToolset::builder(connector).session(|session| session.timeouts(Timeouts::default()))
    /// # }
    /// ```
    ///
    /// A toolset built [`with_session`](McpToolset::with_session) shares a session built
    /// already, so there [`build`](Self::build) refuses this setting rather than drop it.
    pub fn session(mut self, configure: impl FnOnce(SessionBuilder) -> SessionBuilder) -> Self {
        match self.session {
            SessionSource::Build { builder, build } => {
                self.session = SessionSource::Build {
                    builder: Box::new(configure(*builder)),
                    build,
                };
            }
            SessionSource::Existing(_) => self.session_settings_unapplied = true,
        }
        self
    }
}

impl<S: ToolSession> McpToolsetBuilder<S> {
    pub(crate) fn new(session: SessionSource<S>) -> Self {
        Self {
            session,
            session_settings_unapplied: false,
            filter: ToolFilter::All,
            mapper: Arc::new(Mapping::default()),
            #[cfg(feature = "output-budgets")]
            budgets: OutputBudgets::default(),
            replay: ReplayPolicy::default(),
            strict: false,
            schema_checks: SchemaChecks::default(),
            fit: ModelFit::default(),
            list_caching: ListCaching::default(),
            load_resource_tool: None,
            layers: Layers::default(),
        }
    }

    /// Offers only the named tools.
    pub fn allow<I, N>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = N>,
        N: Into<String>,
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

    /// How results are shown to the model: a [`Mapping`] preset ([`Mapping::Rich`] by
    /// default) or a [`ResultMapper`] of your own.
    pub fn mapping(mut self, mapper: impl ResultMapper + 'static) -> Self {
        self.mapper = Arc::new(mapper);
        self
    }

    /// Bounds what the model reads of each tool's result: an [`OutputBudget`] for every tool,
    /// or [`OutputBudgets`] with budgets of some tools' own. Default: no bound. The
    /// application still gets the whole result, in [`ToolOutput::uncut_value`] and
    /// [`ToolOutput::result`](crate::ToolOutput::result).
    ///
    /// ```
    /// use toolport_tools::{McpToolset, OutputBudget};
    ///
    /// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector())
    ///     .output_budget(OutputBudget::tokens(2_000));
    /// # drop(builder);
    /// ```
    ///
    /// [`OutputBudget`]: crate::OutputBudget
    /// [`ToolOutput::uncut_value`]: crate::ToolOutput::uncut_value
    #[cfg(feature = "output-budgets")]
    pub fn output_budget(mut self, budgets: impl Into<OutputBudgets>) -> Self {
        self.budgets = budgets.into();
        self
    }

    /// Which calls the session may send again, and which tools carry an idempotency key (see
    /// [`ReplayPolicy`]). By default only a call of a tool annotated read-only or idempotent
    /// is replayed after a lost connection.
    ///
    /// ```
    /// use toolport_tools::{Idempotency, McpToolset, ReplayPolicy};
    ///
    /// let builder = McpToolset::builder(toolport_testkit::task_tracker_connector()).replay(
    ///     ReplayPolicy::default().idempotent("add_task", Idempotency::meta("idempotencyKey")),
    /// );
    /// # drop(builder);
    /// ```
    pub fn replay(mut self, policy: ReplayPolicy) -> Self {
        self.replay = policy;
        self
    }

    /// Fits the tools to the model: to a [`Provider`](crate::schema::Provider)'s name rule
    /// and schema adapter, or as a [`ModelFit`] says (a namer, a schema adapter, a
    /// [`DescriptionPolicy`](crate::DescriptionPolicy) for the servers' descriptions). Each
    /// tool's declaration then has the model-facing name and the adapted schema,
    /// [`McpTool::function_declaration`](crate::McpTool::function_declaration) gives the
    /// provider's JSON, and a call goes to the server's name with the `null`s strict mode
    /// adds taken out. Tools are fitted once per tool list, so a warm turn adapts nothing.
    /// Allowlists and predicates still see the server's names.
    ///
    /// ```
    /// use toolport_tools::McpToolset;
    /// use toolport_tools::schema::Provider;
    ///
    /// let builder =
    ///     McpToolset::builder(toolport_testkit::task_tracker_connector()).fit_to(Provider::Gemini);
    /// # drop(builder);
    /// ```
    pub fn fit_to(mut self, fit: impl Into<ModelFit>) -> Self {
        self.fit = fit.into();
        self
    }

    /// Which of each tool's schemas its calls are checked against: by default the arguments
    /// before they are sent (a mismatch never reaches the server) and the structured content
    /// of the result. Needs the `jsonschema` feature; without it, nothing is checked.
    pub fn schema_checks(mut self, checks: SchemaChecks) -> Self {
        self.schema_checks = checks;
        self
    }

    /// Offers a [`LoadResourceTool`] named `name` ([`LoadResourceTool::NAME`] for the usual
    /// `load_resource`) beside the server's tools, when the server declares resources, so that
    /// the model can read them. It is in [`tools`](McpToolset::tools) (and so in
    /// [`Toolset::tools`](crate::Toolset::tools)), not in
    /// [`mcp_tools`](McpToolset::mcp_tools), which holds the server's own; the allow and deny
    /// lists do not apply to it, and it keeps its name under a provider's name rules.
    pub fn load_resource_tool(mut self, name: impl Into<String>) -> Self {
        self.load_resource_tool = Some(name.into());
        self
    }

    /// How the tool list is cached, and which callers share it: see [`ListCaching`]. By
    /// default each distinct caller context has a list of its own.
    pub fn list_caching(mut self, caching: ListCaching) -> Self {
        self.list_caching = caching;
        self
    }

    /// Wraps every call of every tool in `layer` (a tower timeout, concurrency limit, rate
    /// limit, retry; a hook that approves, denies or answers calls, [`BeforeCallLayer`]; one
    /// that rewrites results, [`AfterCallLayer`]; an [`ApprovalPolicy`]), inside the layers
    /// added before it. Arguments are checked before the layers; the server's structured
    /// content is checked before they see it, and results are mapped and budgeted after them.
    /// One stack serves the whole toolset, and each call runs on a clone of it. See
    /// `docs/tools.md`.
    ///
    /// [`BeforeCallLayer`]: crate::BeforeCallLayer
    /// [`AfterCallLayer`]: crate::AfterCallLayer
    /// [`ApprovalPolicy`]: crate::ApprovalPolicy
    pub fn layer<L>(mut self, layer: L) -> Self
    where
        L: tower::Layer<ToolService> + Send + Sync + 'static,
        L::Service: tower::Service<ToolCall, Response = CallToolResult> + Clone + Send + Sync,
        L::Service: 'static,
        <L::Service as tower::Service<ToolCall>>::Error: Into<BoxError>,
        <L::Service as tower::Service<ToolCall>>::Future: Send + 'static,
    {
        self.layers.push(layer);
        self
    }

    /// The toolset. It connects lazily, on first use, unless [`strict`](Self::strict) is set
    /// with an allowlist, which checks the server's tools now; call
    /// [`McpToolset::connect`] to connect now without checking.
    ///
    /// # Errors
    ///
    /// [`ToolsetError::SessionSettings`] when [`session`](Self::session) was given for a
    /// toolset built [`with_session`](McpToolset::with_session), whose session is built
    /// already: it would do nothing. And, with [`strict`](Self::strict), as
    /// [`McpToolset::tools`] when the server's tools cannot be checked, or
    /// [`ToolsetError::MissingTools`].
    pub async fn build(self) -> Result<McpToolset<S>, ToolsetError> {
        if self.session_settings_unapplied {
            return Err(ToolsetError::SessionSettings);
        }
        let session = Arc::new(match self.session {
            SessionSource::Build { builder, build } => build(*builder),
            SessionSource::Existing(session) => session,
        });
        let shared_session: Arc<dyn ToolSession> = session.clone();
        let call_path = CallPath::new(&shared_session, &self.layers);
        let load_resource = self
            .load_resource_tool
            .map(|name| Arc::new(LoadResourceTool::new(shared_session.clone()).named(name)));
        let toolset = McpToolset {
            session,
            shared_session,
            filter: self.filter,
            mapper: self.mapper,
            #[cfg(feature = "output-budgets")]
            budgets: self.budgets,
            replay: self.replay,
            schema_checks: self.schema_checks,
            fit: self.fit,
            load_resource,
            cache: ToolListCache::new(self.list_caching),
            call_path,
        };
        if self.strict {
            toolset.check_allowlist().await?;
        }
        Ok(toolset)
    }
}
